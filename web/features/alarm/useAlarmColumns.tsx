/** The columns of the alarm table: severity, type, device (unless in a device's own tab), scene, status, start, count, actions. */
import { useMemo } from 'react';
import Link from '@arco-design/web-react/es/Link';
import Message from '@arco-design/web-react/es/Message';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import type { Alarm } from '../../../server/contract/alarm.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { ackAlarm, clearAlarm } from './alarmApi.ts';
import { AlarmRowActions } from './AlarmRowActions.tsx';
import { alarmStatusColors, severityColors } from './alarmStyle.ts';

export function useAlarmColumns(opts: {
  testId: string;
  deviceFilter: boolean | undefined;
  /** The list's reload, after a row's acknowledge or clear. */
  listRefresh: () => Promise<void>;
  onDetail: (id: string) => void;
}): ColumnProps<Alarm>[] {
  const { testId, deviceFilter, listRefresh, onDetail } = opts;
  const { t } = useTranslation(['alarm', 'table']);

  const act = async (run: () => Promise<unknown>, done: string): Promise<void> => {
    await run();
    Message.success(done);
    await listRefresh();
  };

  return useMemo<ColumnProps<Alarm>[]>(
    () => [
      {
        title: t('field.severity'),
        dataIndex: 'severity',
        width: 90,
        render: (v: string, row) => <EnumTag ns="alarm" group="severity" value={v} colors={severityColors} testId={`${testId}-severity-${row.id}`} />,
      },
      {
        // The type opens the alarm's details (as a name opens a device): the actions column then
        // holds only acknowledge and clear, and every default column fits a 1366 px screen.
        title: t('field.type'),
        dataIndex: 'type',
        width: 110,
        ellipsis: true,
        render: (v: string, row) => (
          <Link onClick={() => onDetail(row.id)} title={t('action.detail')} data-testid={`${testId}-detail-${row.id}`}>
            {v}
          </Link>
        ),
      },
      // A device's own alarm tab (no device filter) names that device on every row: left out there.
      ...(deviceFilter
        ? [
            {
              title: t('field.device'),
              key: 'device',
              width: 100,
              ellipsis: true,
              render: (_: unknown, row: Alarm) => row.deviceAlias || row.deviceName || '—',
            },
          ]
        : []),
      { title: t('field.scene'), dataIndex: 'sceneName', width: 100, ellipsis: true },
      {
        title: t('field.status'),
        dataIndex: 'status',
        width: 170,
        render: (v: string, row) => <EnumTag ns="alarm" group="status" value={v} colors={alarmStatusColors} testId={`${testId}-status-${row.id}`} />,
      },
      { title: t('field.startTs'), dataIndex: 'startTs', width: 160, render: (v: number) => formatDateTime(v) },
      { title: t('field.count'), dataIndex: 'count', width: 60, align: 'right' },
      {
        title: t('table:actions'),
        key: 'actions',
        // Wide enough for "Acknowledge" and "Clear" side by side in English; with the others it keeps
        // every default column within a 1366 px screen (tests/e2e/console-walk.spec.ts).
        width: 190,
        fixed: 'right',
        render: (_: unknown, row) => (
          <AlarmRowActions
            alarm={row}
            testId={testId}
            onAck={() => act(() => ackAlarm(row.id), t('action.acked'))}
            onClear={() => act(() => clearAlarm(row.id), t('action.cleared'))}
          />
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- act only calls list.refresh.
    [t, testId, listRefresh, deviceFilter],
  );
}
