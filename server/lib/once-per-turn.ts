/**
 * Runs a function at most once per turn of the event loop however often it is requested in that
 * turn: live views recount or send once after a burst of changes (an import, a batch of alarms).
 */
export class OncePerTurn {
  private pending: NodeJS.Immediate | null = null;

  constructor(private readonly fn: () => void) {}

  request(): void {
    this.pending ??= setImmediate(() => {
      this.pending = null;
      this.fn();
    });
  }

  cancel(): void {
    if (this.pending) clearImmediate(this.pending);
    this.pending = null;
  }
}
