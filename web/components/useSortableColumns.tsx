/** The shown columns of a ResourceTable, their sortable titles made reachable by keyboard. */
import { useMemo, type KeyboardEvent, type ReactNode } from 'react';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import type { SortOrder } from '../../server/contract/common.ts';
import { columnId } from './column-choice.ts';

/** A column title as plain text, for labels (titles are usually strings). */
function textOf(title: ReactNode): string {
  return typeof title === 'string' || typeof title === 'number' ? String(title) : '';
}

export function useSortableColumns<T>(opts: {
  columns: ColumnProps<T>[];
  /** Ids of the columns the user hid (column-choice.ts). */
  hidden: ReadonlySet<string>;
  sortField: string | undefined;
  sortOrder: SortOrder | undefined;
  testId: string;
}): ColumnProps<T>[] {
  const { columns, hidden, sortField, sortOrder, testId } = opts;
  const { t } = useTranslation('table');
  return useMemo(
    () =>
      columns.filter((column) => !hidden.has(columnId(column as ColumnProps<unknown>))).map((column) => {
        if (!column.sorter) return column;
        const field = String(column.key ?? column.dataIndex ?? '');
        const order = field === sortField ? sortOrder : undefined;
        // Arco sorts on a click of the header cell, which is not focusable: a focusable title
        // passes Enter and Space on as that click.
        const title = (
          <span
            role="button"
            tabIndex={0}
            className="ec-resource__sort-title"
            aria-label={t(order === 'ascend' ? 'sortedAscending' : order === 'descend' ? 'sortedDescending' : 'sortable', { column: textOf(column.title) })}
            onKeyDown={(event: KeyboardEvent<HTMLSpanElement>) => {
              if (event.key !== 'Enter' && event.key !== ' ') return;
              event.preventDefault();
              event.currentTarget.click();
            }}
            data-testid={`${testId}-sort-${field}`}
          >
            {column.title}
          </span>
        );
        return { ...column, title, sortOrder: order };
      }),
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- `hidden` is a new Set each render; its content is what matters.
    [columns, sortField, sortOrder, t, testId, [...hidden].join('|')],
  );
}
