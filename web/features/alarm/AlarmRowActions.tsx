/** An alarm row's actions: acknowledge (unacknowledged alarms) and clear (active ones), each confirmed; the type cell opens the details. */
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import type { Alarm } from '../../../server/contract/alarm.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';

function isActive(a: Alarm): boolean {
  return a.status === 'ACTIVE_UNACK' || a.status === 'ACTIVE_ACK';
}

function isUnack(a: Alarm): boolean {
  return a.status === 'ACTIVE_UNACK' || a.status === 'CLEARED_UNACK';
}

export interface AlarmRowActionsProps {
  alarm: Alarm;
  testId: string;
  onAck: () => Promise<void>;
  onClear: () => Promise<void>;
}

export function AlarmRowActions({ alarm, testId, onAck, onClear }: AlarmRowActionsProps): JSX.Element {
  const { t } = useTranslation('alarm');
  return (
    <span style={{ display: 'inline-flex', gap: 4 }}>
      {isUnack(alarm) ? (
        <ConfirmButton
          title={t('action.ackConfirm')}
          okText={t('action.ack')}
          danger={false}
          onConfirm={onAck}
          testId={`${testId}-ack-${alarm.id}`}
        >
          {t('action.ack')}
        </ConfirmButton>
      ) : null}
      {isActive(alarm) ? (
        <ConfirmButton title={t('action.clearConfirm')} okText={t('action.clear')} onConfirm={onClear} testId={`${testId}-clear-${alarm.id}`}>
          {t('action.clear')}
        </ConfirmButton>
      ) : null}
    </span>
  );
}
