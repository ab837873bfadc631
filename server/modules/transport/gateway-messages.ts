/**
 * ThingsBoard's gateway API (server/contract/device-api.ts): a GATEWAY speaks for its SENSOR
 * sub-devices, named in each message. A name no device has is a new sub-device, created as
 * ThingsBoard does (connect, telemetry and attributes; DeviceService.subDeviceNamed). Only sensors
 * attached to that gateway are served: another device's name, or a creation refused (the licence's
 * device limit, a bad name), is refused for its entry, counted and logged, while the rest of the
 * message is still stored.
 */
import { AppError } from '../../lib/app-error.ts';
import type { DeviceService } from '../device/device-service.ts';
import type { GatewayAttributesRequest } from '../../contract/device-api.ts';
import type { SharedAttributeService } from '../telemetry/shared-attribute-service.ts';
import type { AttributeRow } from '../telemetry/telemetry-rows.ts';
import type { TelemetryService } from '../telemetry/telemetry-service.ts';
import { connectedDeviceOf, type ConnectedDevice, type DeviceMessages } from './device-messages.ts';
import { attributeValues, isObject, parseJson, PayloadRefusal, telemetryValues } from '../../lib/device-payload.ts';
import type { DeviceStateTracker } from './device-state.ts';

export interface GatewayMessagesDeps {
  devices: Pick<DeviceService, 'get' | 'refs' | 'subDeviceNamed'>;
  telemetry: TelemetryService;
  state: DeviceStateTracker;
  messages: DeviceMessages;
  attributes: Pick<SharedAttributeService, 'side'>;
  /** Told about each sub-device entry refused, while the others go on. */
  refused: (gateway: ConnectedDevice, name: string, refusal: PayloadRefusal) => void;
}

/** The product a sub-device gets when the gateway names no `type` (ThingsBoard's default device type). */
export const GATEWAY_DEFAULT_DEVICE_TYPE = 'default';

export class GatewayMessages {
  /** Sub-devices by name; cleared whenever a device is created, changed or deleted. */
  private readonly byName = new Map<string, ConnectedDevice | null>();

  constructor(private readonly deps: GatewayMessagesDeps) {}

  forgetDevices(): void {
    this.byName.clear();
  }

  /** `{ device: "name", type? }`: the sub-device (created when new) is ONLINE through this gateway. */
  connect(gateway: ConnectedDevice, payload: Buffer): void {
    const json = this.deviceMessage(payload);
    const type = typeof json.type === 'string' ? json.type : GATEWAY_DEFAULT_DEVICE_TYPE;
    const sub = this.subDevice(gateway, json.device, type);
    this.deps.state.gatewayConnected(sub.id, gateway.id);
    this.deps.messages.announce(sub.id, payload.length);
  }

  disconnect(gateway: ConnectedDevice, payload: Buffer): void {
    const sub = this.subDevice(gateway, this.deviceMessage(payload).device);
    if (this.deps.state.gatewayOf(sub.id) === gateway.id) this.deps.state.gatewayDisconnected(sub.id);
    this.deps.messages.announce(sub.id, payload.length);
  }

  /** `{ "name": [ { ts, values } | {k:v} ] }`; a sub-device that reports is connected implicitly. */
  telemetry(gateway: ConnectedDevice, payload: Buffer): Promise<void> {
    return this.perDevice(gateway, payload, (sub, items, now, bytes) =>
      this.deps.telemetry.telemetry(sub, telemetryValues(items, now), bytes),
    );
  }

  /** `{ "name": { k: v } }`. */
  attributes(gateway: ConnectedDevice, payload: Buffer): Promise<void> {
    return this.perDevice(gateway, payload, (sub, items, now, bytes) =>
      this.deps.telemetry.attributes(sub, attributeValues(items, now), bytes),
    );
  }

  /** `{ device, id, data }`: a sub-device's answer to a server RPC. */
  rpc(gateway: ConnectedDevice, payload: Buffer): void {
    const json = parseJson(payload);
    if (!isObject(json) || typeof json.device !== 'string' || typeof json.id !== 'number' || !Number.isSafeInteger(json.id)) {
      throw new PayloadRefusal('error.transport.payloadShape');
    }
    const sub = this.subDevice(gateway, json.device);
    this.deps.messages.announce(sub.id, payload.length);
    this.deps.messages.rpcAnswer(sub.id, json.id, json.data ?? null);
  }

