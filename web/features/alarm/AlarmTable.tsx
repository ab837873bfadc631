/**
 * The alarm list of the alarm record page and of a device's alarm tab: severity, type, device,
 * scene, status, times, count; filters (status, severity, device, time range); single and batch
 * handle (acknowledge) and clear, each confirmed; a row opens the detail drawer.
 */
import { useMemo, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import DatePicker from '@arco-design/web-react/es/DatePicker';
import Form from '@arco-design/web-react/es/Form';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { alarmSeverities, alarmStatuses, type Alarm } from '../../../server/contract/alarm.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { epochOf, formatDateTime } from '../../lib/date-format.ts';
import type { ListController } from '../../lib/use-list.ts';
import { ackAlarm, ackAlarms, clearAlarm, clearAlarms } from './alarmApi.ts';
import { DeviceSelect } from '../device/DeviceSelect.tsx';
import { AlarmDetailDrawer } from './AlarmDetailDrawer.tsx';
import { alarmStatusColors, severityColors } from './alarmStyle.ts';
import './alarm.css';

export interface AlarmTableProps<F extends object> {
  list: ListController<Alarm, F>;
  /** Offers the device filter (left out in a device's own tab). */
  deviceFilter?: boolean;
  /** The alarm whose detail is open at first (a popup's click). */
  openId?: string | null;
  testId: string;
}

function isActive(a: Alarm): boolean {
  return a.status === 'ACTIVE_UNACK' || a.status === 'ACTIVE_ACK';
}

function isUnack(a: Alarm): boolean {
  return a.status === 'ACTIVE_UNACK' || a.status === 'CLEARED_UNACK';
}

export function AlarmTable<F extends object>({ list, deviceFilter, openId, testId }: AlarmTableProps<F>): JSX.Element {
  const { t } = useTranslation(['alarm', 'table']);
  const [detailId, setDetailId] = useState<string | null>(openId ?? null);

  const act = async (run: () => Promise<unknown>, done: string): Promise<void> => {
    await run();
    Message.success(done);
    await list.refresh();
  };

  const batch = (kind: 'ack' | 'clear', ids: string[], done: () => Promise<void>): void => {
    Modal.confirm({
      title: kind === 'ack' ? t('action.batchAck') : t('action.batchClear'),
      content: t(kind === 'ack' ? 'action.batchAckConfirm' : 'action.batchClearConfirm', { count: ids.length }),
      okText: kind === 'ack' ? t('action.ack') : t('action.clear'),
      cancelText: t('table:cancel'),
      okButtonProps: { ...(kind === 'clear' ? { status: 'danger' as const } : {}), ...({ 'data-testid': `${testId}-batch-${kind}-confirm` } as object) },
      onOk: async () => {
        try {
          const result = await (kind === 'ack' ? ackAlarms(ids) : clearAlarms(ids));
          Message.success(t('action.batchDone', { count: result.updated }));
          await done();
        } catch {
          // The client showed the server's reason; the rows stay selected.
        }
      },
    });
  };

  const columns = useMemo<ColumnProps<Alarm>[]>(
    () => [
      {
        title: t('field.severity'),
        dataIndex: 'severity',
        width: 100,
        render: (v: string, row) => <EnumTag ns="alarm" group="severity" value={v} colors={severityColors} testId={`${testId}-severity-${row.id}`} />,
      },
      { title: t('field.type'), dataIndex: 'type', width: 140, ellipsis: true },
      // A device's own alarm tab (no device filter) names that device on every row: left out there.
      ...(deviceFilter
        ? [
            {
              title: t('field.device'),
              key: 'device',
              width: 140,
              ellipsis: true,
              render: (_: unknown, row: Alarm) => row.deviceAlias || row.deviceName || '—',
            },
          ]
        : []),
      { title: t('field.scene'), dataIndex: 'sceneName', width: 140, ellipsis: true },
      {
        title: t('field.status'),
        dataIndex: 'status',
        width: 190,
        render: (v: string, row) => <EnumTag ns="alarm" group="status" value={v} colors={alarmStatusColors} testId={`${testId}-status-${row.id}`} />,
      },
      { title: t('field.startTs'), dataIndex: 'startTs', width: 170, render: (v: number) => formatDateTime(v) },
      { title: t('field.count'), dataIndex: 'count', width: 70, align: 'right' },
      {
        title: t('table:actions'),
        key: 'actions',
        // Wide enough for "Details", "Acknowledge" and "Clear" side by side in English.
        width: 290,
        fixed: 'right',
        render: (_: unknown, row) => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            <Button type="text" size="small" onClick={() => setDetailId(row.id)} data-testid={`${testId}-detail-${row.id}`}>
              {t('action.detail')}
            </Button>
            {isUnack(row) ? (
              <ConfirmButton
                title={t('action.ackConfirm')}
                okText={t('action.ack')}
                danger={false}
                onConfirm={() => act(() => ackAlarm(row.id), t('action.acked'))}
                testId={`${testId}-ack-${row.id}`}
              >
                {t('action.ack')}
              </ConfirmButton>
            ) : null}
            {isActive(row) ? (
              <ConfirmButton title={t('action.clearConfirm')} okText={t('action.clear')} onConfirm={() => act(() => clearAlarm(row.id), t('action.cleared'))} testId={`${testId}-clear-${row.id}`}>
                {t('action.clear')}
              </ConfirmButton>
            ) : null}
          </span>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- act only calls list.refresh.
    [t, testId, list.refresh, deviceFilter],
  );

  return (
    <>
      <ResourceTable<Alarm, F>
        testId={testId}
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1280}
        emptyText={t('empty')}
        bulkActions={(selected, done) => (
          <>
            <Button disabled={selected.length === 0} onClick={() => batch('ack', selected, done)} data-testid={`${testId}-batch-ack`}>
              {t('action.batchAck')}
            </Button>
            <Button status="danger" disabled={selected.length === 0} onClick={() => batch('clear', selected, done)} data-testid={`${testId}-batch-clear`}>
              {t('action.batchClear')}
            </Button>
          </>
        )}
        filters={
          <>
            <Form.Item field="status" label={t('field.status')}>
              <EnumSelect ns="alarm" group="status" values={alarmStatuses} allowClear placeholder={t('field.status')} testId={`${testId}-filter-status`} style={{ width: 180 }} />
            </Form.Item>
            <Form.Item field="severity" label={t('field.severity')}>
              <EnumSelect ns="alarm" group="severity" values={alarmSeverities} allowClear placeholder={t('field.severity')} testId={`${testId}-filter-severity`} style={{ width: 140 }} />
            </Form.Item>
            {deviceFilter ? (
              <Form.Item field="deviceId" label={t('field.device')}>
                <DeviceSelect<string> allowClear placeholder={t('field.devicePlaceholder')} testId={`${testId}-filter-device`} style={{ width: 180 }} />
              </Form.Item>
            ) : null}
            <Form.Item field="startTime" label={t('field.from')} getValueFromEvent={epochOf}>
              <DatePicker showTime getPopupContainer={() => document.body} style={{ width: 190 }} data-testid={`${testId}-filter-start`} />
            </Form.Item>
            <Form.Item field="endTime" label={t('field.to')} getValueFromEvent={epochOf}>
              <DatePicker showTime getPopupContainer={() => document.body} style={{ width: 190 }} data-testid={`${testId}-filter-end`} />
            </Form.Item>
          </>
        }
      />
      <AlarmDetailDrawer
        alarm={list.items.find((a) => a.id === detailId) ?? null}
        alarmId={detailId}
        onClose={() => setDetailId(null)}
        onChanged={() => void list.refresh()}
      />
    </>
  );
}
