/**
 * The gateway's load for the workbench: CPU use from /proc/stat (os.cpus() where there is none),
 * memory from the OS, disk of the file system holding the data directory.
 */
import { readFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { cpus, freemem, totalmem } from 'node:os';

interface CpuTimes {
  idle: number;
  total: number;
}

/** A fresh measurement spans at least this long, so a percentage means something. */
const SAMPLE_MS = 200;
/** A previous reading older than this describes another moment: sample anew. */
const STALE_MS = 60_000;

function readCpuTimes(): CpuTimes {
  try {
    // "cpu  user nice system idle iowait irq softirq steal guest guest_nice"; guest time is
    // already counted in user, so only the first eight fields add up to the total.
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
    if (fields.length >= 5 && fields.every(Number.isFinite)) {
      return { idle: fields[3]! + fields[4]!, total: fields.reduce((a, b) => a + b, 0) };
    }
  } catch {
    // Not Linux: fall through to os.cpus().
  }
  let idle = 0;
  let total = 0;
  for (const { times } of cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

function busyPercent(from: CpuTimes, to: CpuTimes): number {
  const total = to.total - from.total;
  if (total <= 0) return 0;
  const busy = total - (to.idle - from.idle);
  return Math.min(100, Math.max(0, Math.round((busy / total) * 1000) / 10));
}

/**
 * CPU use between two readings. Each call measures since the previous call's reading when that
 * is recent enough, so polling the workbench costs nothing extra; otherwise it samples for 200 ms.
 */
export class CpuSampler {
  private last: { at: number; times: CpuTimes } | null = null;
  private lastPercent = 0;

  async percent(): Promise<number> {
    const now = Date.now();
    const previous = this.last;
    if (previous && now - previous.at < SAMPLE_MS) return this.lastPercent;
    let from = previous;
    if (!from || now - from.at > STALE_MS) {
      from = { at: now, times: readCpuTimes() };
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
    const to = { at: Date.now(), times: readCpuTimes() };
    this.lastPercent = busyPercent(from.times, to.times);
    this.last = to;
    return this.lastPercent;
  }
}

export function memoryUsage(): { total: number; used: number } {
  const total = totalmem();
  return { total, used: Math.max(0, total - freemem()) };
}

export async function diskUsage(path: string): Promise<{ total: number; used: number }> {
  try {
    const s = await statfs(path);
    return { total: s.blocks * s.bsize, used: (s.blocks - s.bfree) * s.bsize };
  } catch {
    return { total: 0, used: 0 };
  }
}
