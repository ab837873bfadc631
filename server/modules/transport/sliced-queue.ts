/**
 * Work handed out a slice per turn of the event loop. A socket's data is handled in the loop's poll
 * phase, and one poll phase handles every socket that became readable meanwhile: when a whole site
 * reconnects after a restart that is thousands of CONNECTs, and a console request read in the same
 * phase waited for all of them (450 ms in the reconnect storm of scripts/lib/bench-scale.ts). Items
 * queued here are handled in `setImmediate` callbacks instead, each taking at most `sliceMax`
 * items or `sliceMs` of the thread, so that the sockets (and HTTP requests) that became readable
 * meanwhile are read between two slices. Items keep their order.
 */
export class SlicedQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  private scheduled = false;

  constructor(
    private readonly handle: (item: T) => void,
    private readonly sliceMax: number,
    private readonly sliceMs: number,
  ) {}

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  }

  /** Forgets what waits (a shutdown): nothing more is handled. */
  clear(): void {
    this.items = [];
    this.head = 0;
  }

  private readonly drain = (): void => {
    const until = performance.now() + this.sliceMs;
    let handled = 0;
    // `handle` must not throw (a throw here, on its own turn, would end the process).
    while (this.head < this.items.length && handled < this.sliceMax && (handled === 0 || performance.now() < until)) {
      const item = this.items[this.head] as T;
      this.items[this.head++] = undefined;
      handled++;
      this.handle(item);
    }
    if (this.head === this.items.length) {
      this.clear();
      this.scheduled = false;
      return;
    }
    // The handled part of the array is dropped now and then rather than shifted item by item.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    setImmediate(this.drain);
  };
}
