/**
 * Server RPCs for devices on the HTTP device API: kept until the device polls
 * (`GET /api/v1/{token}/rpc`), or handed straight to a poll already waiting. Emptied when the device
 * goes OFFLINE: a command to an absent device is the command module's timeout to report.
 */
import type { RpcRequest } from '../../contract/device-api.ts';

/** Requests kept per device; older ones give way (the command module times them out). */
const QUEUE_MAX = 100;

export class RpcMailbox {
  private readonly queues = new Map<string, RpcRequest[]>();
  private readonly waiters = new Map<string, ((request: RpcRequest | null) => void)[]>();

  deliver(deviceId: string, request: RpcRequest): void {
    const waiting = this.waiters.get(deviceId);
    const waiter = waiting?.shift();
    if (waiting?.length === 0) this.waiters.delete(deviceId);
    if (waiter) {
      waiter(request);
      return;
    }
    const queue = this.queues.get(deviceId) ?? [];
    queue.push(request);
    if (queue.length > QUEUE_MAX) queue.shift();
    this.queues.set(deviceId, queue);
  }

  /** The next request for `deviceId`, or null when none came within `timeoutMs` or the poll was abandoned. */
  poll(deviceId: string, timeoutMs: number, abandoned: AbortSignal): Promise<RpcRequest | null> {
    const queue = this.queues.get(deviceId);
    const next = queue?.shift();
    if (queue?.length === 0) this.queues.delete(deviceId);
    if (next) return Promise.resolve(next);
    return new Promise((resolve) => {
      const finish = (request: RpcRequest | null): void => {
        clearTimeout(timer);
        abandoned.removeEventListener('abort', onAbort);
        const list = this.waiters.get(deviceId);
        const at = list?.indexOf(waiter) ?? -1;
        if (list && at >= 0) list.splice(at, 1);
        if (list?.length === 0) this.waiters.delete(deviceId);
        resolve(request);
      };
      const waiter = (request: RpcRequest | null): void => finish(request);
      const onAbort = (): void => finish(null);
      const timer = setTimeout(() => finish(null), timeoutMs);
      abandoned.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(deviceId, [...(this.waiters.get(deviceId) ?? []), waiter]);
    });
  }

  /** Drops the requests kept for a device that went OFFLINE or was deleted. */
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
