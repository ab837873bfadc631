/** The time left before the disk budget is reached, in the largest whole unit that reads well. */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export type TimeLeft = { unit: 'day' | 'hour' | 'minute'; count: number } | null;

/** null (not measurable, or not growing) is shown as "—". */
export function timeLeftOf(ms: number | null): TimeLeft {
  if (ms === null) return null;
  if (ms >= 2 * DAY) return { unit: 'day', count: Math.floor(ms / DAY) };
  if (ms >= 2 * HOUR) return { unit: 'hour', count: Math.floor(ms / HOUR) };
  return { unit: 'minute', count: Math.floor(ms / MINUTE) };
}
