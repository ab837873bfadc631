/**
 * A scene's schedule window that runs past midnight, decided as ThingsBoard's alarm schedule does
 * (its AlarmRuleState.isActiveSpecific / isActiveCustom): the weekday is the instant's own weekday
 * in the schedule's time zone, and a window whose end is before its start covers, on each chosen
 * day, the start to midnight and midnight to the end. "Mon 22:00 → 02:00" is therefore in force on
 * Monday 00:00–02:00 and Monday 22:00–24:00; Tuesday 01:00 is out unless Tuesday is chosen too.
 */
import { describe, expect, it } from 'vitest';
import type { Schedule } from '../../server/contract/scene-linkage.ts';
import { inSchedule } from '../../server/modules/rule-engine/schedule-window.ts';

/** 2024-01-01 is a Monday; `at('Mon', '23:00')` is that instant in UTC. */
const days = { Sun: '2023-12-31', Mon: '2024-01-01', Tue: '2024-01-02', Wed: '2024-01-03' } as const;
const at = (day: keyof typeof days, hhmm: string, seconds = '00'): number => Date.parse(`${days[day]}T${hhmm}:${seconds}Z`);

const mondayNight: Schedule = { scheduleType: 'SPECIFIC_TIME', timeZone: 'UTC', weekdays: [1], startTime: '22:00', endTime: '02:00' };

describe('SPECIFIC_TIME past midnight', () => {
  it('is in force on the chosen day from the start to midnight', () => {
    expect(inSchedule(mondayNight, at('Mon', '21:59', '59'))).toBe(false);
    expect(inSchedule(mondayNight, at('Mon', '22:00'))).toBe(true);
    expect(inSchedule(mondayNight, at('Mon', '23:59', '59'))).toBe(true);
  });

  it('is in force on the chosen day from midnight to the end (the early hours of that same day)', () => {
    expect(inSchedule(mondayNight, at('Mon', '00:00'))).toBe(true);
    expect(inSchedule(mondayNight, at('Mon', '01:59', '59'))).toBe(true);
    expect(inSchedule(mondayNight, at('Mon', '02:00'))).toBe(false);
    expect(inSchedule(mondayNight, at('Mon', '12:00'))).toBe(false);
  });

  it('gives the hours after midnight to the day they fall on, not to the day the window started', () => {
    expect(inSchedule(mondayNight, at('Tue', '00:30'))).toBe(false);
    expect(inSchedule(mondayNight, at('Tue', '01:30'))).toBe(false);
    expect(inSchedule(mondayNight, at('Sun', '23:00'))).toBe(false);
    const tuesdayNight: Schedule = { ...mondayNight, weekdays: [2] };
    expect(inSchedule(tuesdayNight, at('Tue', '00:30'))).toBe(true);
    expect(inSchedule(tuesdayNight, at('Mon', '23:00'))).toBe(false);
    const both: Schedule = { ...mondayNight, weekdays: [1, 2] };
    expect(inSchedule(both, at('Mon', '23:00'))).toBe(true);
    expect(inSchedule(both, at('Tue', '01:00'))).toBe(true);
    expect(inSchedule(both, at('Wed', '01:00'))).toBe(false);
  });

  it('takes weekday and clock in the schedule time zone', () => {
    const shanghai: Schedule = { ...mondayNight, timeZone: 'Asia/Shanghai' }; // UTC+8
    expect(inSchedule(shanghai, Date.parse('2024-01-01T14:30:00Z'))).toBe(true); // Mon 22:30 there
    expect(inSchedule(shanghai, Date.parse('2023-12-31T17:30:00Z'))).toBe(true); // Mon 01:30 there, Sunday in UTC
    expect(inSchedule(shanghai, Date.parse('2024-01-01T17:30:00Z'))).toBe(false); // Tue 01:30 there, Monday in UTC
    expect(inSchedule({ ...shanghai, weekdays: [2] }, Date.parse('2024-01-01T17:30:00Z'))).toBe(true);
  });

  it('reads an end of 00:00 as midnight at the end of the day and equal ends as the whole day', () => {
    const toMidnight: Schedule = { ...mondayNight, endTime: '00:00' };
    expect(inSchedule(toMidnight, at('Mon', '23:30'))).toBe(true);
    expect(inSchedule(toMidnight, at('Mon', '00:30'))).toBe(false);
    expect(inSchedule(toMidnight, at('Tue', '00:30'))).toBe(false);
    const wholeDay: Schedule = { ...mondayNight, startTime: '00:00', endTime: '00:00' };
    expect(inSchedule(wholeDay, at('Mon', '00:00'))).toBe(true);
    expect(inSchedule(wholeDay, at('Mon', '23:59', '59'))).toBe(true);
    expect(inSchedule(wholeDay, at('Tue', '12:00'))).toBe(false);
  });
});

describe('CUSTOM past midnight', () => {
  const custom: Schedule = {
    scheduleType: 'CUSTOM',
    timeZone: 'UTC',
    items: [
      { weekday: 1, enabled: true, startTime: '22:00', endTime: '02:00' },
      { weekday: 2, enabled: false, startTime: '00:00', endTime: '00:00' },
      { weekday: 3, enabled: true, startTime: '08:00', endTime: '18:00' },
    ],
  };

  it('runs a day window past midnight within that day', () => {
    expect(inSchedule(custom, at('Mon', '23:00'))).toBe(true);
    expect(inSchedule(custom, at('Mon', '01:00'))).toBe(true);
    expect(inSchedule(custom, at('Mon', '02:00'))).toBe(false);
    expect(inSchedule(custom, at('Mon', '21:59'))).toBe(false);
  });

  it('gives the hours after midnight to the next day, whose own item decides', () => {
    expect(inSchedule(custom, at('Tue', '01:00'))).toBe(false); // Tuesday's item is switched off
    expect(inSchedule(custom, at('Wed', '01:00'))).toBe(false); // Wednesday's window is 08:00–18:00
    expect(inSchedule(custom, at('Wed', '09:00'))).toBe(true);
    expect(inSchedule(custom, at('Sun', '23:00'))).toBe(false); // Sunday has no item
  });
});
