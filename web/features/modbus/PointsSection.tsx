/** The points card of the TCP link tab (Modbus devices): live values, read one or all now, write a writable point. */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Empty from '@arco-design/web-react/es/Empty';
import Message from '@arco-design/web-react/es/Message';
import Spin from '@arco-design/web-react/es/Spin';
import Table from '@arco-design/web-react/es/Table';
import IconSync from '@arco-design/web-react/icon/react-icon/IconSync';
import { useTranslation } from 'react-i18next';
import { productDetailPath } from '../../../server/contract/console-paths.ts';
import type { ModbusPoint, ModbusPointList } from '../../../server/contract/modbus.ts';
import { ApiError } from '../../lib/api-client.ts';
import { navigateGuarded } from '../../lib/navigation.ts';
import { readPoints } from './modbusApi.ts';
import { mergeReadings } from './modbusFormat.ts';
import { ModbusWriteModal } from './ModbusWriteModal.tsx';
import type { usePolled } from './usePolled.ts';
import { usePointColumns } from './usePointColumns.tsx';

/** A custom-protocol TCP device: it has no points, however often it is asked. */
export function isNotModbus(err: unknown): boolean {
  return err instanceof ApiError && err.key === 'error.modbus.notModbus';
}

export interface PointsSectionProps {
  deviceId: string;
  deviceProfileId: string;
  points: ReturnType<typeof usePolled<ModbusPointList>>;
}

export function PointsSection({ deviceId, deviceProfileId, points }: PointsSectionProps): JSX.Element {
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

  const columns = usePointColumns({ reading, onRead: (identifiers) => void read(identifiers), onWrite: setWriting });

  if (points.loading && !points.data) return <Spin className="ec-modbus-spin" />;
  if (!points.data) {
    const notModbus = isNotModbus(points.error);
    return (
      <section className="ec-modbus-card" data-testid="modbus-points-unavailable">
        <Empty description={notModbus ? t('points.notModbus') : t('link.loadFailed')} />
      </section>
    );
  }

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

