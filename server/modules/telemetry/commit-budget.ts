/**
 * The telemetry writer's commit budget (telemetry-writer.ts, `commitIntervalMs`): a token bucket
 * holding up to `burst` commits, refilled with one every `intervalMs`. A device reporting alone
 * and slower than the refill always finds a token and is committed at once; a fleet drains the
 * bucket and its messages then share one commit per interval.
 */
export class CommitBudget {
  private tokens: number;
  private at = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** 0 when a commit may start now (its token is spent), else the ms until one may. */
  take(now: number): number {
    if (this.intervalMs <= 0) return 0;
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - this.tokens) * this.intervalMs));
  }

  /** A commit that starts whatever the budget (a full batch, a timer's) spends a token if there is one. */
  spend(now: number): void {
    if (this.intervalMs <= 0) return;
    this.refill(now);
    this.tokens = Math.max(0, this.tokens - 1);
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.burst, this.tokens + (now - this.at) / this.intervalMs);
    this.at = now;
  }
}
