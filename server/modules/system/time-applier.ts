/** What every time applier does (time-applier-for.ts picks one by `--network-applier`). */
import type { SystemTimeBody } from '../../contract/system.ts';

/** The clock settings as the host (or the record) holds them now. */
export interface TimeState {
  timeZone: string;
  ntpEnabled: boolean;
  ntpServers: string[];
  /** null where the applier cannot tell. */
  ntpSynced: boolean | null;
}

export interface TimeApplier {
  read(): Promise<TimeState>;
  /** Carries out a checked change; throws TimeApplyError with the command's own words on failure. */
  apply(change: SystemTimeBody): Promise<void>;
}

/** A host command refused the change: its stderr goes back to the console as is. */
export class TimeApplyError extends Error {}

/** The process's own zone, what a host without a recorded one runs in. */
export function processTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
