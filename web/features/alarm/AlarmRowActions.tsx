/** An alarm row's actions: details; acknowledge (unacknowledged alarms) and clear (active ones), each confirmed. */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
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
  onDetail: (id: string) => void;
  onAck: () => Promise<void>;
  onClear: () => Promise<void>;
}

export function AlarmRowActions({ alarm, testId, onDetail, onAck, onClear }: AlarmRowActionsProps): JSX.Element {
  const { t } = useTranslation('alarm');
  return (
    <span style={{ display: 'inline-flex', gap: 4 }}>
      <Button type="text" size="small" onClick={() => onDetail(alarm.id)} data-testid={`${testId}-detail-${alarm.id}`}>
        {t('action.detail')}
      </Button>
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
