/**
 * What the bench reads off a process and a sample: percentiles, CPU time and resident memory from
 * /proc, so a figure is the measured process's own and not the bench's.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const KB = 1024;
export const MB = 1024 * 1024;

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** utime + stime of a /proc stat file, in ms. */
function statCpuMs(file: string): number {
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return (ticks * 1000) / clockTicks;
}

/** CPU time (user + system) the process has used: less sensitive to a busy machine than wall time. */
export function cpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** CPU time of the process's main thread (its thread id is the pid); cpuMs minus this is V8's GC helpers, libuv's pool and workers. */
export function mainThreadCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

export interface Rss {
  rss: number;
  anon: number;
  file: number;
}

/** Resident memory of a process in bytes, split into heap-like (anonymous) and file-backed pages. */
export function rssOf(pid: number): Rss {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') * KB, anon: kb('RssAnon') * KB, file: kb('RssFile') * KB };
}

/**
 * The median of several readings by VmRSS, as that reading (its anon/file split stays its own). One
 * start's idle RSS moves by ±4 MB between identical restarts (what V8 and malloc hold when the
 * reading falls), so a single start says little about the binary.
 */
export function medianRss(readings: readonly Rss[]): Rss {
  const sorted = [...readings].sort((a, b) => a.rss - b.rss);
  return sorted[(sorted.length - 1) >> 1]!;
}

/** "min–max MB" of several readings' VmRSS. */
export function rssRange(readings: readonly Rss[]): string {
  const rss = readings.map((r) => r.rss);
  return `${mb(Math.min(...rss))}–${mb(Math.max(...rss))} MB`;
}

/**
 * Resident memory the kernel may take back without a write (/proc/<pid>/smaps_rollup `LazyFree`):
 * pages a process gave back with madvise(MADV_FREE), as V8 does with the heap pages it frees on
 * Linux; VmRSS keeps counting them until the machine runs short of memory. And the resident
 * transparent huge pages (`AnonHugePages`), which round a mapping's RSS up to 2 MB.
 */
export function lazyFreeOf(pid: number): { lazyFree: number; hugePages: number } {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
  return { lazyFree: kb('LazyFree') * KB, hugePages: kb('AnonHugePages') * KB };
}

/**
 * A process's resident memory by mapping (/proc/<pid>/smaps), in bytes: file mappings by path,
 * anonymous ones by size class, since V8 takes its pages in 256 KB chunks and glibc's per-thread
 * malloc arenas are 64 MB regions, and the main thread's malloc heap is `[heap]`.
 */
export function rssByMapping(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let key = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const size = Number.parseInt(head[2]!, 16) - Number.parseInt(head[1]!, 16);
      const name = head[4]!.trim();
      // A file's mappings by permission: the binary's code (r-xp) apart from its read-only data (r--p: ICU's).
      key = name.startsWith('/') ? `${name} ${head[3]}` : name !== '' ? name : size >= 60 * MB ? '[anon ≥ 60 MB: malloc arena]' : size >= 1 * MB ? '[anon 1-60 MB]' : '[anon < 1 MB]';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out.set(key, (out.get(key) ?? 0) + Number(rss[1]) * KB);
  }
  return out;
}

/** A process's memory over `ms` of load: sampled every second for the peak, read once at the end. */
export async function watchRss(pid: number, ms: number): Promise<{ peak: Rss; after: Rss; seconds: number }> {
  const started = performance.now();
  let peak = rssOf(pid);
  for (let t = 0; t < ms; t += 1000) {
    await sleep(1000);
    const now = rssOf(pid);
    if (now.rss > peak.rss) peak = now;
  }
  return { peak, after: rssOf(pid), seconds: (performance.now() - started) / 1000 };
}

/**
 * Bytes a process caused to be written to storage (/proc/<pid>/io write_bytes): its worker threads
 * included, counted when a page of the file cache is first dirtied, so WAL frames and checkpoints
 * both count, a page rewritten before the kernel wrote it back once.
 */
export function writeBytesOf(pid: number): number {
  return Number(/^write_bytes: (\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? Number.NaN);
}

export function mb(bytes: number): string {
  return (bytes / MB).toFixed(1);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** `12,345` */
export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export interface SchedSample {
  /** performance.now() when read. */
  at: number;
  /** Nanoseconds the thread ran on a CPU and waited for one (runnable, not running). */
  runNs: number;
  waitNs: number;
}

/** The scheduler's account of a process's main thread (/proc/<pid>/task/<pid>/schedstat). */
export function schedOf(pid: number): SchedSample {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(/\s+/);
  return { at: performance.now(), runNs: Number(run), waitNs: Number(wait) };
}

/**
 * Where a main thread's wall time went between two samples: running, waiting for a CPU (other
 * processes had them: the machine's load), and neither (idle, or blocked in a system call).
 */
export function schedShares(from: SchedSample, to: SchedSample): { running: number; waiting: number; idle: number } {
  const wallNs = (to.at - from.at) * 1e6;
  const running = (to.runNs - from.runNs) / wallNs;
  const waiting = (to.waitNs - from.waitNs) / wallNs;
  return { running, waiting, idle: Math.max(0, 1 - running - waiting) };
}

export function schedNote(s: { running: number; waiting: number; idle: number }): string {
  const pct = (x: number): string => `${(x * 100).toFixed(0)} %`;
  return `main thread running ${pct(s.running)}, waiting for a CPU ${pct(s.waiting)}, idle or blocked ${pct(s.idle)}`;
}
