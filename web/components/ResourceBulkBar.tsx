/** The left of a ResourceTable's toolbar: the page's bulk actions, the confirmed bulk delete, the selection count. */
import type { JSX, ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import IconDelete from '@arco-design/web-react/icon/react-icon/IconDelete';
import { useTranslation } from 'react-i18next';
import type { ListController } from '../lib/use-list.ts';

export function ResourceBulkBar<T, F extends object>(props: {
  list: ListController<T, F>;
  testId: string;
  selected: string[];
  onSelect: (keys: string[]) => void;
  onBulkDelete: ((keys: string[]) => Promise<unknown>) | undefined;
  bulkActions: ((selected: string[], done: () => Promise<void>) => ReactNode) | undefined;
}): JSX.Element {
  const { list, testId, selected, onSelect, onBulkDelete, bulkActions } = props;
  const { t } = useTranslation('table');

  const bulkDelete = (): void => {
    const keys = selected;
    Modal.confirm({
      title: t('bulkDeleteTitle'),
      content: t('bulkDeleteConfirm', { count: keys.length }),
      okText: t('delete'),
      cancelText: t('cancel'),
      okButtonProps: { status: 'danger', ...({ 'data-testid': `${testId}-bulk-delete-confirm` } as object) },
      onOk: async () => {
        try {
          await onBulkDelete?.(keys);
          Message.success(t('deleted', { count: keys.length }));
          onSelect([]);
          await list.refresh();
        } catch {
          // The client showed the server's reason (e.g. still in use); the rows stay selected.
        }
      },
    });
  };

  return (
    <>
      {bulkActions
        ? bulkActions(selected, async () => {
            onSelect([]);
            await list.refresh();
          })
        : null}
      {onBulkDelete || bulkActions ? (
        <>
          {onBulkDelete ? (
            <Button status="danger" icon={<IconDelete />} disabled={selected.length === 0} onClick={bulkDelete} data-testid={`${testId}-bulk-delete`}>
              {t('bulkDelete')}
            </Button>
          ) : null}
          {selected.length > 0 ? (
            <span className="ec-resource__selected" aria-live="polite" data-testid={`${testId}-selected`}>
              {t('selected', { count: selected.length })}
              <Button type="text" size="mini" onClick={() => onSelect([])}>
                {t('clearSelection')}
              </Button>
            </span>
          ) : null}
        </>
      ) : null}
    </>
  );
}
