/**
 * Device detail → TCP link (TCP devices): the link (TcpLinkPanel.tsx) and, for Modbus devices,
 * the live value of every polled point with "read now" per point and for all, and "write" for
 * writable points (ModbusWriteModal.tsx). Both refresh from the server on their own: the link every
 * few seconds, the points at the product's polling period (bounded so a slow period still updates
 * and a fast one does not flood the console).
 */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Empty from '@arco-design/web-react/es/Empty';
import Message from '@arco-design/web-react/es/Message';
import Spin from '@arco-design/web-react/es/Spin';
import Table from '@arco-design/web-react/es/Table';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import IconDownload from '@arco-design/web-react/icon/react-icon/IconDownload';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import IconSync from '@arco-design/web-react/icon/react-icon/IconSync';
import { useTranslation } from 'react-i18next';
import { productDetailPath } from '../../../server/contract/console-paths.ts';
import type { ModbusPoint, ModbusPointList } from '../../../server/contract/modbus.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { navigateGuarded } from '../../lib/navigation.ts';
import type { DeviceTabProps } from '../device/deviceTab.ts';
import { fetchLink, fetchPoints, readPoints } from './modbusApi.ts';
import { mergeReadings, pointAddress, pointRefreshMs, pointValueText } from './modbusFormat.ts';
import { outcomeColors } from './modbusStyle.ts';
import { ModbusWriteModal } from './ModbusWriteModal.tsx';
import { TcpLinkPanel } from './TcpLinkPanel.tsx';
import { usePolled } from './usePolled.ts';
import './modbus.css';

const LINK_REFRESH_MS = 3_000;

/** A custom-protocol TCP device: it has no points, however often it is asked. */
function isNotModbus(err: unknown): boolean {
  return err instanceof ApiError && err.key === 'error.modbus.notModbus';
}

export function TcpLinkTab({ device }: DeviceTabProps): JSX.Element {
  const { t } = useTranslation('modbus');
  const link = usePolled(() => fetchLink(device.id), LINK_REFRESH_MS);
  const [refreshMs, setRefreshMs] = useState(LINK_REFRESH_MS);
  const points = usePolled(
    async () => {
      const list = await fetchPoints(device.id);
      setRefreshMs(pointRefreshMs(list.pollIntervalMs));
      return list;
    },
    refreshMs,
    isNotModbus,
  );

  if (link.loading && !link.data) return <Spin className="ec-modbus-spin" />;
  return (
    <section className="ec-modbus" data-testid="tcp-link-tab" aria-label={t('tab')}>
      {link.data ? (
        <TcpLinkPanel link={link.data} onRefresh={() => void link.reload()} />
      ) : (
        <Empty
          description={
            <span className="ec-modbus-retry">
              {t('link.loadFailed')}
              <Button size="small" onClick={() => void link.reload()} data-testid="tcp-link-retry">
                {t('link.retry')}
              </Button>
            </span>
          }
        />
      )}
      <PointsSection deviceId={device.id} deviceProfileId={device.deviceProfileId} points={points} />
    </section>
  );
}

interface PointsSectionProps {
  deviceId: string;
  deviceProfileId: string;
  points: ReturnType<typeof usePolled<ModbusPointList>>;
}

