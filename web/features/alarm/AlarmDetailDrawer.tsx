/**
 * One alarm: scene, device, severity, status, the trigger and its comparison, the value that fired
 * it, the message, and its times; handle and clear from here too (confirmed).
 */
import { useEffect, useState, type JSX } from 'react';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Drawer from '@arco-design/web-react/es/Drawer';
import Message from '@arco-design/web-react/es/Message';
import Spin from '@arco-design/web-react/es/Spin';
import { useTranslation } from 'react-i18next';
import { alarmRoutes, type Alarm } from '../../../server/contract/alarm.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag, useEnumLabel } from '../../components/EnumTag.tsx';
import { api } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { ackAlarm, clearAlarm } from './alarmApi.ts';
import { alarmStatusColors, severityColors } from './alarmStyle.ts';

export interface AlarmDetailDrawerProps {
  /** The alarm when the list has it; else it is fetched by `alarmId`. */
  alarm: Alarm | null;
  alarmId: string | null;
  onClose: () => void;
  onChanged: () => void;
}

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function AlarmDetailDrawer({ alarm, alarmId, onClose, onChanged }: AlarmDetailDrawerProps): JSX.Element {
  const { t } = useTranslation('alarm');
  // The comparison in the scene editor's words ("大于 30"), not the rule's enum ("GREATER 30").
  const operationText = useEnumLabel('scene', 'operation');
  const [loaded, setLoaded] = useState<Alarm | null>(null);
  useEffect(() => {
    if (!alarmId || (alarm && alarm.id === alarmId)) return undefined;
    let live = true;
    void api(alarmRoutes.get, { params: { id: alarmId } }).then(
      (a) => live && setLoaded(a),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [alarmId, alarm]);
  const current = alarm && alarm.id === alarmId ? alarm : loaded && loaded.id === alarmId ? loaded : null;

  const act = async (run: () => Promise<Alarm>, done: string): Promise<void> => {
    setLoaded(await run());
    Message.success(done);
    onChanged();
  };

  const d = current?.details;
  return (
    <Drawer width={500} visible={alarmId !== null} title={t('detailTitle')} onCancel={onClose} footer={null} unmountOnExit data-testid="alarm-detail">
      {current ? (
        <>
          <Descriptions
            column={1}
            labelStyle={{ width: 120 }}
            data={[
              { label: t('field.type'), value: current.type },
              { label: t('field.severity'), value: <EnumTag ns="alarm" group="severity" value={current.severity} colors={severityColors} /> },
              { label: t('field.status'), value: <EnumTag ns="alarm" group="status" value={current.status} colors={alarmStatusColors} testId="alarm-detail-status" /> },
              { label: t('field.scene'), value: current.sceneName },
              { label: t('field.device'), value: current.deviceAlias || current.deviceName || '—' },
              { label: t('field.trigger'), value: d?.triggerIndex === null || d?.triggerIndex === undefined ? '—' : t('field.triggerIndex', { index: d.triggerIndex + 1 }) },
              { label: t('field.key'), value: shown(d?.key) },
              { label: t('field.condition'), value: d?.operation ? <span data-testid="alarm-detail-condition">{`${operationText(d.operation)} ${shown(d.threshold)}`}</span> : '—' },
              { label: t('field.value'), value: <span data-testid="alarm-detail-value">{shown(d?.value)}</span> },
              { label: t('field.message'), value: shown(d?.message) },
              { label: t('field.count'), value: current.count },
              { label: t('field.startTs'), value: formatDateTime(current.startTs) },
              { label: t('field.endTs'), value: formatDateTime(current.endTs) || '—' },
              { label: t('field.ackTs'), value: formatDateTime(current.ackTs) || '—' },
              { label: t('field.clearTs'), value: formatDateTime(current.clearTs) || '—' },
            ]}
          />
          <div className="ec-alarm-detail__actions">
            {current.status === 'ACTIVE_UNACK' || current.status === 'CLEARED_UNACK' ? (
              <ConfirmButton type="primary" danger={false} title={t('action.ackConfirm')} okText={t('action.ack')} onConfirm={() => act(() => ackAlarm(current.id), t('action.acked'))} testId="alarm-detail-ack">
                {t('action.ack')}
              </ConfirmButton>
            ) : null}
            {current.status === 'ACTIVE_UNACK' || current.status === 'ACTIVE_ACK' ? (
              <ConfirmButton type="outline" title={t('action.clearConfirm')} okText={t('action.clear')} onConfirm={() => act(() => clearAlarm(current.id), t('action.cleared'))} testId="alarm-detail-clear">
                {t('action.clear')}
              </ConfirmButton>
            ) : null}
          </div>
        </>
      ) : (
        <Spin block />
      )}
    </Drawer>
  );
}
