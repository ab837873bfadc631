/**
 * Basic information tab of the device detail page: every field, edit, location (on a tile map when
 * a tile server is configured and reachable), public flag.
 */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Message from '@arco-design/web-react/es/Message';
import Switch from '@arco-design/web-react/es/Switch';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import IconLocation from '@arco-design/web-react/icon/react-icon/IconLocation';
import { useTranslation } from 'react-i18next';
import { EnumTag } from '../../components/EnumTag.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { setPublic } from './deviceApi.ts';
import { DeviceFormDrawer } from './DeviceFormDrawer.tsx';
import { deviceStateColors, deviceTypeColors } from './deviceStyle.ts';
import type { DeviceTabProps } from './deviceTab.ts';
import { LocationModal } from './LocationModal.tsx';
import { useTileUrl } from './mapSettingsApi.ts';
import { SlippyMap } from './SlippyMap.tsx';
import { Permitted } from '../../components/Permitted.tsx';
import { usePermission } from '../../stores/permissions.ts';
import './device.css';

export function DeviceInfoTab({ device, onDeviceChange }: DeviceTabProps): JSX.Element {
  const { t } = useTranslation(['device', 'table']);
  const canUpdate = usePermission('device:update');
  const [editing, setEditing] = useState(false);
  const [locating, setLocating] = useState(false);
  const [switching, setSwitching] = useState(false);
  const tileUrl = useTileUrl();
  const [tilesFailed, setTilesFailed] = useState(false);

  const togglePublic = async (isPublic: boolean): Promise<void> => {
    setSwitching(true);
    try {
      onDeviceChange(await setPublic(device.id, isPublic));
      Message.success(isPublic ? t('publicOn') : t('publicOff'));
    } catch {
      // the client showed why
    } finally {
      setSwitching(false);
    }
  };

  const dash = (value: string | number | null | undefined): string => (value === null || value === undefined || value === '' ? '—' : String(value));
  const position =
    device.longitude !== null && device.latitude !== null ? `${device.longitude}, ${device.latitude}` : t('location.none');

  const data = [
    { label: t('fields.name'), value: <span data-testid="device-info-name">{device.name}</span> },
    { label: t('fields.alias'), value: <span data-testid="device-info-alias">{dash(device.alias)}</span> },
    { label: t('fields.deviceType'), value: <EnumTag ns="product" group="deviceType" value={device.deviceType} colors={deviceTypeColors} /> },
    { label: t('fields.state'), value: <EnumTag ns="device" group="state" value={device.deviceState} colors={deviceStateColors} testId="device-info-state" /> },
    { label: t('fields.product'), value: device.productName },
    { label: t('fields.transportType'), value: <EnumTag ns="product" group="transportType" value={device.transportType} /> },
    { label: t('fields.organization'), value: dash(device.organizationName) },
    ...(device.deviceType === 'SENSOR' ? [{ label: t('fields.gateway'), value: dash(device.gatewayName) }] : []),
    { label: t('fields.addressCode'), value: dash(device.addressCode) },
    { label: t('fields.label'), value: dash(device.label) },
    {
      label: t('fields.isPublic'),
      value: (
        <Switch
          size="small"
          checked={device.isPublic}
          loading={switching}
          disabled={!canUpdate}
          checkedText={t('public')}
          uncheckedText={t('private')}
          onChange={(v: boolean) => void togglePublic(v)}
          aria-label={t('fields.isPublic')}
          data-testid="device-info-public"
        />
      ),
    },
    { label: t('fields.position'), value: <span data-testid="device-info-position">{position}</span> },
    { label: t('fields.address'), value: <span data-testid="device-info-address">{dash(device.address)}</span> },
    { label: t('fields.createdTime'), value: formatDateTime(device.createdTime) },
    { label: t('fields.lastOnlineTime'), value: <span data-testid="device-info-last-online">{dash(formatDateTime(device.lastOnlineTime))}</span> },
    { label: t('fields.lastOfflineTime'), value: <span data-testid="device-info-last-offline">{dash(formatDateTime(device.lastOfflineTime))}</span> },
    { label: t('fields.description'), value: dash(device.description), span: 2 },
  ];

  return (
    <section className="ec-device-panel" data-testid="device-info-panel" aria-label={t('tabs.info')}>
      <div className="ec-device-panel__actions">
        <Permitted perm="device:update">
          <Button icon={<IconLocation />} onClick={() => setLocating(true)} data-testid="device-info-location">
            {t('location.button')}
          </Button>
          <Button type="primary" icon={<IconEdit />} onClick={() => setEditing(true)} data-testid="device-info-edit">
            {t('table:edit')}
          </Button>
        </Permitted>
      </div>
      <Descriptions column={{ xs: 1, md: 2 }} data={data} border labelStyle={{ width: 140 }} />
      {tileUrl && !tilesFailed && device.longitude !== null && device.latitude !== null ? (
        <div className="ec-device-panel__map">
          <SlippyMap
            tileUrl={tileUrl}
            point={{ longitude: device.longitude, latitude: device.latitude }}
            onTilesFailed={() => setTilesFailed(true)}
            height={220}
            testId="device-info-map"
          />
        </div>
      ) : null}
      <DeviceFormDrawer visible={editing} device={device} onClose={() => setEditing(false)} onSaved={onDeviceChange} />
      <LocationModal device={locating ? device : null} onClose={() => setLocating(false)} onSaved={onDeviceChange} />
    </section>
  );
}
