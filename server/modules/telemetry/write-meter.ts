/**
 * Bytes this process wrote to storage, for sizing a gateway's flash (issue 26): the kernel's own
 * counter, /proc/self/io `write_bytes` (every write the process caused towards the disk: database,
 * WAL, checkpoints, the history worker thread, logs), sampled every `sampleMs` next to the device
 * messages acknowledged meanwhile, kept for 24 hours in memory only (writing the meter down would be
 * the wear it measures). After a restart the window starts at the start, which `sinceTs` tells.
 */
import { readFileSync } from 'node:fs';

const DAY_MS = 86_400_000;

interface Sample {
  ts: number;
  bytes: number;
  messages: number;
}

export interface WrittenBytes {
  /** Start of the window: 24 h ago, or the process's start when younger. */
  sinceTs: number;
  /** The window starts at the process's start, less than 24 h ago. */
  sinceStart: boolean;
  /** null where the kernel does not count (not Linux, no /proc). */
  bytes: number | null;
  messages: number;
  bytesPerMessage: number | null;
}

/** /proc/self/io `write_bytes`, or null where there is none. */
export function processWriteBytes(): number | null {
  try {
    const match = /^write_bytes:\s*(\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

export class WriteMeter {
  private readonly samples: Sample[] = [];
  private messages = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    sampleMs = 600_000,
    private readonly read: () => number | null = processWriteBytes,
  ) {
    this.sample(Date.now());
    this.timer = setInterval(() => this.sample(Date.now()), sampleMs).unref();
  }

  /** Device messages acknowledged (committed). */
  counted(n: number): void {
    this.messages += n;
  }

  written(now = Date.now()): WrittenBytes {
    const first = this.samples.find((s) => s.ts >= now - DAY_MS) ?? this.samples.at(-1)!;
    const bytesNow = this.read();
    const bytes = bytesNow === null ? null : bytesNow - first.bytes;
    const messages = this.messages - first.messages;
    return { sinceTs: first.ts, sinceStart: first === this.samples[0] && first.ts > now - DAY_MS, bytes, messages, bytesPerMessage: bytes !== null && messages > 0 ? bytes / messages : null };
  }

  close(): void {
    clearInterval(this.timer);
  }

  private sample(ts: number): void {
    this.samples.push({ ts, bytes: this.read() ?? 0, messages: this.messages });
    // One sample older than a day stays as the window's start until a newer one covers it.
    while (this.samples.length > 2 && this.samples[1]!.ts <= ts - DAY_MS) this.samples.shift();
  }
}
