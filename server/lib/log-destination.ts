/**
 * Where the gateway's log lines go: a file descriptor (stdout, often a file on the data disk)
 * written so that the log can never stop or kill the process. pino's default destination retries
 * a failed write in a loop on the main thread and emits an `error` nobody listens to; on a full
 * disk that froze every port and then exited the process. Here a line that cannot be written is
 * dropped and counted, and the first line that can be written again is preceded by one saying how
 * many were dropped. A descriptor that is merely busy (a full pipe: EAGAIN) keeps a bounded
 * backlog that a timer retries, so a slow reader of the pipe loses nothing short of the bound.
 */
import { writeSync } from 'node:fs';
import { hostname } from 'node:os';

export interface LogDestinationOptions {
  fd: number;
  /** Bytes kept while the descriptor is busy; beyond them lines are dropped and counted. */
  backlogMaxBytes?: number;
  /** How long to wait before retrying a busy descriptor. */
  retryMs?: number;
}

const BACKLOG_MAX_BYTES = 1024 * 1024;
const RETRY_MS = 50;
/** pino's number for `warn`, so the notice reads like every other line of the log. */
const WARN = 40;

/** The part of a stream pino needs. */
export interface LogDestination {
  write(line: string): void;
  flushSync(): void;
  /** Lines dropped since the last notice (tests and the notice read it). */
  readonly dropped: number;
}

class DroppingDestination implements LogDestination {
  dropped = 0;
  /** A failed write left half a line in the file: the next write starts a fresh line. */
  private brokenLine = false;
  private backlog: string[] = [];
  private backlogBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly fd: number;
  private readonly backlogMaxBytes: number;
  private readonly retryMs: number;

  constructor(options: LogDestinationOptions) {
    this.fd = options.fd;
    this.backlogMaxBytes = options.backlogMaxBytes ?? BACKLOG_MAX_BYTES;
    this.retryMs = options.retryMs ?? RETRY_MS;
  }

  write(line: string): void {
    if (this.backlog.length > 0) {
      this.enqueue(line);
      return;
    }
    const result = this.tryWrite(line);
    if (result === 'busy') this.enqueue(line);
    else if (result === 'failed') this.dropped++;
  }

  flushSync(): void {
    this.drain();
  }

  private enqueue(line: string): void {
    if (this.backlogBytes + line.length > this.backlogMaxBytes) {
      this.dropped++;
      return;
    }
    this.backlog.push(line);
    this.backlogBytes += line.length;
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.drain();
    }, this.retryMs);
    this.timer.unref();
  }

  private drain(): void {
    while (this.backlog.length > 0) {
      const line = this.backlog[0]!;
      const result = this.tryWrite(line);
      if (result === 'busy') {
        this.scheduleRetry();
        return;
      }
      if (result === 'failed') this.dropped++;
      this.backlog.shift();
      this.backlogBytes -= line.length;
    }
  }

  /** One line, preceded by the notice of dropped lines when there are some. */
  private tryWrite(line: string): 'written' | 'busy' | 'failed' {
    if (this.dropped > 0 || this.brokenLine) {
      const notice = (this.brokenLine ? '\n' : '') + droppedNotice(this.dropped);
      const result = this.writeWhole(notice);
      if (result !== 'written') return result;
      this.dropped = 0;
    }
    return this.writeWhole(line);
  }

  private writeWhole(text: string): 'written' | 'busy' | 'failed' {
    let buf = Buffer.from(text);
    while (buf.length > 0) {
      let n: number;
      try {
        n = writeSync(this.fd, buf);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // Nothing of this text reached the file yet: busy means "try again later".
        if ((code === 'EAGAIN' || code === 'EBUSY') && buf.length === Buffer.byteLength(text)) return 'busy';
        if (buf.length !== Buffer.byteLength(text)) this.brokenLine = true;
        return 'failed';
      }
      buf = buf.subarray(n);
      this.brokenLine = buf.length > 0;
    }
    return 'written';
  }
}

function droppedNotice(count: number): string {
  return `${JSON.stringify({
    level: WARN,
    time: Date.now(),
    pid: process.pid,
    hostname: hostname(),
    droppedLines: count,
    msg: `dropped ${count} log lines: the log could not be written (disk full or output unavailable)`,
  })}\n`;
}

/** A destination for pino that drops (and counts) lines it cannot write instead of blocking or throwing. */
export function droppingLogDestination(options: LogDestinationOptions): LogDestination {
  return new DroppingDestination(options);
}
