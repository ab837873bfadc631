/**
 * The console's list page body: a filter form, a toolbar, an Arco Table (or cards) over a
 * `useList` controller, paging (sizes 10/20/50/100), server-side column sorting, optional row
 * selection with a confirmed bulk delete, loading and empty states. Domain-free: the page supplies
 * columns, filter fields and actions.
 *
 * Sorting: a column with `sorter: true` sorts on the server; its `dataIndex` (or `key`) must be a
 * `sortField` the contract allows. Filter fields are `Form.Item`s whose `field` names are query
 * properties of the route; Enter in any of them searches.
 *
 * @example
 * const list = useList(categoryRoutes.list);
 * <ResourceTable
 *   testId="category"
 *   list={list}
 *   rowKey="id"
 *   columns={[{ title: t('name'), dataIndex: 'name', sorter: true }]}
 *   filters={<Form.Item field="name" label={t('name')}><Input data-testid="category-filter-name" /></Form.Item>}
 *   toolbar={<Button type="primary" onClick={openCreate}>{t('table:create')}</Button>}
 *   onBulkDelete={(ids) => api(categoryRoutes.delete, { body: { ids } })}
 *   renderCards={(items) => <Grid>{items.map(renderCard)}</Grid>}   // optional card/table toggle
 * />
 */
import { useEffect, useMemo, useState, type JSX, type ReactNode } from 'react';
import Empty from '@arco-design/web-react/es/Empty';
import Table from '@arco-design/web-react/es/Table';
import type { ColumnProps, TableProps } from '@arco-design/web-react/es/Table';
import type { PaginationProps } from '@arco-design/web-react/es/Pagination/pagination';
import { useTranslation } from 'react-i18next';
import type { ListController } from '../lib/use-list.ts';
import { useNarrow } from '../lib/use-narrow.ts';
import { choosableColumns, useColumnChoice } from './column-choice.ts';
import { ResourceFilters } from './ResourceFilters.tsx';
import { ResourceCards } from './ResourceCards.tsx';
import type { ResourceView } from './ResourceViewSwitch.tsx';
import { ResourceToolbar } from './ResourceToolbar.tsx';
import { useResourceView } from './useResourceView.ts';
import { useSortableColumns } from './useSortableColumns.tsx';
import './ResourceTable.css';

export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100];

export type { ResourceView };

export interface ResourceTableProps<T, F extends object> {
  list: ListController<T, F>;
  /** Row identity (usually `id`); the bulk delete receives these values. */
  rowKey: keyof T & string;
  columns: ColumnProps<T>[];
  /** Prefix of the `data-testid`s: `<testId>-table`, `-search`, `-reset`, `-refresh`, `-bulk-delete`… */
  testId: string;
  /** Filter form items (`Form.Item` with `field` = a query property). */
  filters?: ReactNode;
  /** Buttons at the right of the toolbar (create, import…). */
  toolbar?: ReactNode;
  /** Enables row selection and the bulk delete button; resolves when the server is done. */
  onBulkDelete?: (keys: string[]) => Promise<unknown>;
  /**
   * Enables row selection and renders other bulk buttons (acknowledge, clear…) at the toolbar's
   * left; `done` clears the selection and reloads the page after the action succeeded.
   */
  bulkActions?: (selected: string[], done: () => Promise<void>) => ReactNode;
  /** Enables the table/card toggle; renders the current page's items as cards. */
  renderCards?: (items: T[]) => ReactNode;
  defaultView?: ResourceView;
  /** Text of the empty state when no filter is set (e.g. "No products yet"). */
  emptyText?: ReactNode;
  /**
   * Lets a wide table scroll sideways inside its card. When every shown column has a numeric
   * width the scroll width is their sum (so hiding a column narrows it); otherwise this value.
   */
  scrollX?: number | string;
}

/** Arco's row selection column, in px. */
const SELECTION_WIDTH = 40;

/**
 * The width the shown columns need: their widths' sum (plus the selection column), or `fallback`
 * when one has no numeric width. A fixed, larger width would leave blank space the sticky actions
 * column then lies over; the sum lets a table that fits fill its card without a scroll bar.
 */
