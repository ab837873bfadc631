/** The columns of a device's command list: times, kinds, status with its steps and withdraw, source, content, answer. */
import Button from '@arco-design/web-react/es/Button';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import { useTranslation } from 'react-i18next';
import { finalCommandStatuses, type Command } from '../../../server/contract/command.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { withdrawCommand } from './commandApi.ts';
import { commandStatusColors, commandTypeColors } from './commandStyle.ts';

export function useCommandColumns(opts: {
  deviceId: string;
  /** The list's reload, after a withdrawal. */
  refresh: () => Promise<void>;
  /** Shows a content or an answer in full. */
  onView: (view: { title: string; text: string }) => void;
}): ColumnProps<Command>[] {
  const { deviceId, refresh, onView } = opts;
  const { t } = useTranslation(['command', 'table']);
  return [
    { title: t('fields.createdTime'), dataIndex: 'createdTime', width: 100, render: (v: number) => formatDateTime(v) },
    {
      title: t('fields.commandType'),
      dataIndex: 'commandType',
      width: 100,
      render: (v: string) => <EnumTag ns="command" group="type" value={v} colors={commandTypeColors} />,
    },
    { title: t('fields.callType'), dataIndex: 'callType', width: 90, render: (v: string) => <EnumTag ns="command" group="callType" value={v} /> },
    { title: t('fields.way'), dataIndex: 'way', width: 80, render: (v: string) => <EnumTag ns="command" group="way" value={v} /> },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      width: 110,
      render: (v: string, row) => (
        // When it went out, arrived (DELIVERED) and was answered: the steps behind the status.
        <Tooltip
          disabled={row.sentTime === null}
          content={(['sentTime', 'deliveredTime', 'respondedTime'] as const)
            .filter((k) => row[k] !== null)
            .map((k) => <div key={k}>{`${t(`fields.${k}`)}: ${formatDateTime(row[k]!)}`}</div>)}
        >
          <span>
            <EnumTag ns="command" group="status" value={v} colors={commandStatusColors} testId={`cmd-status-${row.requestId}`} />
          </span>
        </Tooltip>
      ),
    },
    {
      // Withdraw sits beside the status it depends on: a pinned actions column stayed empty on most
      // rows (final statuses) and covered the answer at laptop widths.
      title: t('table:actions'),
      key: 'withdraw',
      width: 90,
      render: (_: unknown, row) =>
        finalCommandStatuses.includes(row.status) ? null : (
          <ConfirmButton
            testId={`cmd-withdraw-${row.requestId}`}
            title={t('withdraw.confirm')}
            okText={t('withdraw.button')}
            onConfirm={async () => {
              await withdrawCommand(deviceId, row.id);
              await refresh();
            }}
          >
            {t('withdraw.button')}
          </ConfirmButton>
        ),
    },
    {
      // Who issued it: a user, a scene's action (named as it was then), the cloud or a Node-RED flow.
      title: t('fields.source'),
      dataIndex: 'source',
      width: 110,
      render: (v: Command['source'], row) => (
        <span data-testid={`cmd-source-${row.requestId}`}>
          {v === null ? t('source.user') : v.type === 'CLOUD' ? t('source.cloud') : v.type === 'NODE_RED' ? t('source.nodeRed', { name: v.name }) : t('source.scene', { name: v.name })}
        </span>
      ),
    },
    {
      title: t('fields.content'),
      dataIndex: 'content',
      width: 130,
      render: (v: string, row) => (
        <Button type="text" size="mini" onClick={() => onView({ title: t('fields.content'), text: v })} data-testid={`cmd-content-${row.requestId}`}>
          <span className="ec-cmd-content">{v}</span>
        </Button>
      ),
    },
    { title: t('fields.responseType'), dataIndex: 'responseType', width: 100, render: (v: string | null) => <EnumTag ns="command" group="responseType" value={v} /> },
    {
      title: t('fields.responseContent'),
      dataIndex: 'responseContent',
      width: 130,
      render: (v: string | null, row) =>
        v ? (
          <Button type="text" size="mini" onClick={() => onView({ title: t('fields.responseContent'), text: v })} data-testid={`cmd-response-${row.requestId}`}>
            <span className="ec-cmd-content">{v}</span>
          </Button>
        ) : (
          '—'
        ),
    },
  ];
}
