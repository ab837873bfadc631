/** Device detail → alarm tab (`/device-manage/device/{id}/alarm` opens on it): this device's alarms. */
import type { JSX } from 'react';
import { alarmRoutes } from '../../../server/contract/alarm.ts';
import { useList } from '../../lib/use-list.ts';
import type { DeviceTabProps } from '../device/deviceTab.ts';
import { AlarmTable } from './AlarmTable.tsx';

export function AlarmTab({ device }: DeviceTabProps): JSX.Element {
  const list = useList(alarmRoutes.list, { scope: { deviceId: device.id }, syncUrl: false });
  return <AlarmTable list={list} testId="device-alarm" />;
}
