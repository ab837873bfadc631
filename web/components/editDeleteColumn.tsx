/**
 * A list's last column with the two usual row actions: edit, and delete after confirmation.
 * Test ids: `<testId>-edit-<id>`, `<testId>-delete-<id>`.
 *
 * @example
 * editDeleteColumn<Banner>({ testId: 'banner', onEdit: setEditing, onDelete: remove, confirmTitle: (row) => t('deleteConfirm', { name: row.name }) })
 */
import type { ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { i18n } from '../i18n/i18n.ts';
import { ConfirmButton } from './ConfirmButton.tsx';

export interface EditDeleteColumnOptions<T extends { id: string }> {
  testId: string;
  onEdit: (row: T) => void;
  onDelete: (row: T) => Promise<unknown>;
  confirmTitle: (row: T) => ReactNode;
}

export function editDeleteColumn<T extends { id: string }>(o: EditDeleteColumnOptions<T>): ColumnProps<T> {
  return {
    title: i18n.t('table:actions'),
    key: 'actions',
    width: 150,
    fixed: 'right',
    render: (_: unknown, row: T) => (
      <span style={{ display: 'inline-flex', gap: 4 }}>
        <Button type="text" size="small" onClick={() => o.onEdit(row)} data-testid={`${o.testId}-edit-${row.id}`}>
          {i18n.t('table:edit')}
        </Button>
        <ConfirmButton title={o.confirmTitle(row)} onConfirm={() => o.onDelete(row)} testId={`${o.testId}-delete-${row.id}`}>
          {i18n.t('table:delete')}
        </ConfirmButton>
      </span>
    ),
  };
}
