/** An IANA time zone: a few common ones offered, any other typed in (checked against the runtime's zones). */
import type { JSX } from 'react';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import { browserTimeZone, commonTimeZones } from './nextRuns.ts';

export function TimeZoneSelect({ value, onChange, testId }: { value?: string; onChange?: (v: string) => void; testId: string }): JSX.Element {
  const { t } = useTranslation('scene');
  const zones = [...new Set([browserTimeZone(), ...commonTimeZones, ...(value ? [value] : [])])];
  return (
    <Select
      value={value}
      onChange={onChange}
      showSearch
      allowCreate
      placeholder={t('field.timeZone')}
      getPopupContainer={() => document.body}
      aria-label={t('field.timeZone')}
      style={{ width: 220 }}
      data-testid={testId}
    >
      {zones.map((zone) => (
        <Select.Option key={zone} value={zone}>
          {zone}
        </Select.Option>
      ))}
    </Select>
  );
}
