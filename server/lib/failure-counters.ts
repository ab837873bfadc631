/**
 * In-memory failure counters: the password checks are throttled with them
 * (server/modules/auth/password-attempts.ts), and failed device provisioning per address
 * (server/modules/device/provisioning-service.ts). Both
 * bound their memory and both lift every block by themselves: nothing here can lock for good.
 */

/** Counts failures per key over a sliding window; past `limit` the key waits until the oldest ages out. */
export class FailureWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    /** Bounds memory when someone sprays many keys; evicting only forgets old failures. */
    private readonly maxKeys = 10_000,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may try now. */
  retryAfterMs(key: string, now: number): number {
    const list = this.live(key, now);
    if (list.length < this.limit) return 0;
    return list[list.length - this.limit]! + this.windowMs - now;
  }

  record(key: string, now: number): void {
    const list = this.live(key, now);
    list.push(now);
    // Only the newest `limit` entries decide the block, so older ones need not be kept.
    if (list.length > this.limit) list.splice(0, list.length - this.limit);
    this.hits.delete(key);
    this.hits.set(key, list);
    if (this.hits.size > this.maxKeys) this.hits.delete(this.hits.keys().next().value!);
  }

  /** Takes back one failure recorded at `at` (an attempt that turned out to succeed). */
  forgive(key: string, at: number): void {
    const list = this.hits.get(key);
    const i = list?.lastIndexOf(at) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  }

  private live(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length === 0) this.hits.delete(key);
    return list;
  }
}

export interface BackoffOptions {
  /** Failures tolerated before the first lock. */
  free: number;
  /** The first lock; each further failure doubles it. */
  firstLockMs: number;
  /** The longest lock: a key is never blocked for longer than this after its last failure. */
  maxLockMs: number;
  /** A key without a failure for this long starts afresh. */
  memoryMs: number;
  /** Bounds memory when someone sprays many keys; evicting only forgets old failures. */
  maxKeys?: number;
}

interface BackoffState {
  failures: number;
  lastFailure: number;
  lockedUntil: number;
}

/**
 * Counts failures per key; from the `free`-th on, each failure locks the key, twice as long as the
 * lock before (capped). A locked key cannot fail again (its attempts are refused before they are
 * counted), so every lock ends at most `maxLockMs` after the last failure.
 */
export class FailureBackoff {
  private readonly state = new Map<string, BackoffState>();

  constructor(private readonly opts: BackoffOptions) {}

  /** Milliseconds until `key` may try again; 0 when it may try now. */
  retryAfterMs(key: string, now: number): number {
    const s = this.current(key, now);
    return s ? Math.max(0, s.lockedUntil - now) : 0;
  }

  record(key: string, now: number): void {
    const s = this.current(key, now) ?? { failures: 0, lastFailure: now, lockedUntil: 0 };
    s.failures++;
    s.lastFailure = now;
    const over = s.failures - this.opts.free;
    // 2 ** over grows past any cap long before it loses precision; min() keeps the lock bounded.
    if (over >= 0) s.lockedUntil = now + Math.min(this.opts.maxLockMs, this.opts.firstLockMs * 2 ** Math.min(over, 30));
    // Re-inserted so the map's order is least recently failed first: eviction drops the stalest.
    this.state.delete(key);
    this.state.set(key, s);
    if (this.state.size > (this.opts.maxKeys ?? 10_000)) this.state.delete(this.state.keys().next().value!);
  }

  clear(key: string): void {
    this.state.delete(key);
  }

  private current(key: string, now: number): BackoffState | undefined {
    const s = this.state.get(key);
    if (s && now - s.lastFailure > this.opts.memoryMs && now >= s.lockedUntil) {
      this.state.delete(key);
      return undefined;
    }
    return s;
  }
}
