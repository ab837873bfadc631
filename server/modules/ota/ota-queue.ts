/**
 * The rate limit on notifying devices of a firmware, as ThingsBoard's OTA queue (100 devices per
 * minute by default): queued devices are notified oldest first, at most `perMinute()` within any
 * 60 s window; the rest stay QUEUED (and show so) until the window has room. Checked every tick
 * and right after an assignment.
 */
const WINDOW_MS = 60_000;

export interface OtaQueueDeps {
  perMinute: () => number;
  /** The oldest `limit` queued devices. */
  queued: (limit: number) => { deviceId: string; packageId: string }[];
  notify: (device: { deviceId: string; packageId: string }) => void;
  tickMs: number;
}

export class OtaQueue {
  /** When each device of the last minute was notified. */
  private sent: number[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: OtaQueueDeps) {}

  start(): void {
    this.timer ??= setInterval(() => this.tick(), this.deps.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  tick(now = Date.now()): void {
    this.sent = this.sent.filter((t) => now - t < WINDOW_MS);
    const room = this.deps.perMinute() - this.sent.length;
    if (room <= 0) return;
    for (const device of this.deps.queued(room)) {
      this.sent.push(now);
      this.deps.notify(device);
    }
  }
}
