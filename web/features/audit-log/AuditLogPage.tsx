/**
 * System → Audit log: who did what, when and from where, newest first; filters by user, action
 * (part of it) and time range, with paging.
 */
import { useMemo, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import DatePicker from '@arco-design/web-react/es/DatePicker';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import Tag from '@arco-design/web-react/es/Tag';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import { useTranslation } from 'react-i18next';
import { auditLogRoutes, auditSignIn, auditSignInFailed, type AuditLog } from '../../../server/contract/audit-log.ts';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { DATE_TIME_FORMAT, epochOf, formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';


export function AuditLogPage(): JSX.Element {
  const { t, i18n } = useTranslation(['auditLog', 'table']);
  // The call's description in the console's language, by its operation key; rows written before
  // the key was kept (and calls the locale files do not know) show the English summary they stored.
  const describe = (row: AuditLog): string => {
    const key = `auditLog:operations.${row.operation ?? ''}`;
    return row.operation && i18n.exists(key) ? String(i18n.t(key as never)) : (row.summary ?? '—');
  };
  const methodText = (action: string): string => {
    const key = `auditLog:methods.${action.split(' ')[0]}`;
    return i18n.exists(key) ? String(i18n.t(key as never)) : action;
  };
  const list = useList(auditLogRoutes.list, { urlFilters: { userId: 'string', action: 'string', startTime: 'number', endTime: 'number' } });

  const columns = useMemo<ColumnProps<AuditLog>[]>(
    () => [
      { title: t('fields.time'), dataIndex: 'time', width: 180, sorter: true, render: (v: number) => formatDateTime(v) },
      {
        title: t('fields.user'),
        dataIndex: 'username',
        width: 140,
        // A click narrows the log to that user (the filter takes a user id, which nobody types).
        render: (v: string | null, row) =>
          row.userId ? (
            <Button type="text" size="mini" onClick={() => list.setFilters({ ...list.filters, userId: row.userId! })} title={t('filterByUser', { name: v ?? row.userId })} data-testid={`audit-user-${row.id}`}>
              {v ?? row.userId}
            </Button>
          ) : (
            (v ?? '—')
          ),
      },
      {
        title: t('fields.action'),
        dataIndex: 'action',
        width: 130,
        render: (v: string, row) =>
          v === auditSignIn || v === auditSignInFailed ? (
            <Tag color={v === auditSignIn ? 'green' : 'red'} bordered={false} data-testid={`audit-action-${row.id}`}>
              {v === auditSignIn ? t('actions.signIn') : row.attempts > 1 ? t('actions.signInFailedTimes', { count: row.attempts }) : t('actions.signInFailed')}
            </Tag>
          ) : (
            // The kind of call in words; the method and route (internal) only in the tooltip.
            <Tooltip content={<code>{v}</code>}>
              <Tag bordered={false} data-testid={`audit-action-${row.id}`}>
                {methodText(v)}
              </Tag>
            </Tooltip>
          ),
      },
      {
        title: t('fields.summary'),
        dataIndex: 'operation',
        ellipsis: true,
        render: (_: string | null, row) => <span data-testid={`audit-summary-${row.id}`}>{describe(row)}</span>,
      },
      { title: t('fields.entityId'), dataIndex: 'entityId', width: 200, ellipsis: true, render: (v: string | null) => v ?? '—' },
      { title: t('fields.statusCode'), dataIndex: 'statusCode', width: 90, render: (v: number | null) => v ?? '—' },
      { title: t('fields.sourceAddress'), dataIndex: 'sourceAddress', width: 150 },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- the user filter reads the list's filters when clicked; setFilters follows the list.
    [t, i18n.language, list.filters, list.setFilters],
  );

  return (
    <Card title={t('title')} bordered={false} data-testid="audit-log-page">
      <ResourceTable<AuditLog, typeof list.filters>
        testId="audit-log"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1300}
        emptyText={t('empty')}
        filters={
          <>
            <Form.Item field="userId" label={t('fields.userId')}>
              <Input allowClear placeholder={t('userIdPlaceholder')} style={{ width: 200 }} data-testid="audit-log-filter-user" />
            </Form.Item>
            <Form.Item field="action" label={t('fields.action')}>
              <Input allowClear placeholder={t('actionPlaceholder')} style={{ width: 240 }} data-testid="audit-log-filter-action" />
            </Form.Item>
            <Form.Item field="startTime" label={t('startTime')} getValueFromEvent={epochOf}>
              <DatePicker showTime format={DATE_TIME_FORMAT} style={{ width: 200 }} data-testid="audit-log-filter-start" />
            </Form.Item>
            <Form.Item field="endTime" label={t('endTime')} getValueFromEvent={epochOf}>
              <DatePicker showTime format={DATE_TIME_FORMAT} style={{ width: 200 }} data-testid="audit-log-filter-end" />
            </Form.Item>
          </>
        }
      />
    </Card>
  );
}
