/**
 * Device detail → thing-model data, with history trend and command delivery: a card per property of
 * the published model with its latest value (unit, BOOL and ENUM names, time, the reason when the
 * value did not fit the model), updated live over the websocket; the device's state live beside it;
 * the services with command delivery; values the device reports outside the model. Without a
 * published model it says so and links to the product's thing-model tab. The history drawer (with
 * uPlot) and the command dialog load on first use.
 */
import { Suspense, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Empty from '@arco-design/web-react/es/Empty';
import Link from '@arco-design/web-react/es/Link';
import Spin from '@arco-design/web-react/es/Spin';
import Tag from '@arco-design/web-react/es/Tag';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import IconExclamationCircle from '@arco-design/web-react/icon/react-icon/IconExclamationCircle';
import IconHistory from '@arco-design/web-react/icon/react-icon/IconHistory';
import IconSend from '@arco-design/web-react/icon/react-icon/IconSend';
import { useTranslation } from 'react-i18next';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { navigateGuarded } from '../../lib/navigation.ts';
import { useLatestTelemetry, type LatestValue } from '../../lib/use-live.ts';
import { lazyPanel } from '../../lib/tab-registry.ts';
import type { CommandPreset } from '../command/CommandModal.tsx';
import { deviceStateColors } from '../device/deviceStyle.ts';
import type { DeviceTabProps } from '../device/deviceTab.ts';
import { productDetailPath } from '../../../server/contract/console-paths.ts';
import { usePublishedModel } from '../thing-model/usePublishedModel.ts';
import { formatValue, rawText } from './valueFormat.ts';
import './telemetry.css';

const HistoryDrawer = lazyPanel(() => import('./HistoryDrawer.tsx'), 'HistoryDrawer');
const CommandModal = lazyPanel(() => import('../command/CommandModal.tsx'), 'CommandModal');

type Property = ThingModelTsl['properties'][number];

export function ThingModelDataTab({ device }: DeviceTabProps): JSX.Element {
  const { t } = useTranslation(['telemetry', 'device']);
  const { model, loading, failed, reload } = usePublishedModel(device.deviceProfileId);
  const latest = useLatestTelemetry(device.id);
  const [history, setHistory] = useState<{ key: string | null } | null>(null);
  const [command, setCommand] = useState<CommandPreset | null>(null);
  // The device page keeps `device` live (state and times): one copy for the header and every tab.
  const state = device.deviceState;
  const modelKeys = new Set(model?.properties.map((p) => p.identifier) ?? []);
  const others = Object.keys(latest.data).filter((key) => !modelKeys.has(key)).sort();

  if (loading) return <Spin className="ec-device-spin" />;
  if (failed) {
    return (
      <Empty
        description={
          <Button onClick={() => void reload()} data-testid="data-retry">
            {t('data.retry')}
          </Button>
        }
      />
    );
  }

  const productLink = productDetailPath(device.deviceProfileId);
  return (
    <section className="ec-data" data-testid="thing-model-data-tab">
      <header className="ec-data__header">
        <span className="ec-data__state">
          {t('data.state')}
          <EnumTag ns="device" group="state" value={state} colors={deviceStateColors} testId="data-device-state" size="default" />
          {device.lastOnlineTime ? <span className="ec-data__muted">{t('data.lastOnline', { time: formatDateTime(device.lastOnlineTime) })}</span> : null}
        </span>
        {model ? <span className="ec-data__muted">{t('data.modelVersion', { version: model.version ?? 1 })}</span> : null}
        <span className="ec-data__actions">
          <Button icon={<IconHistory />} disabled={!model} onClick={() => setHistory({ key: null })} data-testid="data-history">
            {t('data.history')}
          </Button>
          <Button type="primary" icon={<IconSend />} onClick={() => setCommand({ commandType: model?.services.length ? 'SERVICE' : 'CUSTOM' })} data-testid="data-command">
            {t('data.command')}
          </Button>
        </span>
      </header>

      {!model ? (
        <Empty
          data-testid="data-no-model"
          description={
            <span>
              {t('data.noModel')}{' '}
              <Link
                href={`${productLink}?tab=thingModel`}
                onClick={(e) => {
                  e.preventDefault();
                  void navigateGuarded(`${productLink}?tab=thingModel`);
                }}
                data-testid="data-model-link"
              >
                {t('data.defineModel')}
              </Link>
            </span>
          }
        />
      ) : (
        <>
          <h3 className="ec-data__title">{t('data.properties')}</h3>
          {model.properties.length ? (
            <div className="ec-data__cards" aria-live="polite">
              {model.properties.map((property) => (
                <PropertyCard
                  key={property.identifier}
                  property={property}
                  latest={latest.data[property.identifier]}
                  loading={latest.loading}
                  onHistory={() => setHistory({ key: property.identifier })}
                  onCommand={() => setCommand({ commandType: 'ATTRIBUTE', property: property.identifier })}
                />
              ))}
            </div>
          ) : (
            <Empty description={t('data.noProperties')} />
          )}
          {model.services.length ? (
            <>
              <h3 className="ec-data__title">{t('data.services')}</h3>
              <div className="ec-data__services">
                {model.services.map((service) => (
                  <div key={service.identifier} className="ec-data__service" data-testid={`data-service-${service.identifier}`}>
                    <span>
                      <strong>{service.functionName}</strong> <code>{service.identifier}</code>
                    </span>
                    <EnumTag ns="thingModel" group="callType" value={service.callType} />
                    <Button
                      size="small"
                      icon={<IconSend />}
                      onClick={() => setCommand({ commandType: 'SERVICE', service: service.identifier })}
                      data-testid={`data-service-command-${service.identifier}`}
                    >
                      {t('data.command')}
                    </Button>
                  </div>
                ))}
              </div>
            </>
          ) : null}
        </>
      )}

      {others.length ? (
        <>
          <h3 className="ec-data__title">{t('data.others')}</h3>
          <div className="ec-data__cards">
            {others.map((key) => (
              <OtherCard key={key} name={key} latest={latest.data[key]!} />
            ))}
          </div>
        </>
      ) : null}

      <Suspense fallback={null}>
        {model && history ? (
          <HistoryDrawer deviceId={device.id} model={model} initialKey={history.key} visible onClose={() => setHistory(null)} />
        ) : null}
        {command ? <CommandModal device={device} model={model} preset={command} visible onClose={() => setCommand(null)} /> : null}
      </Suspense>
    </section>
  );
}

interface PropertyCardProps {
  property: Property;
  latest: LatestValue | undefined;
  loading: boolean;
  onHistory: () => void;
  onCommand: () => void;
}

function FlagTag({ flag, testId }: { flag: string; testId: string }): JSX.Element {
  const { t } = useTranslation('telemetry');
  return (
    <Tooltip content={flag}>
      <Tag size="small" color="orangered" bordered={false} icon={<IconExclamationCircle />} data-testid={testId}>
        {t('flagged')}
      </Tag>
    </Tooltip>
  );
}

function PropertyCard({ property, latest, loading, onHistory, onCommand }: PropertyCardProps): JSX.Element {
  const { t } = useTranslation(['telemetry', 'thingModel']);
  const id = property.identifier;
  const shown = latest ? formatValue(latest.value, property.functionJson.dataType) : null;
  return (
    <article className={`ec-data__card${latest?.flag ? ' is-flagged' : ''}`} data-testid={`data-card-${id}`}>
      <div className="ec-data__card-head">
        <span className="ec-data__card-name" title={id}>
          {property.functionName}
        </span>
        <EnumTag ns="thingModel" group="accessMode" value={property.accessMode} />
      </div>
      <div className="ec-data__value" data-testid={`data-value-${id}`}>
        {shown && shown.text !== '' ? (
          <>
            <span className="ec-data__number">{shown.label ?? shown.text}</span>
            {shown.unit ? <span className="ec-data__unit">{shown.unit}</span> : null}
            {shown.label ? <span className="ec-data__raw">({shown.text})</span> : null}
          </>
        ) : (
          <span className="ec-data__none">{loading ? '…' : t('data.noValue')}</span>
        )}
      </div>
      {latest?.flag ? (
        <div className="ec-data__flag" data-testid={`data-flag-${id}`}>
          <FlagTag flag={latest.flag} testId={`data-flag-tag-${id}`} />
          <span className="ec-data__flag-text">{latest.flag}</span>
        </div>
      ) : null}
      <div className="ec-data__card-foot">
        <span className="ec-data__muted" data-testid={`data-time-${id}`}>
          {latest ? formatDateTime(latest.ts) : '—'}
        </span>
        <span>
          <Button type="text" size="mini" icon={<IconHistory />} onClick={onHistory} data-testid={`data-history-${id}`}>
            {t('data.trend')}
          </Button>
          {property.accessMode === 'rw' ? (
            <Button type="text" size="mini" icon={<IconSend />} onClick={onCommand} data-testid={`data-command-${id}`}>
              {t('data.set')}
            </Button>
          ) : null}
        </span>
      </div>
    </article>
  );
}

/** A value the device reported under a key the published model does not have. */
function OtherCard({ name, latest }: { name: string; latest: LatestValue }): JSX.Element {
  return (
    <article className={`ec-data__card${latest.flag ? ' is-flagged' : ''}`} data-testid={`data-other-${name}`}>
      <div className="ec-data__card-head">
        <code className="ec-data__card-name">{name}</code>
      </div>
      <div className="ec-data__value">
        <span className="ec-data__number ec-data__number--small">{rawText(latest.value)}</span>
      </div>
      {latest.flag ? (
        <div className="ec-data__flag">
          <FlagTag flag={latest.flag} testId={`data-other-flag-${name}`} />
        </div>
      ) : null}
      <div className="ec-data__card-foot">
        <span className="ec-data__muted">{formatDateTime(latest.ts)}</span>
      </div>
    </article>
  );
}
