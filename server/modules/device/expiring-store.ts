/**
 * A small in-memory map whose entries expire and whose oldest entries make room for new ones:
 * parsed imports and generated batches live here, not in the database, because they only matter
 * for the minutes of one wizard.
 */
export class ExpiringStore<T> {
  private readonly entries = new Map<string, { value: T; expiresTime: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores `value` and returns when it expires. */
  set(id: string, value: T): number {
    this.sweep();
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const expiresTime = this.now() + this.ttlMs;
    this.entries.set(id, { value, expiresTime });
    return expiresTime;
  }

  get(id: string): T | undefined {
    this.sweep();
    return this.entries.get(id)?.value;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expiresTime <= now) this.entries.delete(id);
  }
}
