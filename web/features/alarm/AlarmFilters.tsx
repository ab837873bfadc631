/** The alarm table's filter fields: status, severity, device (unless in a device's own tab), time range. */
import type { JSX } from 'react';
import DatePicker from '@arco-design/web-react/es/DatePicker';
import Form from '@arco-design/web-react/es/Form';
import { useTranslation } from 'react-i18next';
import { alarmSeverities, alarmStatuses } from '../../../server/contract/alarm.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { epochOf } from '../../lib/date-format.ts';
import { DeviceSelect } from '../device/DeviceSelect.tsx';

export interface AlarmFiltersProps {
  testId: string;
  deviceFilter: boolean | undefined;
}

export function AlarmFilters({ testId, deviceFilter }: AlarmFiltersProps): JSX.Element {
  const { t } = useTranslation('alarm');
  return (
    <>
      <Form.Item field="status" label={t('field.status')}>
        <EnumSelect ns="alarm" group="status" values={alarmStatuses} allowClear placeholder={t('field.status')} testId={`${testId}-filter-status`} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item field="severity" label={t('field.severity')}>
        <EnumSelect ns="alarm" group="severity" values={alarmSeverities} allowClear placeholder={t('field.severity')} testId={`${testId}-filter-severity`} style={{ width: 140 }} />
      </Form.Item>
      {deviceFilter ? (
        <Form.Item field="deviceId" label={t('field.device')}>
          <DeviceSelect<string> allowClear placeholder={t('field.devicePlaceholder')} testId={`${testId}-filter-device`} style={{ width: 180 }} />
        </Form.Item>
      ) : null}
      <Form.Item field="startTime" label={t('field.from')} getValueFromEvent={epochOf}>
        <DatePicker showTime getPopupContainer={() => document.body} style={{ width: 190 }} data-testid={`${testId}-filter-start`} />
      </Form.Item>
      <Form.Item field="endTime" label={t('field.to')} getValueFromEvent={epochOf}>
        <DatePicker showTime getPopupContainer={() => document.body} style={{ width: 190 }} data-testid={`${testId}-filter-end`} />
      </Form.Item>
    </>
  );
}
