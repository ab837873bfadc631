/**
 * Stores the connection states the transport announces (`device.stateChanged`), many per
 * transaction: when a whole site reconnects after a restart, thousands of devices come ONLINE
 * within seconds, and one committed UPDATE each (an fsync of the WAL each, on the event loop's
 * thread) held every CONNACK behind the disk: 10,000 devices needed over 30 s and many gave up
 * (scripts/lib/bench-scale.ts). The changes of one turn of the event loop are written together at
 * its end, before the next socket is read, so a client that saw its CONNACK then sees the row.
 * Their commits are not synced (`unsynced`): the states are rebuilt at every start (all OFFLINE,
 * then each device as it connects), and an fsync per turn, on the loop's thread, held the
 * console's requests for up to 170 ms on a busy disk during a reconnect storm.
 */
import { unsynced, type Db } from '../../db/sqlite.ts';

interface Pending {
  state: 'ONLINE' | 'OFFLINE';
  online: number | null;
  offline: number | null;
}

export class DeviceStateWriter {
  private pending = new Map<string, Pending>();
  private scheduled = false;
  private closed = false;
  private readonly online;
  private readonly offline;

  /** `failed` hears of a batch that could not be written (a full disk): it is dropped, not retried. */
  constructor(
    private readonly db: Db,
    private readonly failed: (err: unknown, devices: number) => void,
  ) {
    this.online = db.prepare("UPDATE device SET device_state = 'ONLINE', last_online_time = ? WHERE id = ?");
    this.offline = db.prepare("UPDATE device SET device_state = 'OFFLINE', last_offline_time = ? WHERE id = ?");
  }

  /** Queues the change; both times survive a flip and back within one turn. */
  set(deviceId: string, state: 'ONLINE' | 'OFFLINE', ts: number): void {
    if (this.closed) return;
    const p = this.pending.get(deviceId) ?? { state, online: null, offline: null };
    p.state = state;
    if (state === 'ONLINE') p.online = ts;
    else p.offline = ts;
    this.pending.set(deviceId, p);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes what is queued, in one transaction. */
  flush(): void {
    this.scheduled = false;
    if (this.pending.size === 0 || this.closed) return;
    const batch = this.pending;
    this.pending = new Map();
    // Runs on its own turn of the event loop: a throw here would end the process. A state that
    // cannot be stored is not worth a retry loop; the next change of the device writes it again.
    try {
      this.write(batch);
    } catch (err) {
      this.failed(err, batch.size);
    }
  }

  private write(batch: ReadonlyMap<string, Pending>): void {
    unsynced(this.db, () => {
      for (const [id, p] of batch) {
        // The last state last, so the row ends in it; the other time is kept as well.
        if (p.state === 'ONLINE') {
          if (p.offline !== null) this.offline.run(p.offline, id);
          this.online.run(p.online, id);
        } else {
          if (p.online !== null) this.online.run(p.online, id);
          this.offline.run(p.offline, id);
        }
      }
    });
  }

  /** Writes what is left (the modules after this one, the transport among them, have closed). */
  close(): void {
    this.flush();
    this.closed = true;
  }
}
