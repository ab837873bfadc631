/**
 * Device-facing transport, ThingsBoard's device API: the MQTT topics and payloads, and the HTTP
 * device API with the access token in the path (ThingsBoard's shapes).
 *
 * MQTT (username = ACCESS_TOKEN, empty password; or MQTT_BASIC client ID / user name / password;
 * anything else gets CONNACK 5 "not authorized"):
 * - publish `v1/devices/me/telemetry`: `{k:v}`, `{ts, values:{k:v}}` or an array of them;
 *   `ts` is epoch milliseconds, a JSON integer or a string of digits (ThingsBoard reads both);
 * - publish `v1/devices/me/attributes`: client attributes `{k:v}` (the latest of each is kept);
 * - publish `v1/devices/me/events`: `{ identifier, params?, ts?, type? }` or an array of them, matched
 *   to the published thing model's events (an unknown identifier is stored flagged);
 * - publish `v1/devices/me/attributes/request/{id}` `{ clientKeys?: "a,b" }` → answer on
 *   `v1/devices/me/attributes/response/{id}` `{ client: {…}, shared: {} }`;
 * - subscribe `v1/devices/me/rpc/request/+`: server RPC `{ id, method, params }`, QoS 1; answer on
 *   `v1/devices/me/rpc/response/{id}` with any JSON;
 * - subscribe `v1/devices/me/attributes` and `v1/devices/me/attributes/response/+`.
 * A GATEWAY also has (ThingsBoard's gateway API, sub-devices by name):
 * - `v1/gateway/connect` / `disconnect` `{ device: "name" }`: the sub-device goes ONLINE / OFFLINE;
 * - `v1/gateway/telemetry` `{ "name": [ { ts, values } | {k:v} ] }`;
 * - `v1/gateway/attributes` `{ "name": { k: v } }`;
 * - subscribe `v1/gateway/rpc`: `{ device, data: { id, method, params } }`; answer by publishing
 *   `{ device, id, data }` on `v1/gateway/rpc`.
 *   Only SENSOR devices attached to that gateway are served; another device's name, or a name no
 *   device has, is refused for that entry and logged (sub-devices are never created implicitly).
 * Any other topic: a publish closes the connection, a subscription is refused (SUBACK 0x80).
 * A payload over 64 KB, malformed JSON, JSON nesting objects and arrays deeper than 32 levels
 * (`error.transport.tooDeep`), a wrong shape or a reserved key (`__proto__`, `constructor`,
 * `prototype`: `error.transport.reservedKey`) is dropped, logged and counted; the client
 * stays connected and a QoS 1 message is still acknowledged (MQTT 3.1.1 has no negative PUBACK,
 * and a refused message resent forever would help nobody). A frame over 1 MB closes the connection
 * before it is read into memory. Accepted QoS 1 messages are acknowledged only after the batch
 * holding them is committed.
 *
 * HTTP (public routes; the token is an ACCESS_TOKEN; unknown: 401 code 10
 * `error.transport.tokenUnknown`; bodies up to 64 KB: 413 `error.transport.payloadTooLarge`; the
 * same parsing and refusals as MQTT, 400 code 31 with the reason's key):
 * - `POST /api/v1/{accessToken}/telemetry`, `POST /api/v1/{accessToken}/attributes`: 200 `{}` once stored;
 * - `GET /api/v1/{accessToken}/attributes?clientKeys`: `{ client, shared }`;
 * - `GET /api/v1/{accessToken}/rpc?timeout=ms`: long poll (default 60 s, at most 300 s): a pending
 *   server RPC `{ id, method, params }`, or 408 with an empty body when none came (as ThingsBoard);
 * - `POST /api/v1/{accessToken}/rpc/{requestId}`: the device's answer to RPC `requestId`, 200 `{}`.
 * Any call marks the device ONLINE; it goes OFFLINE after 300 s without one.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';

/** Largest device message accepted, MQTT payload or HTTP body. */
export const DEVICE_PAYLOAD_MAX_BYTES = 64 * 1024;
/**
 * Deepest nesting of objects and arrays in a device message, counted from the message itself
 * (`{"t":1}` is 1 level, `{"ts":1,"values":{"pos":[1,2]}}` is 3). Real devices send a few levels;
 * the limit exists because every consumer of a value after the parser (storing it as JSON text, the
 * thing-model checks, the live websocket) recurses, and a 64 KB message can nest 32,000 levels,
 * enough to overflow the stack of each. 32 leaves room for any structure a device means to send.
 */
export const DEVICE_JSON_DEPTH_MAX = 32;
/**
 * Keys a device may not use for telemetry or attributes: as property names of the plain objects
 * that carry values onward (the history answer `{ key: [points] }`, live updates, the console) they
 * would set or shadow the object's prototype instead of holding a value, so `__proto__` was stored
 * but never answered. Refused with `error.transport.reservedKey`.
 */
