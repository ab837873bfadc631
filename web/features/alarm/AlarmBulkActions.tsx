/** The alarm table's bulk buttons: acknowledge or clear the selected alarms, each confirmed first. */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import { useTranslation } from 'react-i18next';
import { ackAlarms, clearAlarms } from './alarmApi.ts';

export interface AlarmBulkActionsProps {
  selected: string[];
  /** Clears the selection and reloads the page (from the resource table). */
  done: () => Promise<void>;
  testId: string;
}

export function AlarmBulkActions({ selected, done, testId }: AlarmBulkActionsProps): JSX.Element {
  const { t } = useTranslation(['alarm', 'table']);

  const batch = (kind: 'ack' | 'clear', ids: string[], done: () => Promise<void>): void => {
    Modal.confirm({
      title: kind === 'ack' ? t('action.batchAck') : t('action.batchClear'),
      content: t(kind === 'ack' ? 'action.batchAckConfirm' : 'action.batchClearConfirm', { count: ids.length }),
      okText: kind === 'ack' ? t('action.ack') : t('action.clear'),
      cancelText: t('table:cancel'),
      okButtonProps: { ...(kind === 'clear' ? { status: 'danger' as const } : {}), ...({ 'data-testid': `${testId}-batch-${kind}-confirm` } as object) },
      onOk: async () => {
        try {
          const result = await (kind === 'ack' ? ackAlarms(ids) : clearAlarms(ids));
          Message.success(t('action.batchDone', { count: result.updated }));
          await done();
        } catch {
          // The client showed the server's reason; the rows stay selected.
        }
      },
    });
  };

  return (
    <>
      <Button disabled={selected.length === 0} onClick={() => batch('ack', selected, done)} data-testid={`${testId}-batch-ack`}>
        {t('action.batchAck')}
      </Button>
      <Button status="danger" disabled={selected.length === 0} onClick={() => batch('clear', selected, done)} data-testid={`${testId}-batch-clear`}>
        {t('action.batchClear')}
      </Button>
    </>
  );
}
