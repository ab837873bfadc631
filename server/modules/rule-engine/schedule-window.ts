/**
 * Whether a scene's schedule (server/contract/scene-linkage.ts, Schedule) is in force at an
 * instant: the weekday and clock time in the schedule's time zone against its windows, as
 * ThingsBoard's alarm schedule decides (its rule engine's AlarmRuleState, isActiveSpecific and
 * isActiveCustom). A window whose end is before its start runs past midnight, and the weekday is
 * always the instant's own: a Monday window of 22:00–02:00 is in force on Monday 00:00–02:00 and
 * 22:00–24:00, and Tuesday 01:00 is out unless Tuesday is chosen too (CUSTOM: unless Tuesday's own
 * item covers it). An end of 00:00 is the end of the day; equal start and end mean the whole day
 * (so says ThingsBoard's editor; its server never fires for equal ends other than 00:00).
 * Where we part from ThingsBoard, on purpose: both ends are read as [start, end) on wall-clock
 * minutes, so the start minute and midnight itself are in (ThingsBoard's past-midnight branch
 * leaves out the exact millisecond of the start and of midnight, which a cron firing on the minute
 * would hit), and on a daylight-saving day "02:00" is the wall clock, not two hours after midnight.
 */
import type { Schedule } from '../../contract/scene-linkage.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();
const weekdayNumbers: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** ISO weekday (1 Monday … 7 Sunday) and minutes since midnight of `ts` in `timeZone`. */
export function localClock(ts: number, timeZone: string): { weekday: number; minutes: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(ts).map((p) => [p.type, p.value]));
  return { weekday: weekdayNumbers[parts.weekday!] ?? 1, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

/** Whether `minutes` (since midnight) is in [start, end), across midnight when end < start. */
export function withinWindow(minutes: number, startTime: string, endTime: string): boolean {
  const start = minutesOf(startTime);
  const end = minutesOf(endTime);
  if (start === end) return true;
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

export function inSchedule(schedule: Schedule, ts: number): boolean {
  if (schedule.scheduleType === 'ANY_TIME') return true;
  const { weekday, minutes } = localClock(ts, schedule.timeZone);
  if (schedule.scheduleType === 'SPECIFIC_TIME') {
    return schedule.weekdays.includes(weekday) && withinWindow(minutes, schedule.startTime, schedule.endTime);
  }
  const item = schedule.items.find((i) => i.weekday === weekday);
  return item !== undefined && item.enabled && withinWindow(minutes, item.startTime, item.endTime);
}
