/**
 * Free space on the data directory's file system, checked on a timer (never per message: the
 * telemetry path reads one boolean). Below the floor (`--min-free-disk-mb`) telemetry is refused
 * until space returns: a full disk would stop every write, settings and sign-ins included, while
 * a refused device keeps its message (MQTT 5 PUBACK 0x97, MQTT 3.1.1 no PUBACK, HTTP 507).
 */
import { statfs as statfsOfPath } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';

/** What the guard needs of `fs.statfs`: the free blocks an unprivileged process may use, and their size. */
export type Statfs = (path: string) => Promise<{ bavail: number | bigint; bsize: number | bigint }>;

export interface DiskGuardOptions {
  /** How often free space is looked at. */
  checkMs: number;
  /** `fs.statfs` unless a test supplies free space it controls. */
  statfs: Statfs;
}

export const diskGuardDefaults: DiskGuardOptions = { checkMs: 5_000, statfs: statfsOfPath };

export class DiskGuard {
  /** Read on every telemetry message. */
  low = false;
  freeBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly options: DiskGuardOptions;
  private readonly dir: string;
  readonly minFreeBytes: number;
  private readonly log: FastifyBaseLogger;

  /** `dir`: the data directory whose file system is watched; `minFreeBytes`: the floor (`--min-free-disk-mb`). */
  constructor(deps: { dir: string; minFreeBytes: number; log: FastifyBaseLogger; options?: Partial<DiskGuardOptions> }) {
    this.dir = deps.dir;
    this.minFreeBytes = deps.minFreeBytes;
    this.log = deps.log;
    this.options = { ...diskGuardDefaults, ...deps.options };
  }

  start(): void {
    const tick = (): void => {
      this.check().catch((err: unknown) => this.log.error({ err }, 'checking free disk space failed'));
    };
    tick();
    this.timer = setInterval(tick, this.options.checkMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Looks at free space now; a change of state is logged once per episode. */
  async check(): Promise<boolean> {
    const s = await this.options.statfs(this.dir);
    this.freeBytes = Number(s.bavail) * Number(s.bsize);
    const low = this.freeBytes < this.minFreeBytes;
    if (low && !this.low) {
      this.log.warn({ freeBytes: this.freeBytes, minFreeBytes: this.minFreeBytes, dir: this.dir }, 'disk almost full: telemetry is refused');
    } else if (!low && this.low) {
      this.log.info({ freeBytes: this.freeBytes, minFreeBytes: this.minFreeBytes }, 'disk space returned: telemetry is accepted again');
    }
    this.low = low;
    return low;
  }
}
