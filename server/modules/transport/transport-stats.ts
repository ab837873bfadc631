/**
 * Counters of device messages accepted and refused (by reason: an error key, or `topic`,
 * `subscription`, `authentication`, `frameTooLarge`), so a refused flood shows up somewhere besides
 * the log.
 */
export interface TransportStatsSnapshot {
  accepted: number;
  refused: Record<string, number>;
}

export class TransportStats {
  private accepted = 0;
  private readonly refused = new Map<string, number>();

  accept(): void {
    this.accepted += 1;
  }

  refuse(reason: string): void {
    this.refused.set(reason, (this.refused.get(reason) ?? 0) + 1);
  }

  snapshot(): TransportStatsSnapshot {
    return { accepted: this.accepted, refused: Object.fromEntries(this.refused) };
  }
}
