/**
 * The publishes one connection has in flight, in arrival order, so that their acknowledgements
 * leave in that order (MQTT 4.6: a client may rely on it) although they settle out of order (a
 * telemetry batch commit and an attribute request finish when they finish), and so that the
 * connection can count them for back-pressure (MQTT_INFLIGHT_MAX). QoS 0 publishes hold a place
 * too, with nothing to send: a flood of them meets the same limit.
 *
 * Parallel arrays instead of an object per message: this runs for every device message.
 */

/** No acknowledgement (QoS 0). */
export const NO_ACK = 0;
/** Not settled yet. */
const PENDING = -1;

export class AckQueue {
  /** Sequence number of the entry at index 0. */
  private base = 0;
  private readonly types: number[] = [];
  private readonly ids: number[] = [];
  private readonly reasons: number[] = [];

  /** Entries not yet sent: the in-flight count. */
  get size(): number {
    return this.types.length;
  }

  /** A publish arrived; its acknowledgement (`type`: PUBACK, PUBREC or NO_ACK) waits for `settle(seq)`. */
  push(type: number, messageId: number): number {
    this.types.push(type);
    this.ids.push(messageId);
    this.reasons.push(PENDING);
    return this.base + this.types.length - 1;
  }

  /**
   * Entry `seq` is done with `reason`; hands every acknowledgement now due, oldest first, to
   * `send`. A sequence number from before `clear` is ignored.
   */
  settle(seq: number, reason: number, send: (type: number, messageId: number, reason: number) => void): void {
    const at = seq - this.base;
    if (at < 0 || at >= this.reasons.length) return;
    this.reasons[at] = reason;
    while (this.reasons.length > 0 && this.reasons[0]! !== PENDING) {
      const type = this.types.shift()!;
      const id = this.ids.shift()!;
      const r = this.reasons.shift()!;
      this.base += 1;
      if (type !== NO_ACK) send(type, id, r);
    }
  }

  /** The connection is gone: nothing more is sent. */
  clear(): void {
    this.base += this.types.length;
    this.types.length = 0;
    this.ids.length = 0;
    this.reasons.length = 0;
  }
}