function scrollWidthOf<T>(columns: ColumnProps<T>[], selection: boolean, fallback: number | string): number | string {
  let sum = selection ? SELECTION_WIDTH : 0;
  for (const column of columns) {
    if (typeof column.width !== 'number') return fallback;
    sum += column.width;
  }
  return sum;
}

function selectedKeysOf(keys: (string | number)[]): string[] {
  return keys.map(String);
}

/** Paging and sorting clicks in the table become the list's page and sort (which reload it). */
function applyTableChange<T, F extends object>(
  list: ListController<T, F>,
  paging: PaginationProps,
  sorter: Parameters<NonNullable<TableProps<T>['onChange']>>[1],
  action: string | undefined,
): void {
  if (action === 'paginate') {
    list.setPage(paging.current ?? 1, paging.pageSize);
    return;
  }
  if (action !== 'sort') return;
  const one = Array.isArray(sorter) ? sorter[0] : sorter;
  list.setSort(one?.field === undefined ? undefined : String(one.field), one?.direction);
}

export function ResourceTable<T, F extends object>(props: ResourceTableProps<T, F>): JSX.Element {
  const { list, rowKey, testId, onBulkDelete, bulkActions, renderCards, defaultView = 'table' } = props;
  const selectable = Boolean(onBulkDelete || bulkActions);
  const { t } = useTranslation('table');
  const [selected, setSelected] = useState<string[]>([]);
  const [view, setView] = useResourceView(Boolean(renderCards), defaultView);
  const hasFilters = Object.keys(list.filters).length > 0;
  const choice = useColumnChoice(testId);
  // A phone's card is narrower than any table: every table scrolls inside it there.
  const narrow = useNarrow();
  const scrollX = props.scrollX ?? (narrow ? 'max-content' : undefined);
  const choosable = useMemo(() => choosableColumns(props.columns as ColumnProps<unknown>[]), [props.columns]);

  // A selection only makes sense for rows on screen: a new page or a reload clears it.
  useEffect(() => setSelected([]), [list.items]);

  const columns = useSortableColumns({ columns: props.columns, hidden: choice.hidden, sortField: list.sortField, sortOrder: list.sortOrder, testId });

  const pagination: PaginationProps = {
    current: list.page,
    pageSize: list.pageSize,
    total: list.total,
    sizeCanChange: true,
    sizeOptions: PAGE_SIZE_OPTIONS,
    showTotal: (total: number) => t('total', { total }),
  };

  const empty = (
    <Empty data-testid={`${testId}-empty`} description={hasFilters ? t('emptyFiltered') : (props.emptyText ?? t('empty'))} />
  );

  return (
    <div className="ec-resource" data-testid={`${testId}-resource`}>
      {props.filters ? <ResourceFilters list={list} testId={testId}>{props.filters}</ResourceFilters> : null}

      <ResourceToolbar
        list={list}
        testId={testId}
        view={view}
        onViewChange={renderCards ? setView : undefined}
        selected={selected}
        onSelect={setSelected}
        onBulkDelete={onBulkDelete}
        bulkActions={bulkActions}
        choosable={choosable}
        choice={choice}
      >
        {props.toolbar}
      </ResourceToolbar>

      {view === 'card' && renderCards ? (
        <ResourceCards list={list} testId={testId} pagination={pagination} empty={empty} renderCards={renderCards} />
      ) : (
        <Table<T>
          data-testid={`${testId}-table`}
          rowKey={rowKey}
          columns={columns}
          data={list.items}
          loading={list.loading}
          noDataElement={empty}
          pagination={pagination}
          scroll={scrollX ? { x: scrollWidthOf(columns, selectable, scrollX) } : undefined}
          border={false}
          rowSelection={
            selectable
              ? {
                  type: 'checkbox',
                  selectedRowKeys: selected,
                  onChange: (keys: (string | number)[]) => setSelected(selectedKeysOf(keys)),
                }
              : undefined
          }
          onChange={(paging, sorter, _filters, extra) => applyTableChange(list, paging, sorter, extra.action)}
        />
      )}
    </div>
  );
}
