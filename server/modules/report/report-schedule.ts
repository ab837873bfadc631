/**
 * When a report's schedule fires, in its own time zone: at minute 0 of each chosen hour of each
 * chosen day (server/contract/report.ts). Wall-clock times are turned into instants through Intl,
 * so daylight saving holds: an hour that does not exist on a spring-forward day fires once, an hour
 * later (the clock's 02:00 is 03:00), and an hour that happens twice on a fall-back day fires once
 * (at its second instance). A month day past the month's end fires on its last day.
 */
import type { ReportSchedule } from '../../contract/report.ts';

const DAY_MS = 86_400_000;
/** Days searched for the next or previous time: more than a year holds every schedule's times. */
const SEARCH_DAYS = 400;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether this runtime knows `timeZone` as an IANA zone (or UTC); offsets and abbreviations are refused. */
export function isIanaTimeZone(timeZone: string): boolean {
  if (timeZone !== 'UTC' && !timeZone.includes('/')) return false;
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock fields of `ts` in `timeZone`, as a UTC timestamp of those fields. */
function wallOf(ts: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(timeZone).formatToParts(ts)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** The instant whose wall clock in `timeZone` reads `wall` (two passes settle the offset; see the file's note on gaps and repeats). */
function instantOf(wall: number, timeZone: string): number {
  const first = wall - (wallOf(wall, timeZone) - wall);
  return wall - (wallOf(first, timeZone) - first);
}

function isoWeekday(day: number): number {
  return ((new Date(day).getUTCDay() + 6) % 7) + 1;
}

function dayMatches(s: ReportSchedule, day: number): boolean {
  const d = new Date(day);
  if (s.frequency === 'DAILY') return true;
  if (s.frequency === 'WEEKLY') return (s.weekdays ?? []).includes(isoWeekday(day));
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  return (s.monthDays ?? []).some((m) => Math.min(m, last) === d.getUTCDate());
}

/** The schedule's times on the local day starting at `day` (UTC-encoded wall midnight), ascending. */
function timesOn(s: ReportSchedule, day: number): number[] {
  if (!dayMatches(s, day)) return [];
  return [...s.hours].sort((a, b) => a - b).map((h) => instantOf(day + h * 3_600_000, s.timeZone));
}

function localDayOf(ts: number, timeZone: string): number {
  const wall = wallOf(ts, timeZone);
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
}

/** The first time strictly after `after`, or null for a schedule with no times. */
export function nextRunAfter(s: ReportSchedule, after: number): number | null {
  const start = localDayOf(after, s.timeZone);
  for (let i = 0; i < SEARCH_DAYS; i++) {
    const found = timesOn(s, start + i * DAY_MS).find((t) => t > after);
    if (found !== undefined) return found;
  }
  return null;
}

/** The last time strictly before `before`, or null for a schedule with no times. */
export function previousRunBefore(s: ReportSchedule, before: number): number | null {
  const start = localDayOf(before, s.timeZone);
  for (let i = 0; i < SEARCH_DAYS; i++) {
    const found = timesOn(s, start - i * DAY_MS).findLast((t) => t < before);
    if (found !== undefined) return found;
  }
  return null;
}
