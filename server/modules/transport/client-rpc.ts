/**
 * Client-side RPC (server/contract/device-api.ts): a device calls `{ method, params }` and waits for
 * one answer, over MQTT or HTTP alike. `getSessionLimits` is answered here, as ThingsBoard's MQTT
 * transport answers it (its SDK asks on every connect and tunes its queues from the answer), and so
 * is `getCurrentTime`. Any other method is announced as `device.clientRpc`, for whoever serves it
 * (a rule engine) to answer through `answer`; a call nobody answers expires after the timeout.
 */
import { Compile } from 'typebox/compile';
import {
  CLIENT_RPC_PENDING_MAX,
  ClientRpcRequestSchema,
  clientRpcMethods,
  DEVICE_PAYLOAD_MAX_BYTES,
  MQTT_INFLIGHT_MAX,
  type ClientRpcRequest,
  type SessionLimits,
} from '../../contract/device-api.ts';
import type { DeviceType } from '../../contract/product.ts';
import type { Announce } from '../../lib/event-bus.ts';
import { parseJson, PayloadRefusal } from '../../lib/device-payload.ts';
import type { ConnectedDevice, DeviceMessages } from './device-messages.ts';

const requestOutline = Compile(ClientRpcRequestSchema);

/** `{ method, params? }` from a call's bytes, or the refusal saying why not. */
export function clientRpcRequest(payload: Buffer): ClientRpcRequest {
  const json = parseJson(payload);
  if (!requestOutline.Check(json)) throw new PayloadRefusal('error.transport.badRpc');
  return json;
}

/** No rate limit applies on this gateway: null is what ThingsBoard answers when none is configured. */
const noRateLimits = { messages: null, telemetryMessages: null, telemetryDataPoints: null };

/**
 * The limits this gateway really applies to a device's session. The SDK splits messages to fit
 * `maxPayloadSize` and keeps at most `maxInflightMessages` unacknowledged; a GATEWAY's answer also
 * has `gatewayRateLimits`, which ThingsBoard's gateway SDK expects to find.
 */
export function sessionLimits(deviceType: DeviceType): SessionLimits {
  const limits: SessionLimits = { maxPayloadSize: DEVICE_PAYLOAD_MAX_BYTES, maxInflightMessages: MQTT_INFLIGHT_MAX, rateLimits: noRateLimits };
  return deviceType === 'GATEWAY' ? { ...limits, gatewayRateLimits: noRateLimits } : limits;
}

/** How a call's caller hears back: its answer, or that none came in time. */
export interface ClientRpcCaller {
  answer: (body: unknown) => void;
  expired: () => void;
}

interface Pending extends ClientRpcCaller {
  deviceId: string;
  timer: NodeJS.Timeout;
}

export interface ClientRpcDeps {
  announce: Announce;
  messages: Pick<DeviceMessages, 'announce'>;
  timeoutMs: number;
}

export class ClientRpc {
  /**
   * Calls waiting for an answer, by the transport's own request number: the id in a device's topic
   * is chosen by the device (the SDK counts from 1 again on every connection), so two sessions of
   * one device, or one reconnecting, could present the same id for different calls.
   */
  private readonly pending = new Map<number, Pending>();
  private readonly waitingPerDevice = new Map<string, number>();
  private lastRequestId = 0;

  constructor(private readonly deps: ClientRpcDeps) {}

  /**
   * Answers or announces `device`'s call; throws PayloadRefusal for a call it refuses. Returns the
   * way to give the call up (the HTTP caller went away); a no-op once the call is answered.
   */
  call(device: ConnectedDevice, payload: Buffer, caller: ClientRpcCaller): () => void {
    const { method, params = null } = clientRpcRequest(payload);
    this.deps.messages.announce(device.id, payload.length);
    switch (method) {
      case clientRpcMethods.sessionLimits:
        caller.answer(sessionLimits(device.deviceType));
        return noop;
      case clientRpcMethods.currentTime:
        caller.answer({ time: Date.now() });
        return noop;
    }
    const waiting = this.waitingPerDevice.get(device.id) ?? 0;
    if (waiting >= CLIENT_RPC_PENDING_MAX) throw new PayloadRefusal('error.transport.rpcPending', { max: CLIENT_RPC_PENDING_MAX });
    // Wraps long before 2^53; a number still waiting after a wrap is 2^31 calls old and long expired.
    this.lastRequestId = this.lastRequestId >= 0x7fffffff ? 1 : this.lastRequestId + 1;
    const requestId = this.lastRequestId;
    const timer = setTimeout(() => this.settle(requestId)?.expired(), this.deps.timeoutMs);
    this.pending.set(requestId, { ...caller, deviceId: device.id, timer });
    this.waitingPerDevice.set(device.id, waiting + 1);
    this.deps.announce('device.clientRpc', { deviceId: device.id, requestId, method, params, ts: Date.now() });
    return () => void this.settle(requestId);
  }

  /** Answers call `requestId` of `deviceId` with `body`; false when no such call is waiting (answered, expired, another device's). */
  answer(deviceId: string, requestId: number, body: unknown): boolean {
    if (this.pending.get(requestId)?.deviceId !== deviceId) return false;
    this.settle(requestId)?.answer(body === undefined ? null : body);
    return true;
  }

  /** Ends the calls of a device that went away (OFFLINE, deleted): no answer can matter to it now. */
  drop(deviceId: string): void {
    if (!this.waitingPerDevice.has(deviceId)) return;
    for (const [requestId, call] of this.pending) if (call.deviceId === deviceId) this.settle(requestId)?.expired();
  }

  /** The app is closing: every waiting call is told it expired. */
  close(): void {
    for (const requestId of [...this.pending.keys()]) this.settle(requestId)?.expired();
  }

  /** Removes call `requestId` and hands it back to be answered once, or undefined when it is gone. */
  private settle(requestId: number): Pending | undefined {
    const call = this.pending.get(requestId);
    if (!call) return undefined;
    this.pending.delete(requestId);
    clearTimeout(call.timer);
    const waiting = (this.waitingPerDevice.get(call.deviceId) ?? 1) - 1;
    if (waiting > 0) this.waitingPerDevice.set(call.deviceId, waiting);
    else this.waitingPerDevice.delete(call.deviceId);
    return call;
  }
}

function noop(): void {}
