/**
 * System → Notices: every notice with type and status filters and paging; create and edit drafts
 * in a drawer, publish (asks first: receivers are fixed then), single and bulk delete.
 */
import { useMemo, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Message from '@arco-design/web-react/es/Message';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import { noticeRoutes, type Notice } from '../../../server/contract/notice.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { NoticeDrawer } from './NoticeDrawer.tsx';
import { NoticeFilters } from './NoticeFilters.tsx';
import { deleteNotices, publishNotice } from './noticeApi.ts';

export const noticeTypeColors: Record<string, string> = { MEETING: 'purple', NOTICE: 'arcoblue' };
const statusColors: Record<string, string> = { DRAFT: 'gray', PUBLISHED: 'green' };

export function NoticeListPage(): JSX.Element {
  const { t } = useTranslation(['notice', 'table']);
  const list = useList(noticeRoutes.list, { urlFilters: { type: 'string', status: 'string' } });
  // undefined: closed; null: creating; a notice: editing it.
  const [editing, setEditing] = useState<Notice | null | undefined>(undefined);

  const remove = async (row: Notice): Promise<void> => {
    await deleteNotices([row.id]);
    Message.success(t('deleted'));
    await list.refresh();
  };

  const publish = async (row: Notice): Promise<void> => {
    await publishNotice(row.id);
    Message.success(t('published'));
    await list.refresh();
  };

  const columns = useMemo<ColumnProps<Notice>[]>(
    () => [
      { title: t('fields.title'), dataIndex: 'title', width: 260, ellipsis: true, render: (v: string) => <strong>{v}</strong> },
      { title: t('fields.type'), dataIndex: 'type', width: 110, render: (v: string, row) => <EnumTag ns="notice" group="type" value={v} colors={noticeTypeColors} testId={`notice-type-${row.id}`} /> },
      { title: t('fields.status'), dataIndex: 'status', width: 110, render: (v: string, row) => <EnumTag ns="notice" group="status" value={v} colors={statusColors} testId={`notice-status-${row.id}`} /> },
      { title: t('fields.receiverType'), dataIndex: 'receiverType', width: 200, render: (v: string) => t(`receiverType.${v}` as 'receiverType.ALL') },
      { title: t('fields.createdTime'), dataIndex: 'createdTime', width: 180, render: (v: number) => formatDateTime(v) },
      { title: t('fields.publishedTime'), dataIndex: 'publishedTime', width: 180, render: (v: number | null) => (v ? formatDateTime(v) : '—') },
      {
        title: t('table:actions'),
        key: 'actions',
        width: 200,
        fixed: 'right',
        render: (_: unknown, row) => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            {row.status === 'DRAFT' && (
              <>
                <Button type="text" size="small" onClick={() => setEditing(row)} data-testid={`notice-edit-${row.id}`}>
                  {t('table:edit')}
                </Button>
                <ConfirmButton title={t('publishConfirm', { title: row.title })} onConfirm={() => publish(row)} danger={false} okText={t('publish')} testId={`notice-publish-${row.id}`}>
                  {t('publish')}
                </ConfirmButton>
              </>
            )}
            <ConfirmButton title={t('deleteConfirm', { title: row.title })} onConfirm={() => remove(row)} testId={`notice-delete-${row.id}`}>
              {t('table:delete')}
            </ConfirmButton>
          </span>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- remove and publish only call list.refresh, which follows the list's query.
    [t, list.refresh],
  );

  return (
    <Card title={t('title')} bordered={false} data-testid="notice-page">
      <ResourceTable<Notice, typeof list.filters>
        testId="notice"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1100}
        emptyText={t('empty')}
        onBulkDelete={(ids) => deleteNotices(ids)}
        filters={<NoticeFilters />}
        toolbar={
          <Button type="primary" icon={<IconPlus />} onClick={() => setEditing(null)} data-testid="notice-create">
            {t('create')}
          </Button>
        }
      />
      <NoticeDrawer editing={editing} onClose={() => setEditing(undefined)} onSaved={() => void list.refresh()} />
    </Card>
  );
}
