/**
 * Maintenance → Alarm record: every alarm, filtered by status, severity, device and time; detail,
 * handle and clear, singly or in batches. `?alarmId=` opens that alarm's detail (the alarm popup
 * links here).
 */
import type { JSX } from 'react';
import Card from '@arco-design/web-react/es/Card';
import { useTranslation } from 'react-i18next';
import { alarmRoutes } from '../../../server/contract/alarm.ts';
import { useList } from '../../lib/use-list.ts';
import { AlarmTable } from './AlarmTable.tsx';

export function AlarmRecordPage(): JSX.Element {
  const { t } = useTranslation('alarm');
  const list = useList(alarmRoutes.list, {
    urlFilters: { status: 'string', severity: 'string', deviceId: 'string', startTime: 'number', endTime: 'number' },
  });
  const openId = new URLSearchParams(window.location.search).get('alarmId');
  return (
    <Card title={t('title')} bordered={false} data-testid="alarm-page">
      <AlarmTable key={openId ?? ''} list={list} deviceFilter openId={openId} testId="alarm" />
    </Card>
  );
}