export const DEVICE_KEYS_RESERVED: readonly string[] = ['__proto__', 'constructor', 'prototype'];
/**
 * QoS 1 publishes one MQTT connection may have waiting for their PUBACK (MQTT 5's Receive Maximum
 * in the CONNACK; the `maxInflightMessages` of client RPC `getSessionLimits`). Past it the
 * transport stops reading that connection until a commit frees a place: a fast device meets
 * back-pressure instead of growing the gateway's memory.
 */
export const MQTT_INFLIGHT_MAX = 100;
/** HTTP devices go OFFLINE after this long without a call (MQTT devices use their keepalive). */
export const HTTP_INACTIVITY_TIMEOUT_MS = 300_000;
export const RPC_POLL_TIMEOUT_DEFAULT_MS = 60_000;
export const RPC_POLL_TIMEOUT_MAX_MS = 300_000;

export const deviceTopics = {
  telemetry: 'v1/devices/me/telemetry',
  attributes: 'v1/devices/me/attributes',
  events: 'v1/devices/me/events',
  attributesRequest: 'v1/devices/me/attributes/request/',
  attributesResponse: 'v1/devices/me/attributes/response/',
  rpcRequest: 'v1/devices/me/rpc/request/',
  rpcResponse: 'v1/devices/me/rpc/response/',
  gatewayConnect: 'v1/gateway/connect',
  gatewayDisconnect: 'v1/gateway/disconnect',
  gatewayTelemetry: 'v1/gateway/telemetry',
  gatewayAttributes: 'v1/gateway/attributes',
  gatewayRpc: 'v1/gateway/rpc',
} as const;

/** A server RPC as the device receives it. */
export const RpcRequestSchema = Type.Object({
  id: Type.Integer(),
  method: Type.String(),
  params: Type.Unknown(),
});
export type RpcRequest = Static<typeof RpcRequestSchema>;

export const AttributesAnswerSchema = Type.Object({
  client: Type.Record(Type.String(), Type.Unknown()),
  shared: Type.Record(Type.String(), Type.Unknown()),
});
export type AttributesAnswer = Static<typeof AttributesAnswerSchema>;

const TokenParams = Type.Object({ accessToken: Type.String({ minLength: 1, maxLength: 256 }) });

/**
 * The body is read as raw bytes and parsed by the same code as an MQTT payload, so both transports
 * refuse the same input with the same reason; this schema only documents it.
 */
const JsonBody = (description: string) => Type.Unsafe<unknown>({ description });

const tags = ['device-api'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 413: ErrorBodySchema };
const Empty = Type.Object({});

export const deviceApiRoutes = defineRoutes({
  telemetry: {
    method: 'POST',
    url: '/api/v1/:accessToken/telemetry',
    schema: {
      tags,
      summary: 'Device telemetry: {k:v}, {ts, values} or an array of them',
      params: TokenParams,
      body: JsonBody('{k:v}, {ts, values:{k:v}} or an array of them (at most 64 KB)'),
      response: { 200: Empty, ...errors },
    },
    config: { access: 'public' },
  },
  attributes: {
    method: 'POST',
    url: '/api/v1/:accessToken/attributes',
    schema: {
      tags,
      summary: 'Device client attributes {k:v}',
      params: TokenParams,
      body: JsonBody('{k:v} (at most 64 KB)'),
      response: { 200: Empty, ...errors },
    },
    config: { access: 'public' },
  },
  getAttributes: {
    method: 'GET',
    url: '/api/v1/:accessToken/attributes',
    schema: {
      tags,
      summary: 'The client attributes stored for the device',
      params: TokenParams,
      querystring: Type.Object({ clientKeys: Type.Optional(Type.String({ maxLength: 4096 })) }),
      response: { 200: AttributesAnswerSchema, ...errors },
    },
    config: { access: 'public' },
  },
  rpcPoll: {
    method: 'GET',
    url: '/api/v1/:accessToken/rpc',
    schema: {
      tags,
      summary: 'Long poll for a server RPC; 408 with an empty body when none came in time',
      params: TokenParams,
      querystring: Type.Object({
        timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: RPC_POLL_TIMEOUT_MAX_MS })),
      }),
      response: { 200: RpcRequestSchema, 408: Type.Unsafe<undefined>({ description: 'No request came in time: empty body' }), ...errors },
    },
    config: { access: 'public', longPoll: true },
  },
  rpcResponse: {
    method: 'POST',
    url: '/api/v1/:accessToken/rpc/:requestId',
    schema: {
      tags,
      summary: 'The device answers server RPC requestId',
      params: Type.Object({ ...TokenParams.properties, requestId: Type.Integer({ minimum: 0 }) }),
      body: JsonBody('Any JSON (at most 64 KB)'),
      response: { 200: Empty, ...errors },
    },
    config: { access: 'public' },
  },
});
