/** The console's date format; wire dates are epoch milliseconds. */
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** `YYYY-MM-DD HH:mm:ss` in the browser's time zone; '' for a missing date. */
export function formatDateTime(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '' : dayjs(ms).format(DATE_TIME_FORMAT);
}

/** A date filter's epoch ms from Arco's date picker, which reports a string and a dayjs (`getValueFromEvent`). */
export function epochOf(_text: string | undefined, date: Dayjs | undefined): number | undefined {
  return date?.valueOf();
}
