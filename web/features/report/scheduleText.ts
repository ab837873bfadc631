/** A schedule in words for the list ("Monthly on 1, 15 at 08:00 (Asia/Shanghai)"). */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportSchedule } from '../../../server/contract/report.ts';

export function useScheduleText(): (s: ReportSchedule) => string {
  const { t } = useTranslation('reports');
  return useCallback(
    (s: ReportSchedule) => {
      const hours = s.hours.map((h) => `${String(h).padStart(2, '0')}:00`).join(', ');
      const days =
        s.frequency === 'MONTHLY'
          ? (s.monthDays ?? []).join(', ')
          : s.frequency === 'WEEKLY'
            ? (s.weekdays ?? []).map((d) => t(`schedule.weekday.${d}` as 'schedule.weekday.1')).join(', ')
            : '';
      return t(`scheduleText.${s.frequency}`, { days, hours, timeZone: s.timeZone });
    },
    [t],
  );
}
