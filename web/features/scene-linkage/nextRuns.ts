/**
 * The next run times of a SCHEDULE_TRIGGER's cron expression in its time zone, as the editor shows
 * them while the user types. croner is what the server runs the schedule with, so the preview and
 * the engine read an expression the same way. Pure.
 */
import { Cron } from 'croner';
import { timeZoneProblem } from '../../../server/contract/rules/scene-linkage.ts';
import { CRON_PREVIEW_COUNT } from '../../../server/contract/scene-linkage.ts';

export type NextRuns =
  | { ok: true; runs: Date[] }
  /** `cron`: the expression does not parse; `timeZone`: the zone is not an IANA zone. */
  | { ok: false; problem: 'cron' | 'timeZone' | 'empty' };

/** The next `count` runs of `cron` in `timeZone` after `from` (default now). */
export function nextRuns(cron: string | undefined, timeZone: string | undefined, from: Date = new Date(), count = CRON_PREVIEW_COUNT): NextRuns {
  const pattern = (cron ?? '').trim();
  if (!pattern) return { ok: false, problem: 'empty' };
  const zone = (timeZone ?? '').trim();
  if (zone && timeZoneProblem(zone)) return { ok: false, problem: 'timeZone' };
  try {
    const job = new Cron(pattern, { paused: true, ...(zone ? { timezone: zone } : {}) });
    const runs = job.nextRuns(count, from);
    job.stop();
    return { ok: true, runs };
  } catch {
    return { ok: false, problem: 'cron' };
  }
}

/** The browser's own zone, the editor's default. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A handful of zones offered in the select; any other IANA zone can be typed. */
export const commonTimeZones = [
  'Asia/Shanghai',
  'UTC',
  'Asia/Tokyo',
  'Asia/Singapore',
  'Asia/Kolkata',
  'Europe/London',
  'Europe/Berlin',
  'America/New_York',
  'America/Los_Angeles',
] as const;
