/**
 * My notices: the notices published to the signed-in user, newest first, unread ones marked, with
 * an "unread only" filter. Opening one shows its content and marks it read.
 */
import { useMemo, useState, type JSX } from 'react';
import Badge from '@arco-design/web-react/es/Badge';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Form from '@arco-design/web-react/es/Form';
import Modal from '@arco-design/web-react/es/Modal';
import Switch from '@arco-design/web-react/es/Switch';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { noticeRoutes, type MyNotice } from '../../../server/contract/notice.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { NoticeContent } from './NoticeContent.tsx';
import { noticeTypeColors } from './NoticeListPage.tsx';
import { markNoticeRead } from './noticeApi.ts';

export function MyNoticePage(): JSX.Element {
  const { t } = useTranslation(['notice', 'table']);
  const list = useList(noticeRoutes.me, { urlFilters: { unreadOnly: 'boolean' } });
  const [open, setOpen] = useState<MyNotice | null>(null);

  const view = async (row: MyNotice): Promise<void> => {
    setOpen(row);
    if (row.read) return;
    await markNoticeRead(row.id).catch(() => undefined);
    await list.refresh();
  };

  const columns = useMemo<ColumnProps<MyNotice>[]>(
    () => [
      {
        title: t('fields.title'),
        dataIndex: 'title',
        ellipsis: true,
        render: (v: string, row) => (
          <span data-testid={`my-notice-title-${row.id}`}>
            <Badge status={row.read ? 'default' : 'processing'} />{' '}
            {row.read ? v : <strong>{v}</strong>}
          </span>
        ),
      },
      { title: t('fields.type'), dataIndex: 'type', width: 110, render: (v: string, row) => <EnumTag ns="notice" group="type" value={v} colors={noticeTypeColors} testId={`my-notice-type-${row.id}`} /> },
      { title: t('fields.read'), dataIndex: 'read', width: 100, render: (v: boolean, row) => <span data-testid={`my-notice-read-${row.id}`}>{t(v ? 'readState.read' : 'readState.unread')}</span> },
      { title: t('fields.publishedTime'), dataIndex: 'publishedTime', width: 180, render: (v: number | null) => (v ? formatDateTime(v) : '—') },
      {
        title: t('table:actions'),
        key: 'actions',
        width: 100,
        fixed: 'right',
        render: (_: unknown, row) => (
          <Button type="text" size="small" onClick={() => void view(row)} data-testid={`my-notice-view-${row.id}`}>
            {t('view')}
          </Button>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- view only calls list.refresh, which follows the list's query.
    [t, list.refresh],
  );

  return (
    <Card title={t('myTitle')} bordered={false} data-testid="my-notice-page">
      <ResourceTable<MyNotice, typeof list.filters>
        testId="my-notice"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={800}
        emptyText={t('myEmpty')}
        filters={
          <Form.Item field="unreadOnly" label={t('unreadOnly')} triggerPropName="checked">
            <Switch aria-label={t('unreadOnly')} data-testid="my-notice-filter-unread" />
          </Form.Item>
        }
      />
      <Modal
        visible={open !== null}
        title={open?.title}
        onCancel={() => setOpen(null)}
        footer={<Button onClick={() => setOpen(null)} data-testid="my-notice-close">{t('close')}</Button>}
        style={{ maxWidth: '92vw', width: 640 }}
        data-testid="my-notice-dialog"
      >
        {open && <NoticeContent html={open.content} testId="my-notice-content" />}
      </Modal>
    </Card>
  );
}
