/**
 * Operation management → banners or guide entries (the same record, told apart by `kind`): a paged
 * list with thumbnails, a create/edit drawer, and deletion after confirmation.
 */
import { useMemo, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Message from '@arco-design/web-react/es/Message';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import type { OperationEntry, OperationKind } from '../../../server/contract/operation.ts';
import { editDeleteColumn } from '../../components/editDeleteColumn.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { EntryDrawer } from './EntryDrawer.tsx';
import { deleteEntries, entryRoutes } from './operationApi.ts';

const statusColors: Record<string, string> = { '1': 'green', '0': 'gray' };

export function EntryListPage({ kind }: { kind: OperationKind }): JSX.Element {
  const { t } = useTranslation(['operation', 'table']);
  const list = useList(entryRoutes[kind].list);
  // undefined: closed; null: creating; an entry: editing it.
  const [editing, setEditing] = useState<OperationEntry | null | undefined>(undefined);

  const remove = async (row: OperationEntry): Promise<void> => {
    await deleteEntries(kind, [row.id]);
    Message.success(t('entry.deleted'));
    await list.refresh();
  };

  const columns = useMemo<ColumnProps<OperationEntry>[]>(
    () => [
      {
        title: t('entry.image'),
        dataIndex: 'image',
        width: 110,
        render: (src: string, row) => <img className="ec-op-thumb" src={src} alt={row.name} data-testid={`${kind}-image-${row.id}`} />,
      },
      { title: t('entry.name'), dataIndex: 'name', render: (name: string) => <strong>{name}</strong> },
      { title: t(`${kind}.url`), dataIndex: 'url', ellipsis: true, render: (v: string) => v || '—' },
      {
        title: t('entry.status'),
        dataIndex: 'status',
        width: 100,
        render: (v: number, row) => <EnumTag ns="operation" group="status" value={v} colors={statusColors} testId={`${kind}-status-${row.id}`} />,
      },
      { title: t('entry.sort'), dataIndex: 'sort', align: 'right', width: 80 },
      { title: t('entry.remark'), dataIndex: 'remark', ellipsis: true, render: (v: string) => v || '—' },
      { title: t('entry.createTime'), dataIndex: 'createTime', width: 180, render: (v: number) => formatDateTime(v) },
      editDeleteColumn<OperationEntry>({ testId: kind, onEdit: setEditing, onDelete: remove, confirmTitle: (row) => t('entry.deleteConfirm', { name: row.name }) }),
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- remove only calls list.refresh, which follows the list's query.
    [t, kind, list.refresh],
  );

  return (
    <Card title={t(`${kind}.title`)} bordered={false} data-testid={`${kind}-page`}>
      <ResourceTable<OperationEntry, typeof list.filters>
        testId={kind}
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1000}
        emptyText={t(`${kind}.empty`)}
        onBulkDelete={(ids) => deleteEntries(kind, ids)}
        toolbar={
          <Button type="primary" icon={<IconPlus />} onClick={() => setEditing(null)} data-testid={`${kind}-create`}>
            {t(`${kind}.create`)}
          </Button>
        }
      />
      <EntryDrawer kind={kind} editing={editing} onClose={() => setEditing(undefined)} onSaved={() => void list.refresh()} />
    </Card>
  );
}

export function BannerManagePage(): JSX.Element {
  return <EntryListPage kind="banner" />;
}

export function GuideManagePage(): JSX.Element {
  return <EntryListPage kind="guide" />;
}
