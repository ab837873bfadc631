/**
 * What a device message does once its topic (MQTT) or route (HTTP) is known: parse, check and hand
 * it to storage, or announce it. Both transports call these, so they accept and refuse alike.
 */
import type { AttributesAnswer } from '../../contract/device-api.ts';
import type { Device } from '../../contract/device.ts';
import type { DeviceType } from '../../contract/product.ts';
import type { Announce } from '../../lib/event-bus.ts';
import type { RequestedKeys, SharedAttributeService } from '../telemetry/shared-attribute-service.ts';
import type { TelemetryService } from '../telemetry/telemetry-service.ts';
import type { Committed } from '../telemetry/telemetry-writer.ts';
import { attributeValues, eventValues, isObject, keyList, parseJson, PayloadRefusal, telemetryValues } from '../../lib/device-payload.ts';

/** The device behind a connection or token, as the transport needs it. */
export interface ConnectedDevice {
  id: string;
  name: string;
  deviceProfileId: string;
  deviceType: DeviceType;
  gatewayId: string | null;
}

export function connectedDeviceOf(d: Device): ConnectedDevice {
  return { id: d.id, name: d.name, deviceProfileId: d.deviceProfileId, deviceType: d.deviceType, gatewayId: d.gatewayId };
}

/** One side of an MQTT attribute request: absent → null; `"a,b"` or `["a","b"]` → the names. */
function requestedKeys(value: unknown): RequestedKeys {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return keyList(value) ?? [];
  if (Array.isArray(value) && value.every((k) => typeof k === 'string')) return value.map((k: string) => k.trim()).filter(Boolean);
  throw new PayloadRefusal('error.transport.payloadShape');
}

export class DeviceMessages {
  constructor(
    private readonly telemetry: TelemetryService,
    private readonly announceEvent: Announce,
    private readonly attributes: Pick<SharedAttributeService, 'request'>,
  ) {}

  /** Resolves once stored; throws PayloadRefusal for input it refuses. */
  telemetryMessage(device: ConnectedDevice, payload: Buffer): Promise<void> {
    return this.telemetry.telemetry(device, telemetryValues(parseJson(payload), Date.now()), payload.length);
  }

  /** As telemetryMessage, with a callback instead of a promise (the MQTT hot path). */
  storeTelemetry(device: ConnectedDevice, payload: Buffer, done: Committed): void {
    this.telemetry.storeTelemetry(device, telemetryValues(parseJson(payload), Date.now()), payload.length, done);
  }

  attributesMessage(device: ConnectedDevice, payload: Buffer): Promise<void> {
    return this.telemetry.attributes(device, attributeValues(parseJson(payload), Date.now()), payload.length);
  }

  eventsMessage(device: ConnectedDevice, payload: Buffer): Promise<void> {
    return this.telemetry.events(device, eventValues(parseJson(payload), Date.now()), payload.length);
  }

  /** A device's answer to a server RPC: JSON when it parses, else the text as sent; too large or too deep is refused. */
  rpcResponse(deviceId: string, requestId: number, payload: Buffer): void {
    let answer: unknown;
    try {
      answer = parseJson(payload);
    } catch (err) {
      if (err instanceof PayloadRefusal && err.key !== 'error.transport.malformedJson') throw err;
      answer = payload.toString('utf8');
    }
    this.announce(deviceId, payload.length);
    this.rpcAnswer(deviceId, requestId, answer);
  }

  rpcAnswer(deviceId: string, requestId: number, payload: unknown): void {
    this.announceEvent('device.rpcResponse', { deviceId, requestId, payload });
  }

  /** The device acknowledged server RPC `requestId` (MQTT PUBACK, or the HTTP poll that took it). */
  rpcDelivered(deviceId: string, requestId: number): void {
    this.announceEvent('device.rpcDelivered', { deviceId, requestId });
  }

  /**
   * `{ clientKeys?: "a,b", sharedKeys?: "c" }` → `{ client?, shared? }`, filtered as ThingsBoard
   * does (shared-attribute-service.ts). A side named, even blank, counts as asked for, as
   * ThingsBoard's MQTT adaptor reads it.
   */
  attributesRequest(device: ConnectedDevice, payload: Buffer): AttributesAnswer {
    const json = payload.length === 0 ? {} : parseJson(payload);
    if (!isObject(json)) throw new PayloadRefusal('error.transport.payloadShape');
    this.announce(device.id, payload.length);
    return this.attributes.request(device.id, requestedKeys(json.clientKeys), requestedKeys(json.sharedKeys));
  }

  /** A message that stores nothing still counts in the message volume. */
  announce(deviceId: string, bytes: number): void {
    this.announceEvent('message.received', { deviceId, ts: Date.now(), bytes });
  }
}
