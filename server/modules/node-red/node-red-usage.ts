/**
 * CPU and memory of a runtime process from Linux /proc, sampled by the supervisor on a timer (not
 * per request: a list of instances polled by several browsers would read /proc for each).
 */
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks on every architecture we ship. */
const TICKS_PER_SECOND = 100;

export interface UsageSample {
  /** utime + stime of the process, in ticks. */
  ticks: number;
  at: number;
  rssBytes: number;
  /** Share of one core over the interval since the previous sample; absent on the first. */
  cpuPercent?: number;
}

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** A new sample of `pid`, with the CPU share since `previous`; null once the process is gone. */
export function sampleUsage(pid: number, previous: UsageSample | null, now = Date.now()): UsageSample | null {
  try {
    const ticks = cpuTicks(pid);
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    const sample: UsageSample = { ticks, at: now, rssBytes: Number(kb ?? 0) * 1024 };
    if (previous && now > previous.at) {
      const percent = ((ticks - previous.ticks) / TICKS_PER_SECOND / ((now - previous.at) / 1000)) * 100;
      sample.cpuPercent = Math.max(0, Math.round(percent * 10) / 10);
    }
    return sample;
  } catch {
    return null;
  }
}
