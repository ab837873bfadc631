/**
 * Device detail (`consolePaths.deviceDetail`): a header with name and alias, state, product,
 * organization, copy id and copy token; then the tab bar of the tabs the route table gives it
 * (web/routes.tsx, `deviceTabs`). The optional last segment names the open tab, so a tab can be
 * linked to (`…/credentials`).
 */
import { Suspense, useCallback, useEffect, useMemo, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Link from '@arco-design/web-react/es/Link';
import Message from '@arco-design/web-react/es/Message';
import Space from '@arco-design/web-react/es/Space';
import Spin from '@arco-design/web-react/es/Spin';
import Tabs from '@arco-design/web-react/es/Tabs';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import IconArrowLeft from '@arco-design/web-react/icon/react-icon/IconArrowLeft';
import IconCopy from '@arco-design/web-react/icon/react-icon/IconCopy';
import IconExclamationCircle from '@arco-design/web-react/icon/react-icon/IconExclamationCircle';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import { consolePaths, deviceDetailPath, productDetailPath } from '../../../server/contract/console-paths.ts';
import type { Device } from '../../../server/contract/device.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { StatusPanel } from '../../components/StatusPanel.tsx';
import { ApiError, isCancelled } from '../../lib/api-client.ts';
import { copyText } from '../../lib/clipboard.ts';
import { navigateGuarded } from '../../lib/navigation.ts';
import { useEntityState, type EntityState } from '../../lib/use-live.ts';
import { getCredentials, getDevice } from './deviceApi.ts';
import { deviceStateColors, deviceTypeColors } from './deviceStyle.ts';
import type { DeviceTabs } from './deviceTab.ts';
import { FavouriteStar } from './FavouriteStar.tsx';
import './device.css';
import { Permitted } from '../../components/Permitted.tsx';

export interface DeviceDetailPageProps {
  /** The tab bar, in sort order. */
  tabs: DeviceTabs;
}

export function DeviceDetailPage({ tabs }: DeviceDetailPageProps): JSX.Element {
  const { id, alarm } = useParams<{ id: string; alarm?: string }>();
  const { t, i18n } = useTranslation(['device', 'credentials']);
  // Tab titles come from the namespaces of whichever feature owns the tab (keys known at run time).
  const tabTitle = useTranslation(tabs.namespaces() as unknown as 'device').t as unknown as (key: string) => string;
  const [, navigate] = useLocation();
  const [device, setDevice] = useState<Device | null>(null);
  const [missing, setMissing] = useState<'notFound' | 'failed' | null>(null);
  const live = useEntityState(id);
  // The page's one copy of the device: the record as loaded, with the live feed's state and times
  // over it, so the header and every tab show the same thing and follow the device without a reload.
  const shown = useMemo(() => (device ? withLiveState(device, live.data) : null), [device, live.data]);

  // The language is a dependency on purpose: a switch reloads the names the server translates.
  const language = i18n.language;
  const load = useCallback(async (): Promise<void> => {
    setMissing(null);
    try {
      setDevice(await getDevice(id));
    } catch (err) {
      // A newer identical request (a language switch, a second click) replaced this one: not a failure.
      if (isCancelled(err)) return;
      const notFound = err instanceof ApiError && err.status === 404;
      setMissing(notFound ? 'notFound' : 'failed');
      if (!notFound) Message.error(err instanceof ApiError ? err.message : t('loadFailed'));
    }
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- `language` is not read here: a switch must reload the device.
  }, [id, t, language]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => setDevice(null), [id]);

  if (missing) {
    return (
      <StatusPanel
        testId="device-missing"
        icon={<IconExclamationCircle />}
        title={missing === 'notFound' ? t('detail.notFound') : t('loadFailed')}
        description={missing === 'notFound' ? t('detail.notFoundHint') : undefined}
        actions={
          <Space>
            {missing === 'failed' ? <Button onClick={() => void load()}>{t('credentials:retry')}</Button> : null}
            <Button type="primary" onClick={() => void navigateGuarded(consolePaths.device)} data-testid="device-missing-back">
              {t('detail.backToList')}
            </Button>
          </Space>
        }
      />
    );
  }
  if (!shown) return <Spin className="ec-device-spin" />;
  const panelProps = { device: shown, onDeviceChange: setDevice };
  const tab = tabs.find(alarm, panelProps);

  return (
    <div className="ec-device-detail" data-testid="device-detail">
      <DeviceHeader device={shown} onDeviceChange={setDevice} />
      <Tabs
        activeTab={tab.key}
        onChange={(key) => navigate(deviceDetailPath(shown.id, key), { replace: true })}
        className="ec-device-tabs"
        lazyload
        // Only the open tab is in the page: a hidden panel keeps no focusable content (and no live
        // subscriptions or timers of a tab nobody looks at).
        destroyOnHide
        data-testid="device-tabs"
      >
        {tabs.all(panelProps).map(({ key, titleKey, panel: Panel }) => (
          <Tabs.TabPane key={key} title={<span data-testid={`device-tab-${key}`}>{tabTitle(titleKey)}</span>}>
            <Suspense fallback={<Spin className="ec-device-spin" />}>
              <Panel {...panelProps} />
            </Suspense>
          </Tabs.TabPane>
        ))}
      </Tabs>
    </div>
  );
}

/** `device` with the live feed's state and online/offline times where the feed has them. */
function withLiveState(device: Device, live: EntityState): Device {
  if (live.state === null && live.lastOnlineTime === null && live.lastOfflineTime === null) return device;
  return {
    ...device,
    deviceState: live.state ?? device.deviceState,
    lastOnlineTime: live.lastOnlineTime ?? device.lastOnlineTime,
    lastOfflineTime: live.lastOfflineTime ?? device.lastOfflineTime,
  };
}

function DeviceHeader({ device, onDeviceChange }: { device: Device; onDeviceChange: (d: Device) => void }): JSX.Element {
  const { t } = useTranslation(['device', 'credentials']);

  const copy = async (text: string): Promise<void> => {
    if (await copyText(text)) Message.success(t('credentials:copied'));
    else Message.warning(t('credentials:copyFailed'));
  };
  const copyToken = async (): Promise<void> => {
    try {
      const credentials = await getCredentials(device.id);
      if (credentials.credentialsType === 'ACCESS_TOKEN') await copy(credentials.credentialsId);
      else Message.info(t('credentials:noToken', { type: t(`credentials:types.${credentials.credentialsType}`) }));
    } catch {
      // the client showed why
    }
  };

  return (
    <header className="ec-device-header">
      <div className="ec-device-header__title">
        <Button
          type="text"
          icon={<IconArrowLeft />}
          aria-label={t('detail.backToList')}
          title={t('detail.backToList')}
          onClick={() => void navigateGuarded(consolePaths.device)}
          data-testid="device-detail-back"
        />
        <h1 data-testid="device-detail-name">{device.alias || device.name}</h1>
        {device.alias ? <span className="ec-device-header__sub">{device.name}</span> : null}
        <EnumTag ns="device" group="state" value={device.deviceState} colors={deviceStateColors} testId="device-detail-state" size="default" />
        <FavouriteStar device={device} onChange={onDeviceChange} />
      </div>
      <dl className="ec-device-header__facts">
        <div>
          <dt>{t('fields.product')}</dt>
          <dd>
            <Link
              href={productDetailPath(device.deviceProfileId)}
              onClick={(e) => {
                e.preventDefault();
                void navigateGuarded(productDetailPath(device.deviceProfileId));
              }}
              data-testid="device-detail-product"
            >
              {device.productName}
            </Link>
          </dd>
        </div>
        <div>
          <dt>{t('fields.deviceType')}</dt>
          <dd>
            <EnumTag ns="product" group="deviceType" value={device.deviceType} colors={deviceTypeColors} />
          </dd>
        </div>
        <div>
          <dt>{t('fields.organization')}</dt>
          <dd data-testid="device-detail-organization">{device.organizationName ?? '—'}</dd>
        </div>
        <div>
          <dt>{t('fields.id')}</dt>
          <dd>
            <code className="ec-device-header__id">{device.id}</code>
          </dd>
        </div>
      </dl>
      <Space className="ec-device-header__actions" wrap>
        <Tooltip content={device.id}>
          <Button icon={<IconCopy />} onClick={() => void copy(device.id)} data-testid="device-copy-id">
            {t('credentials:copyId')}
          </Button>
        </Tooltip>
        <Permitted perm="device:credentials:view">
          <Button icon={<IconCopy />} onClick={() => void copyToken()} data-testid="device-copy-token">
            {t('credentials:copyToken')}
          </Button>
        </Permitted>
      </Space>
    </header>
  );
}
