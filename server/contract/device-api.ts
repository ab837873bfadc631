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
 * - subscribe `v1/devices/me/rpc/request/+`: server RPC `{ method, params }` on
 *   `v1/devices/me/rpc/request/{id}` (the id only in the topic, as ThingsBoard sends it), QoS 1;
 *   `params` is any JSON value; answer on `v1/devices/me/rpc/response/{id}` with any JSON;
 * - subscribe `v1/devices/me/attributes` and `v1/devices/me/attributes/response/+`.
 * A GATEWAY also has (ThingsBoard's gateway API, sub-devices by name):
 * - `v1/gateway/connect` `{ device: "name", type? }` / `disconnect` `{ device: "name" }`: the
 *   sub-device goes ONLINE / OFFLINE;
 * - `v1/gateway/telemetry` `{ "name": [ { ts, values } | {k:v} ] }`;
 * - `v1/gateway/attributes` `{ "name": { k: v } }`;
 * - subscribe `v1/gateway/rpc`: `{ device, data: { id, method, params } }`; answer by publishing
 *   `{ device, id, data }` on `v1/gateway/rpc`.
 *   A name no device has (connect, telemetry, attributes) becomes a new SENSOR attached to that
 *   gateway, in its organization, with the product named by connect's `type` (`default` without
 *   one, and for telemetry and attributes; a DRAFT SENSOR product over MQTT made on first use), as
 *   ThingsBoard creates a gateway's devices (server/modules/device/device-service.ts,
 *   `subDeviceNamed`). Names keep their spelling (any printable text up to 255 characters). Only
 *   SENSOR devices attached to that gateway are served: another device's name, a creation past the
 *   licence's device limit (`error.license.deviceLimit`), a blank or unprintable name or type, or a
 *   `type` naming a non-SENSOR product is refused for that entry, counted and logged, while the
 *   rest of the message is stored. Disconnect and RPC answers never create a device.
 * ThingsBoard's short (v2) topics serve the same payloads: publish `v2/t` (telemetry), `v2/a`
 * (attributes), `v2/a/req/{id}` (answered on `v2/a/res/{id}`), `v2/r/req/{id}` (client RPC,
 * answered on `v2/r/res/{id}`), `v2/r/res/{id}` (the answer to server RPC `{id}`); subscribe
 * `v2/r/req/+`, `v2/a`, `v2/a/res/+`, `v2/r/res/+`: a session gets server RPC and shared-attribute
 * pushes on the v2 topic when it subscribed only the v2 filter, on the v1 topic otherwise.
 * Firmware requests `v2/fw/request/{id}/chunk/{n}` (payload: the chunk size in bytes, at most
 * 64 KB; empty: the size this request id sent before, or the whole package) are acknowledged and
 * answered with the chunk's bytes on `v2/fw/response/{id}/chunk/{n}`, empty past the end, from the
 * firmware assigned to the device (server/contract/ota.ts). A device with none (and every `v2/sw/…`
 * request), or a chunk over 64 KB, is answered as ThingsBoard answers it: `NOT_FOUND` or
 * `PAYLOAD_TOO_LARGE` (text) on `v2/fw/error` (`v2/sw/error`), at the QoS the session subscribed
 * it with (1 when it did not), then the connection closes (MQTT 5: DISCONNECT 0x83), no PUBACK.
 * Any other topic: a publish closes the connection, a subscription is refused (SUBACK 0x80).
 * A payload over 64 KB, malformed JSON, JSON nesting objects and arrays deeper than 32 levels
 * (`error.transport.tooDeep`), a wrong shape or a reserved key (`__proto__`, `constructor`,
 * `prototype`: `error.transport.reservedKey`) is dropped, logged and counted; the client
 * stays connected and a QoS 1 message is still acknowledged (MQTT 3.1.1 has no negative PUBACK,
 * and a refused message resent forever would help nobody). A frame over 1 MB closes the connection
 * before it is read into memory. Accepted QoS 1 messages are acknowledged only after the batch
 * holding them is committed.
 * Telemetry while free disk is below `--min-free-disk-mb` (README, "Retention and disk budget"):
 * MQTT 5 PUBACK 0x97; MQTT 3.1.1 no PUBACK and the connection closes, so the device resends it
 * on reconnect; HTTP 507 code 41 `error.telemetry.diskFull` (also when the disk filled anyway).
 * MQTT 3.1, 3.1.1 and 5 share the ports. MQTT 5 says why in its reason codes
 * (server/modules/transport/mqtt-reason-codes.ts): CONNACK 0x86 unknown credentials, 0x87 unknown
 * certificate, 0x85 client ID over 256 characters, 0x84 an unknown protocol version (counted and
 * logged like any refusal); PUBACK 0x99 payload format invalid, 0x97 over 64 KB, 0x87 a topic the
 * device may not use (the connection stays, unlike 3.1.1); SUBACK 0x87; the server's DISCONNECT
 * 0x8E session taken over, 0x87 credentials replaced or device deleted, 0x8B shutdown, 0x95 frame
 * over 1 MB, 0x8D keepalive. The CONNACK carries Receive Maximum MQTT_INFLIGHT_MAX, Maximum Packet
 * Size 1 MB, Topic Alias Maximum 0, Retain Available 0. Session Expiry Interval is honoured up to a
 * day (3.1.1 persistent sessions get that day too). User name `provision` opens a device
 * provisioning connection (`/provision/request` → `/provision/response`) when provisioning is on.
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
 *
 * Shared attributes (server/contract/shared-attributes.ts), as ThingsBoard serves them:
 * - subscribe `v1/devices/me/attributes`: each change as the changed keys only `{ k: v }`, a
 *   delete as `{ "deleted": ["k"] }` (QoS 1 when subscribed so);
 * - `v1/devices/me/attributes/request/{id}` `{ clientKeys?: "a,b", sharedKeys?: "c" }` and HTTP
 *   `GET …/attributes?clientKeys&sharedKeys` answer `{ client?, shared? }`: neither side named
 *   answers both sides whole, one side named only that side, both named each filtered; a side
 *   with nothing to answer is left out (`{}` when both are). Over MQTT a side named blank counts
 *   as named, over HTTP as left out (as ThingsBoard);
 * - `GET /api/v1/{accessToken}/attributes/updates?timeout=ms`: long poll (default 60 s, at most
 *   300 s) answering the next change in the same shape, or 408 with an empty body; changes while
 *   no poll waits are not kept (as ThingsBoard);
 * - a GATEWAY subscribes `v1/gateway/attributes` for its sub-devices' changes as
 *   `{ device: "name", data: { k: v } | { deleted: [...] } }` (the sub-device connected through it),
 *   and publishes `v1/gateway/attributes/request` `{ id, device, client: bool, key | keys }` to be
 *   answered on `v1/gateway/attributes/response` `{ id, device, value }` (one key asked for) or
 *   `{ id, device, values: { k: v } }` (several), without either when nothing is found; `client`
 *   picks client or shared attributes, no key at all answers both. A name that is not its
 *   sub-device is refused and logged; the connection stays.
 *
 * Client-side RPC (the device calls, the gateway answers once; ThingsBoard's shapes):
 * - MQTT: publish `{ method, params? }` on `v1/devices/me/rpc/request/{id}` (a GATEWAY too, for
 *   itself), subscribe `v1/devices/me/rpc/response/+`: the answer comes on
 *   `v1/devices/me/rpc/response/{id}`.
 * - HTTP: `POST /api/v1/{accessToken}/rpc` `{ method, params? }`: the answer is the response body
 *   (200), or 408 with an empty body when none came within the client RPC timeout.
 * - `getSessionLimits` is answered by the transport, as ThingsBoard's MQTT transport does:
 *   `{ maxPayloadSize, maxInflightMessages, rateLimits: { messages, telemetryMessages,
 *   telemetryDataPoints } }` (a GATEWAY also gets `gatewayRateLimits`); the rate limits are null
 *   because this gateway applies none (ThingsBoard's answer when none are configured).
 *   `getCurrentTime` answers `{ time }` (epoch ms). Any other method is announced to the rule
 *   engine (`device.clientRpc`); when nothing answers within CLIENT_RPC_TIMEOUT_MS the MQTT device
 *   gets ThingsBoard's `{"error":"timeout"}`. Without a `method` string the call is refused
 *   (`error.transport.badRpc`); a device with CLIENT_RPC_PENDING_MAX calls waiting has further
 *   calls refused (`error.transport.rpcPending`).
 * - `v1/gateway/rpc` carries only a gateway's answers to server RPC, as in ThingsBoard: neither
 *   ThingsBoard nor its IoT Gateway has client RPC for sub-devices.
 * HTTP telemetry or attributes holding no value (`{}`, `[]`) answer 200 and store nothing, as
 * ThingsBoard does (its SDK's `TBHTTPDevice.connect()` posts `{}` to test the connection); the
 * call still marks the device ONLINE.
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
/** How long a client RPC waits for its answer: ThingsBoard's default `transport.client_side_rpc.timeout`. */
export const CLIENT_RPC_TIMEOUT_MS = 60_000;
/** Client RPCs one device may have waiting for an answer; more are refused, so calls nobody answers cannot pile up. */
export const CLIENT_RPC_PENDING_MAX = 100;

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
  gatewayAttributesRequest: 'v1/gateway/attributes/request',
  gatewayAttributesResponse: 'v1/gateway/attributes/response',
} as const;

/** A server RPC as the device receives it. */
export const RpcRequestSchema = Type.Object({
  id: Type.Integer(),
  method: Type.String(),
  params: Type.Unknown(),
});
export type RpcRequest = Static<typeof RpcRequestSchema>;

/** A side with no attribute to answer is left out, as ThingsBoard does (`{}` when both are). */
export const AttributesAnswerSchema = Type.Object({
  client: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  shared: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type AttributesAnswer = Static<typeof AttributesAnswerSchema>;

/**
 * A shared-attribute change as the device receives it: the changed keys with their values, or
 * `{ deleted: [keys] }` (ThingsBoard's attribute update notification).
 */
export const SharedAttributesPushSchema = Type.Record(Type.String(), Type.Unknown());
export type SharedAttributesPush = Static<typeof SharedAttributesPushSchema>;

/** A GATEWAY's attribute request for a sub-device (`v1/gateway/attributes/request`). */
export interface GatewayAttributesRequest {
  id: number;
  device: string;
  client: boolean;
  key?: string;
  keys?: string[];
}

/** A client-side RPC as the device sends it. */
export const ClientRpcRequestSchema = Type.Object({
  method: Type.String({ minLength: 1, maxLength: 255 }),
  params: Type.Optional(Type.Unknown()),
});
export type ClientRpcRequest = Static<typeof ClientRpcRequestSchema>;

/** Client RPC methods the transport answers itself. */
export const clientRpcMethods = { sessionLimits: 'getSessionLimits', currentTime: 'getCurrentTime' } as const;

/** ThingsBoard's rate limits in its string form (`"10:1,300:60"`: 10 a second, 300 a minute), null when none applies. */
const RateLimitsSchema = Type.Object({
  messages: Type.Union([Type.String(), Type.Null()]),
  telemetryMessages: Type.Union([Type.String(), Type.Null()]),
  telemetryDataPoints: Type.Union([Type.String(), Type.Null()]),
});

/** The answer to client RPC `getSessionLimits` (ThingsBoard's SessionLimits / GatewaySessionLimits). */
export const SessionLimitsSchema = Type.Object({
  maxPayloadSize: Type.Integer(),
  maxInflightMessages: Type.Integer(),
  rateLimits: RateLimitsSchema,
  gatewayRateLimits: Type.Optional(RateLimitsSchema),
});
export type SessionLimits = Static<typeof SessionLimitsSchema>;

/** What a device gets when its client RPC was not answered in time (ThingsBoard's words). */
export const CLIENT_RPC_TIMEOUT_ANSWER = { error: 'timeout' } as const;

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
  firmware: {
    method: 'GET',
    url: '/api/v1/:accessToken/firmware',
    schema: {
      tags,
      summary: 'A chunk of the firmware assigned to the device (size bytes from size × chunk; size 0: all of it); 404 when none is, 400 when title or version is not the assigned one',
      params: TokenParams,
      querystring: Type.Object({
        title: Type.String({ maxLength: 255 }),
        version: Type.String({ maxLength: 255 }),
        size: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
        chunk: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
      }),
      produces: ['application/octet-stream'],
      response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }), 404: ErrorBodySchema, ...errors },
    },
    config: { access: 'public' },
  },
  getAttributes: {
    method: 'GET',
    url: '/api/v1/:accessToken/attributes',
    schema: {
      tags,
      summary: 'The client and shared attributes of the device (clientKeys, sharedKeys filter them)',
      params: TokenParams,
      querystring: Type.Object({
        clientKeys: Type.Optional(Type.String({ maxLength: 4096 })),
        sharedKeys: Type.Optional(Type.String({ maxLength: 4096 })),
      }),
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
  attributeUpdates: {
    method: 'GET',
    url: '/api/v1/:accessToken/attributes/updates',
    schema: {
      tags,
      summary: 'Long poll for the next shared-attribute change; 408 with an empty body when none came in time',
      params: TokenParams,
      querystring: Type.Object({
        timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: RPC_POLL_TIMEOUT_MAX_MS })),
      }),
      response: { 200: SharedAttributesPushSchema, 408: Type.Unsafe<undefined>({ description: 'No change came in time: empty body' }), ...errors },
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
  rpcCall: {
    method: 'POST',
    url: '/api/v1/:accessToken/rpc',
    schema: {
      tags,
      summary: 'Client-side RPC: the answer, or 408 with an empty body when none came in time',
      params: TokenParams,
      body: JsonBody('{ method, params? } (at most 64 KB)'),
      response: {
        200: Type.Unsafe<unknown>({ description: 'The answer: any JSON' }),
        408: Type.Unsafe<undefined>({ description: 'No answer came in time: empty body' }),
        ...errors,
      },
    },
    config: { access: 'public', longPoll: true },
  },
});
