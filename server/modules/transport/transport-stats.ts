/**
 * Counters of device messages accepted and refused (by reason: an error key, or `topic`,
 * `subscription`, `authentication`, `frameTooLarge`), so a refused flood shows up somewhere besides
 * the log, and a throttle so that the log gets one line per device and reason a minute: a device
 * repeating a bad message many times a second must not fill a gateway's flash.
 */
export interface TransportStatsSnapshot {
  accepted: number;
  refused: Record<string, number>;
}

/** One log line per (reason, source) in this window; the rest are counted in the next line. */
export const REFUSAL_LOG_WINDOW_MS = 60_000;
/** Past this many remembered (reason, source) pairs, those quiet for a window are forgotten. */
const THROTTLE_PRUNE_AT = 10_000;

export class TransportStats {
  private accepted = 0;
  private readonly refused = new Map<string, number>();
  private readonly lastLogged = new Map<string, { at: number; suppressed: number }>();

  accept(): void {
    this.accepted += 1;
  }

  /**
   * Counts a refusal. Returns how many like it (same reason and source) went unlogged since the
   * last line when this one should be logged, or null while the window is still quiet.
   */
  refuse(reason: string, source = '', now = Date.now()): number | null {
    this.refused.set(reason, (this.refused.get(reason) ?? 0) + 1);
    const key = `${reason}|${source}`;
    const last = this.lastLogged.get(key);
    if (last && now - last.at < REFUSAL_LOG_WINDOW_MS) {
      last.suppressed += 1;
      return null;
    }
    if (this.lastLogged.size >= THROTTLE_PRUNE_AT) this.prune(now);
    this.lastLogged.set(key, { at: now, suppressed: 0 });
    return last?.suppressed ?? 0;
  }

  snapshot(): TransportStatsSnapshot {
    return { accepted: this.accepted, refused: Object.fromEntries(this.refused) };
  }

  private prune(now: number): void {
    for (const [key, { at }] of this.lastLogged) if (now - at >= REFUSAL_LOG_WINDOW_MS) this.lastLogged.delete(key);
  }
}
