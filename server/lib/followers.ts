/**
 * Live subscriptions indexed by what they follow (a device id, a user id, or one key for all), so
 * an event reaches only the subscriptions of its key: a stored telemetry batch goes to the
 * sockets following that device, not to every socket. One follower's failure is logged and does
 * not keep the event from the others.
 */
export class Followers<F> {
  private readonly byKey = new Map<string, Set<F>>();

  constructor(private readonly log: { error(obj: object, msg: string): void }) {}

  /** Follows `keys` until the returned function is called. */
  add(keys: Iterable<string>, follower: F): () => void {
    const list = [...keys];
    for (const key of list) {
      const set = this.byKey.get(key) ?? new Set<F>();
      set.add(follower);
      this.byKey.set(key, set);
    }
    return () => {
      for (const key of list) {
        const set = this.byKey.get(key);
        set?.delete(follower);
        if (set?.size === 0) this.byKey.delete(key);
      }
    };
  }

  /** Calls `fn` for each follower of `key` (a copy: a follower may unsubscribe meanwhile). */
  each(key: string, fn: (follower: F) => void): void {
    const set = this.byKey.get(key);
    if (!set) return;
    for (const follower of [...set]) {
      try {
        fn(follower);
      } catch (err) {
        this.log.error({ err, key }, 'live update failed');
      }
    }
  }

  /** How many keys are followed: what a leak would make grow. */
  get keys(): number {
    return this.byKey.size;
  }
}

/** The one key of followers that follow everything of their kind (every alarm, the cloud link's state). */
export const ALL = '*';
