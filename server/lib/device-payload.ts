/**
 * Device messages as bytes → checked values, shared by MQTT and the HTTP device API so both refuse
 * the same input for the same reason (server/contract/device-api.ts). Pure: no storage, no clock
 * beyond the `now` given.
 */
import { DEVICE_JSON_DEPTH_MAX, DEVICE_PAYLOAD_MAX_BYTES } from '../contract/device-api.ts';
import { attributeKeyProblem } from '../contract/rules/attribute-key.ts';
import { eventTypes, type EventType } from '../contract/event-record.ts';
import type { ErrorKey } from '../contract/errors.ts';
import type { TelemetryValue } from '../contract/telemetry.ts';
import { nestsDeeperThan } from './json-depth.ts';

/** Why a message was refused: an error key (its text says it to an HTTP device, the log to MQTT). */
export class PayloadRefusal extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

export interface ParsedValue {
  ts: number;
  key: string;
  value: TelemetryValue;
  /** Set by telemetry when the value does not fit the published thing model. */
  flag?: string;
}

export interface ParsedEvent {
  ts: number;
  identifier: string;
  /** The type the device claimed, if it named a valid one. */
  eventType: EventType | null;
  params: Record<string, unknown>;
}

/** Longest event identifier accepted (the event list filters on at most this). */
export const EVENT_IDENTIFIER_MAX = 128;

type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON from a message body: at most 64 KB of valid UTF-8 JSON nesting at most DEVICE_JSON_DEPTH_MAX
 * levels. The depth is checked here, before any value is looked at, so that a message nested too
 * deep is refused on its own instead of failing later in a batch it shares with other devices.
 */
export function parseJson(payload: Buffer): unknown {
  if (payload.length > DEVICE_PAYLOAD_MAX_BYTES) throw new PayloadRefusal('error.transport.payloadTooLarge', { size: '64 KB' });
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    throw new PayloadRefusal('error.transport.malformedJson');
  }
  // Nesting past the limit takes two bytes a level: shorter messages need no walk.
  if (payload.length > 2 * DEVICE_JSON_DEPTH_MAX && nestsDeeperThan(json, DEVICE_JSON_DEPTH_MAX)) {
    throw new PayloadRefusal('error.transport.tooDeep', { max: DEVICE_JSON_DEPTH_MAX });
  }
  return json;
}

function checkKey(key: string): string {
  const found = attributeKeyProblem(key);
  if (found) throw new PayloadRefusal(found.key, found.params);
  return key;
}

function checkValue(key: string, value: unknown): TelemetryValue {
  if (value === null || value === undefined) throw new PayloadRefusal('error.transport.nullValue', { key });
  if (typeof value === 'number' && !Number.isFinite(value)) throw new PayloadRefusal('error.transport.nullValue', { key });
  return value as TelemetryValue;
}

/** Digits only: what ThingsBoard's JsonConverter reads from a string `ts` (Long.parseLong), less the sign. */
const TS_DIGITS = /^[0-9]{1,16}$/;

/**
 * A `ts` in epoch milliseconds: a JSON integer, or a string of digits as ThingsBoard also takes
 * (`{"ts":"1700000000000","values":{…}}`). The string branch is off the numeric path, which stays
 * one typeof test.
 */
function checkTs(ts: unknown): number {
  if (typeof ts === 'number') {
    if (!Number.isSafeInteger(ts) || ts < 0) throw new PayloadRefusal('error.transport.badTs');
    return ts;
  }
  if (typeof ts === 'string' && TS_DIGITS.test(ts)) {
    const n = Number(ts);
    if (Number.isSafeInteger(n)) return n;
  }
  throw new PayloadRefusal('error.transport.badTs');
}

function valuesOf(object: JsonObject, ts: number, out: ParsedValue[]): void {
  for (const key of Object.keys(object)) out.push({ ts, key: checkKey(key), value: checkValue(key, object[key]) });
}

/** One `{k:v}` or `{ts, values}` item. */
function telemetryItem(item: unknown, now: number, out: ParsedValue[]): void {
  if (!isObject(item)) throw new PayloadRefusal('error.transport.payloadShape');
  if ('ts' in item && 'values' in item) {
    if (!isObject(item.values)) throw new PayloadRefusal('error.transport.payloadShape');
    valuesOf(item.values, checkTs(item.ts), out);
  } else {
    valuesOf(item, now, out);
  }
}

/** Telemetry: `{k:v}`, `{ts, values:{k:v}}` or an array of them; values without ts take `now`. */
export function telemetryValues(json: unknown, now: number): ParsedValue[] {
  const out: ParsedValue[] = [];
  if (Array.isArray(json)) for (const item of json) telemetryItem(item, now, out);
  else telemetryItem(json, now, out);
  if (out.length === 0) throw new PayloadRefusal('error.transport.empty');
  return out;
}

/** Client attributes: one `{k:v}` object. */
export function attributeValues(json: unknown, now: number): ParsedValue[] {
  if (!isObject(json)) throw new PayloadRefusal('error.transport.payloadShape');
  const out: ParsedValue[] = [];
  valuesOf(json, now, out);
  if (out.length === 0) throw new PayloadRefusal('error.transport.empty');
  return out;
}

function eventItem(item: unknown, now: number): ParsedEvent {
  if (!isObject(item)) throw new PayloadRefusal('error.transport.badEvent');
  const { identifier, params, ts, type } = item;
  if (typeof identifier !== 'string' || identifier.length === 0 || identifier.length > EVENT_IDENTIFIER_MAX) {
    throw new PayloadRefusal('error.transport.badEvent');
  }
  if (params !== undefined && params !== null && !isObject(params)) throw new PayloadRefusal('error.transport.badEvent');
  return {
    ts: ts === undefined ? now : checkTs(ts),
    identifier,
    eventType: eventTypes.includes(type as EventType) ? (type as EventType) : null,
    params: isObject(params) ? params : {},
  };
}

/** Events: `{ identifier, params?, ts?, type? }` or an array of them. */
export function eventValues(json: unknown, now: number): ParsedEvent[] {
  const out = Array.isArray(json) ? json.map((item) => eventItem(item, now)) : [eventItem(json, now)];
  if (out.length === 0) throw new PayloadRefusal('error.transport.empty');
  return out;
}

/** `"a,b"` → ['a', 'b']; blank or missing → null (all keys). */
export function keyList(text: unknown): string[] | null {
  if (typeof text !== 'string') return null;
  const keys = text.split(',').map((k) => k.trim()).filter(Boolean);
  return keys.length ? keys : null;
}
