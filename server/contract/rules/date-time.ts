/**
 * The spec's date form on the wire: request data may carry dates as `YYYY-MM-DD HH:mm:ss`, read in
 * the gateway's time zone (the process's), besides epoch milliseconds (docs/API.md).
 */
const DATE_TIME_TEXT = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Epoch milliseconds of `YYYY-MM-DD HH:mm:ss` in the local time zone; null for anything else or an impossible date. */
export function parseDateTimeText(text: string): number | null {
  const m = DATE_TIME_TEXT.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(year, month - 1, day, hour, minute, second);
  // Date rolls 2024-02-30 over to March: a date that does not read back is not a date.
  const same =
    date.getFullYear() === year &&
    date.getMonth() === month - 1 &&
    date.getDate() === day &&
    date.getHours() === hour &&
    date.getMinutes() === minute &&
    date.getSeconds() === second;
  const ms = date.getTime();
  return same && ms >= 0 ? ms : null;
}