function PointsSection({ deviceId, deviceProfileId, points }: PointsSectionProps): JSX.Element {
  const { t } = useTranslation(['modbus', 'errors']);
  const [reading, setReading] = useState<ReadonlySet<string>>(new Set());
  const [writing, setWriting] = useState<ModbusPoint | null>(null);
  const all = '*';

  const read = async (identifiers?: string[]): Promise<void> => {
    const key = identifiers ? identifiers : [all];
    setReading((r) => new Set([...r, ...key]));
    try {
      const answer = await readPoints(deviceId, identifiers);
      points.set((list) => (list ? { ...list, items: mergeReadings(list.items, answer.items) } : list));
      const failed = answer.items.filter((r) => r.outcome !== 'OK');
      if (failed.length === 0) Message.success(t('points.readDone', { count: answer.items.length }));
      else Message.warning(failed.map((r) => `${r.identifier}: ${r.message ?? r.outcome}`).join('; '));
    } catch (err) {
      Message.error(err instanceof ApiError ? err.message : t('errors:general'));
    } finally {
      setReading((r) => new Set([...r].filter((k) => !key.includes(k))));
    }
  };

  if (points.loading && !points.data) return <Spin className="ec-modbus-spin" />;
  if (!points.data) {
    const notModbus = isNotModbus(points.error);
    return (
      <section className="ec-modbus-card" data-testid="modbus-points-unavailable">
        <Empty description={notModbus ? t('points.notModbus') : t('link.loadFailed')} />
      </section>
    );
  }

  const columns: ColumnProps<ModbusPoint>[] = [
    {
      title: t('points.name'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <span className="ec-modbus-point">
          <span>{name}</span>
          <code>{row.identifier}</code>
        </span>
      ),
    },
    { title: t('points.address'), key: 'address', width: 130, render: (_: unknown, row) => <code>{pointAddress(row.extensionDesc)}</code> },
    {
      title: t('points.dataType'),
      key: 'dataType',
      width: 220,
      render: (_: unknown, row) => <EnumTag ns="thingModel" group="modbusDataType" value={row.extensionDesc.originalDataType} />,
    },
    {
      title: t('points.value'),
      dataIndex: 'value',
      width: 120,
      render: (value: ModbusPoint['value'], row) =>
        row.polled ? (
          <strong className="ec-modbus-value" data-testid={`modbus-value-${row.identifier}`}>
            {pointValueText(value)}
          </strong>
        ) : (
          <span className="ec-modbus-muted">{t('points.writeOnly')}</span>
        ),
    },
    { title: t('points.ts'), dataIndex: 'ts', width: 170, render: (ts: number | null) => (ts ? formatDateTime(ts) : '—') },
    {
      title: t('points.outcome'),
      dataIndex: 'outcome',
      width: 120,
      render: (outcome: ModbusPoint['outcome'], row) =>
        outcome ? (
          <Tooltip content={row.message ?? undefined} disabled={!row.message}>
            <span tabIndex={row.message ? 0 : undefined}>
              <EnumTag ns="modbus" group="outcome" value={outcome} colors={outcomeColors} testId={`modbus-outcome-${row.identifier}`} />
            </span>
          </Tooltip>
        ) : (
          '—'
        ),
    },
    {
      title: t('points.actions'),
      key: 'actions',
      width: 190,
      fixed: 'right',
      render: (_: unknown, row) => (
        <span className="ec-modbus-actions">
          {row.polled ? (
            <Button
              type="text"
              size="small"
              icon={<IconDownload />}
              loading={reading.has(row.identifier)}
              onClick={() => void read([row.identifier])}
              aria-label={t('points.readAria', { name: row.name })}
              data-testid={`modbus-read-${row.identifier}`}
            >
              {t('points.read')}
            </Button>
          ) : null}
          {row.writable ? (
            <Button
              type="text"
              size="small"
              icon={<IconEdit />}
              onClick={() => setWriting(row)}
              aria-label={t('points.writeAria', { name: row.name })}
              data-testid={`modbus-write-${row.identifier}`}
            >
              {t('points.write')}
            </Button>
          ) : null}
        </span>
      ),
    },
  ];

  return (
    <section className="ec-modbus-card" aria-labelledby="modbus-points-title" data-testid="modbus-points">
      <header className="ec-modbus-card__head">
        <h3 id="modbus-points-title">{t('points.title')}</h3>
        <span className="ec-modbus-muted" data-testid="modbus-poll-interval">
          {t('points.pollInterval', { ms: points.data.pollIntervalMs })}
        </span>
        <Button
          type="primary"
          size="small"
          icon={<IconSync />}
          loading={reading.has(all)}
          disabled={!points.data.items.some((p) => p.polled)}
          onClick={() => void read()}
          data-testid="modbus-read-all"
        >
          {t('points.readAll')}
        </Button>
      </header>
      <Table<ModbusPoint>
        rowKey="identifier"
        size="small"
        border={false}
        columns={columns}
        data={points.data.items}
        pagination={false}
        scroll={{ x: 1100 }}
        noDataElement={
          <Empty
            description={
              <span className="ec-modbus-retry">
                {t('points.empty')}
                <Button type="text" size="small" onClick={() => void navigateGuarded(`${productDetailPath(deviceProfileId)}?tab=thingModel`)}>
                  {t('points.emptyAction')}
                </Button>
              </span>
            }
          />
        }
        data-testid="modbus-points-table"
      />
      <ModbusWriteModal deviceId={deviceId} deviceProfileId={deviceProfileId} point={writing} onClose={() => setWriting(null)} onWritten={() => void points.reload()} />
    </section>
  );
}

