import { describe, expect, it } from 'vitest';
import type { ReportSchedule } from '../../server/contract/report.ts';
import { isIanaTimeZone, nextRunAfter, previousRunBefore } from '../../server/modules/report/report-schedule.ts';

const daily = (hours: number[], timeZone: string): ReportSchedule => ({ frequency: 'DAILY', hours, timeZone });
const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());

describe('report schedules', () => {
  it('fires daily at the chosen hours of its own time zone', () => {
    const s = daily([0, 8], 'Asia/Shanghai');
    expect(iso(nextRunAfter(s, Date.parse('2026-03-01T00:30:00Z')))).toBe('2026-03-01T16:00:00.000Z'); // 00:00 +08
    expect(iso(nextRunAfter(s, Date.parse('2026-03-01T16:00:00Z')))).toBe('2026-03-02T00:00:00.000Z'); // strictly after: 08:00 +08
    expect(iso(previousRunBefore(s, Date.parse('2026-03-02T00:00:00Z')))).toBe('2026-03-01T16:00:00.000Z');
  });

  it('fires once on a spring-forward day at an hour the clock skips, an hour later', () => {
    const s = daily([2, 3], 'Europe/Berlin');
    const first = nextRunAfter(s, Date.parse('2026-03-28T12:00:00Z'));
    expect(iso(first)).toBe('2026-03-29T01:00:00.000Z'); // 03:00 CEST: 02:00 does not exist
    expect(iso(nextRunAfter(s, first!))).toBe('2026-03-30T00:00:00.000Z'); // 02:00 CEST the next day, not twice on the 29th
  });

  it('fires once on a fall-back day at the hour that happens twice', () => {
    const s = daily([2], 'Europe/Berlin');
    const first = nextRunAfter(s, Date.parse('2026-10-24T12:00:00Z'));
    expect(iso(first)).toBe('2026-10-25T01:00:00.000Z'); // the second 02:00 (CET)
    expect(iso(nextRunAfter(s, first!))).toBe('2026-10-26T01:00:00.000Z');
  });

  it('fires weekly on ISO weekdays and monthly on month days, day 31 on a short month\'s last day', () => {
    const weekly: ReportSchedule = { frequency: 'WEEKLY', weekdays: [1, 7], hours: [9], timeZone: 'UTC' };
    expect(iso(nextRunAfter(weekly, Date.parse('2026-11-25T00:00:00Z')))).toBe('2026-11-29T09:00:00.000Z'); // Sunday
    expect(iso(nextRunAfter(weekly, Date.parse('2026-11-29T09:00:00Z')))).toBe('2026-11-30T09:00:00.000Z'); // Monday
    const monthly: ReportSchedule = { frequency: 'MONTHLY', monthDays: [31], hours: [0], timeZone: 'UTC' };
    expect(iso(nextRunAfter(monthly, Date.parse('2026-02-01T00:00:00Z')))).toBe('2026-02-28T00:00:00.000Z');
    expect(iso(nextRunAfter(monthly, Date.parse('2026-02-28T00:00:00Z')))).toBe('2026-03-31T00:00:00.000Z');
    expect(iso(previousRunBefore(monthly, Date.parse('2026-03-31T00:00:00Z')))).toBe('2026-02-28T00:00:00.000Z');
  });

  it('knows IANA zones and refuses offsets, abbreviations and unknown names', () => {
    expect(isIanaTimeZone('Asia/Shanghai')).toBe(true);
    expect(isIanaTimeZone('UTC')).toBe(true);
    for (const bad of ['Mars/Olympus', '+08:00', 'EST', '']) expect(isIanaTimeZone(bad)).toBe(false);
  });
});
