/**
 * `--network-applier file`: the clock settings are recorded in `<data-dir>/network/time.json` and
 * nothing on the host is touched, so a development machine's clock stays its own. A time set by
 * hand is recorded as the offset it asked for, never applied.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SystemTimeBody } from '../../contract/system.ts';
import { processTimeZone, type TimeApplier, type TimeState } from './time-applier.ts';

interface Recorded {
  timeZone: string;
  ntpEnabled: boolean;
  ntpServers: string[];
  /** What a hand-set time asked for, against the clock when it was asked. */
  manualTime?: { requested: number; at: number };
}

export class FileTimeApplier implements TimeApplier {
  private readonly file: string;

  constructor(private readonly dataDir: string) {
    this.file = join(dataDir, 'network', 'time.json');
  }

  async read(): Promise<TimeState> {
    const recorded = this.recorded();
    return {
      timeZone: recorded?.timeZone ?? processTimeZone(),
      ntpEnabled: recorded?.ntpEnabled ?? true,
      ntpServers: recorded?.ntpServers ?? [],
      ntpSynced: null,
    };
  }

  async apply(change: SystemTimeBody): Promise<void> {
    const record: Recorded = { timeZone: change.timeZone, ntpEnabled: change.ntpEnabled, ntpServers: change.ntpServers };
    if (change.time !== undefined) record.manualTime = { requested: change.time, at: Date.now() };
    mkdirSync(join(this.dataDir, 'network'), { recursive: true, mode: 0o700 });
    // Written aside and renamed: a power cut leaves the old record or the new one, never half.
    const aside = `${this.file}.tmp`;
    writeFileSync(aside, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    renameSync(aside, this.file);
  }

  private recorded(): Recorded | null {
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as Recorded;
    } catch {
      return null;
    }
  }
}
