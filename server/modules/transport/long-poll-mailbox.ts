/**
 * What HTTP devices long-poll for (`GET /api/v1/{token}/rpc`, `…/attributes/updates`): an item for
 * a device goes to a poll already waiting, or is kept (up to `queueMax`) for the next poll.
 */

export class LongPollMailbox<T> {
  private readonly queues = new Map<string, T[]>();
  private readonly waiters = new Map<string, ((item: T | null) => void)[]>();

  /** @param queueMax items kept per device when no poll waits; older ones give way (0: none kept). */
  constructor(private readonly queueMax: number) {}

  /** To the oldest waiting poll, else into the device's queue. */
  deliver(deviceId: string, item: T): void {
    const waiter = this.waiters.get(deviceId)?.[0];
    if (waiter) {
      waiter(item);
      return;
    }
    if (this.queueMax === 0) return;
    const queue = this.queues.get(deviceId) ?? [];
    queue.push(item);
    if (queue.length > this.queueMax) queue.shift();
    this.queues.set(deviceId, queue);
  }

  /** To every poll waiting now; nothing is kept for later ones. */
  broadcast(deviceId: string, item: T): void {
    for (const waiter of [...(this.waiters.get(deviceId) ?? [])]) waiter(item);
  }

  /** The next item for `deviceId`, or null when none came within `timeoutMs` or the poll was abandoned. */
  poll(deviceId: string, timeoutMs: number, abandoned: AbortSignal): Promise<T | null> {
    const queue = this.queues.get(deviceId);
    const next = queue?.shift();
    if (queue?.length === 0) this.queues.delete(deviceId);
    if (next !== undefined) return Promise.resolve(next);
    return new Promise((resolve) => {
      const finish = (item: T | null): void => {
        clearTimeout(timer);
        abandoned.removeEventListener('abort', onAbort);
        const list = this.waiters.get(deviceId);
        const at = list?.indexOf(finish) ?? -1;
        if (list && at >= 0) list.splice(at, 1);
        if (list?.length === 0) this.waiters.delete(deviceId);
        resolve(item);
      };
      const onAbort = (): void => finish(null);
      const timer = setTimeout(() => finish(null), timeoutMs);
      abandoned.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(deviceId, [...(this.waiters.get(deviceId) ?? []), finish]);
    });
  }

  /** Drops what is kept for a device that went OFFLINE or was deleted. */
  drop(deviceId: string): void {
    this.queues.delete(deviceId);
  }

  /** Answers every waiting poll with nothing (the app is closing). */
  close(): void {
    for (const list of [...this.waiters.values()]) for (const waiter of [...list]) waiter(null);
    this.waiters.clear();
    this.queues.clear();
  }
}
