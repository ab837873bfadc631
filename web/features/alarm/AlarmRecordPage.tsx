/**
 * Maintenance → Alarm record: every alarm, filtered by status, severity, device and time; detail,
 * handle and clear, singly or in batches. `?alarmId=` opens that alarm's detail (the alarm popup
 * links here).
 */
import { useEffect, useState, type JSX } from 'react';
import Card from '@arco-design/web-react/es/Card';
import { useTranslation } from 'react-i18next';
import { alarmRoutes } from '../../../server/contract/alarm.ts';
import { deviceRoutes, type Device } from '../../../server/contract/device.ts';
import { MAX_PAGE_SIZE } from '../../../server/contract/common.ts';
import { api } from '../../lib/api-client.ts';
import { useList } from '../../lib/use-list.ts';
import { AlarmTable } from './AlarmTable.tsx';

export function AlarmRecordPage(): JSX.Element {
  const { t } = useTranslation('alarm');
  const list = useList(alarmRoutes.list, {
    urlFilters: { status: 'string', severity: 'string', deviceId: 'string', startTime: 'number', endTime: 'number' },
  });
  const [devices, setDevices] = useState<Device[]>([]);
  const openId = new URLSearchParams(window.location.search).get('alarmId');
  useEffect(() => {
    void api(deviceRoutes.list, { query: { page: 1, pageSize: MAX_PAGE_SIZE } }).then(
      (page) => setDevices(page.items),
      () => undefined,
    );
  }, []);
  return (
    <Card title={t('title')} bordered={false} data-testid="alarm-page">
      <AlarmTable key={openId ?? ''} list={list} devices={devices} openId={openId} testId="alarm" />
    </Card>
  );
}