  /**
   * `{ id, device, client, key | keys }` → `{ id, device, value | values }` for
   * `v1/gateway/attributes/response`, as ThingsBoard's gateway session answers: `client` picks the
   * scope the keys are read from, one value when one key was asked for, `values` otherwise, and
   * neither when nothing was found. The sub-device counts as connected, as when it reports.
   */
  attributesRequest(gateway: ConnectedDevice, payload: Buffer): Record<string, unknown> {
    const request = gatewayAttributesRequest(parseJson(payload));
    const sub = this.subDevice(gateway, request.device);
    if (this.deps.state.gatewayOf(sub.id) !== gateway.id) this.deps.state.gatewayConnected(sub.id, gateway.id);
    this.deps.messages.announce(sub.id, payload.length);
    const keys = [...new Set(request.key !== undefined ? [request.key] : (request.keys ?? []))];
    const { attributes } = this.deps;
    const named = keys.length ? keys : null;
    // No key named: ThingsBoard answers every client and shared attribute.
    const client = request.client || !named ? attributes.side(sub.id, 'CLIENT_SCOPE', named) : [];
    const shared = !request.client || !named ? attributes.side(sub.id, 'SHARED_SCOPE', named) : [];
    const answer: Record<string, unknown> = { id: request.id, device: request.device };
    for (const rows of [client, shared]) addValues(answer, rows, keys.length > 1);
    return answer;
  }

  private async perDevice(
    gateway: ConnectedDevice,
    payload: Buffer,
    store: (sub: ConnectedDevice, items: unknown, now: number, bytes: number) => Promise<void>,
  ): Promise<void> {
    const json = parseJson(payload);
    if (!isObject(json)) throw new PayloadRefusal('error.transport.payloadShape');
    const entries = Object.entries(json);
    if (entries.length === 0) throw new PayloadRefusal('error.transport.empty');
    const now = Date.now();
    const bytes = Math.ceil(payload.length / entries.length);
    const stored: Promise<void>[] = [];
    for (const [name, items] of entries) {
      try {
        const sub = this.subDevice(gateway, name, GATEWAY_DEFAULT_DEVICE_TYPE);
        stored.push(store(sub, items, now, bytes));
        if (this.deps.state.gatewayOf(sub.id) !== gateway.id) this.deps.state.gatewayConnected(sub.id, gateway.id);
      } catch (err) {
        if (!(err instanceof PayloadRefusal)) throw err;
        this.deps.refused(gateway, name, err);
      }
    }
    await Promise.all(stored);
  }

  private deviceMessage(payload: Buffer): Record<string, unknown> & { device: string } {
    const json = parseJson(payload);
    if (!isObject(json) || typeof json.device !== 'string') throw new PayloadRefusal('error.transport.payloadShape');
    return json as Record<string, unknown> & { device: string };
  }

  /**
   * The SENSOR named `name` attached to `gateway`, or the refusal saying why not. With `createAs`,
   * a name no device has becomes a new sub-device with the product named `createAs`.
   */
  private subDevice(gateway: ConnectedDevice, name: string, createAs?: string): ConnectedDevice {
    if (!this.byName.has(name)) {
      const id = this.deps.devices.refs().nameOwner(name);
      this.byName.set(name, id ? connectedDeviceOf(this.deps.devices.get(id)) : null);
    }
    // A miss is looked up again before creating: the cache may be older than a device just made.
    const sub = this.byName.get(name) ?? (createAs === undefined ? null : this.created(gateway, name, createAs));
    if (!sub) throw new PayloadRefusal('error.transport.gatewayUnknownDevice', { name });
    if (sub.deviceType !== 'SENSOR' || sub.gatewayId !== gateway.id) throw new PayloadRefusal('error.transport.gatewayForeignDevice', { name });
    return sub;
  }

  /** DeviceService.subDeviceNamed, its refusals (licence, names, product) as this entry's. */
  private created(gateway: ConnectedDevice, name: string, type: string): ConnectedDevice {
    try {
      const sub = connectedDeviceOf(this.deps.devices.subDeviceNamed(gateway.id, name, type));
      this.byName.set(name, sub);
      return sub;
    } catch (err) {
      if (err instanceof AppError) throw new PayloadRefusal(err.key, { ...err.params, name, type });
      throw err;
    }
  }
}

function gatewayAttributesRequest(json: unknown): GatewayAttributesRequest {
  if (!isObject(json)) throw new PayloadRefusal('error.transport.payloadShape');
  const { id, device, client, key, keys } = json;
  const keysOk = key !== undefined ? typeof key === 'string' : Array.isArray(keys) && keys.every((k) => typeof k === 'string');
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || typeof device !== 'string' || typeof client !== 'boolean' || !keysOk) {
    throw new PayloadRefusal('error.transport.payloadShape');
  }
  return key !== undefined ? { id, device, client, key: key as string } : { id, device, client, keys: keys as string[] };
}

/** ThingsBoard's JsonConverter.addValues: a lone value of a one-key request as `value`, else into `values`. */
function addValues(answer: Record<string, unknown>, rows: readonly AttributeRow[], multiple: boolean): void {
  if (!rows.length) return;
  if (rows.length === 1 && !multiple) {
    answer.value = rows[0]!.value;
    return;
  }
  const values = (answer.values ??= {}) as Record<string, unknown>;
  for (const r of rows) values[r.key] = r.value;
}
