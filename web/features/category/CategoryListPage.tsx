/**
 * Device manage → Product category: name, domain, status, type; list with
 * name search, status and type filters, sorting and paging; create/edit drawer; single and bulk
 * delete (the server refuses categories still used by products and says which).
 */
import { useMemo, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Message from '@arco-design/web-react/es/Message';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import { categoryRoutes, type Category } from '../../../server/contract/category.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { CategoryDrawer } from './CategoryDrawer.tsx';
import { CategoryFilters } from './CategoryFilters.tsx';
import { deleteCategories } from './categoryApi.ts';

const categoryStatusColors: Record<string, string> = { '1': 'green', '0': 'gray' };
const categoryTypeColors: Record<string, string> = { STANDARD: 'cyan', CUSTOM: 'orange' };

export function CategoryListPage(): JSX.Element {
  const { t } = useTranslation(['category', 'table']);
  const list = useList(categoryRoutes.list, { urlFilters: { name: 'string', status: 'number', type: 'string' } });
  // undefined: closed; null: creating; a category: editing it.
  const [editing, setEditing] = useState<Category | null | undefined>(undefined);

  const remove = async (row: Category): Promise<void> => {
    await deleteCategories([row.id]);
    Message.success(t('deleted'));
    await list.refresh();
  };

  const columns = useMemo<ColumnProps<Category>[]>(
    () => [
      { title: t('name'), dataIndex: 'name', sorter: true, render: (name: string) => <strong>{name}</strong> },
      { title: t('domain'), dataIndex: 'domain', render: (v: string | null) => v || '—' },
      {
        title: t('typeLabel'),
        dataIndex: 'type',
        sorter: true,
        render: (v: string, row) => <EnumTag ns="category" group="type" value={v} colors={categoryTypeColors} testId={`category-type-${row.id}`} />,
      },
      {
        title: t('statusLabel'),
        dataIndex: 'status',
        sorter: true,
        render: (v: number, row) => <EnumTag ns="category" group="status" value={v} colors={categoryStatusColors} testId={`category-status-${row.id}`} />,
      },
      { title: t('productCount'), dataIndex: 'productCount', align: 'right', width: 100 },
      { title: t('description'), dataIndex: 'description', ellipsis: true, render: (v: string | null) => v || '—' },
      { title: t('createdTime'), dataIndex: 'createdTime', sorter: true, width: 180, render: (v: number) => formatDateTime(v) },
      {
        title: t('table:actions'),
        key: 'actions',
        width: 150,
        fixed: 'right',
        render: (_: unknown, row) => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            <Button type="text" size="small" onClick={() => setEditing(row)} data-testid={`category-edit-${row.id}`}>
              {t('table:edit')}
            </Button>
            <ConfirmButton title={t('deleteConfirm', { name: row.name })} onConfirm={() => remove(row)} testId={`category-delete-${row.id}`}>
              {t('table:delete')}
            </ConfirmButton>
          </span>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- remove only calls list.refresh, which follows the list's query.
    [t, list.refresh],
  );

  return (
    <Card title={t('title')} bordered={false} data-testid="category-page">
      <ResourceTable<Category, typeof list.filters>
        testId="category"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1000}
        emptyText={t('empty')}
        onBulkDelete={(ids) => deleteCategories(ids)}
        filters={<CategoryFilters />}
        toolbar={
          <Button type="primary" icon={<IconPlus />} onClick={() => setEditing(null)} data-testid="category-create">
            {t('create')}
          </Button>
        }
      />
      <CategoryDrawer editing={editing} onClose={() => setEditing(undefined)} onSaved={() => void list.refresh()} />
    </Card>
  );
}
