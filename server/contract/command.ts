/**
 * Command delivery and command records (`/api/yt/device/{id}/command`; the device detail's command
 * tabs). A command is a server-side RPC to the device over
 * `v1/devices/me/rpc/request/{requestId}`; two-way commands wait for
 * `v1/devices/me/rpc/response/{requestId}`.
 *
 * Content by format (the format follows the product: TCP products take ASCII or HEX text, the
 * others JSON):
 * - JSON (CUSTOM, API): a JSON object `{ method, params? }`, sent as the RPC `{ method, params }`
 *   with `params` any JSON value, unchanged (`{}` when left out), as ThingsBoard passes it
 *   (`error.command.jsonInvalid` when the text is not JSON, `error.command.methodRequired` when
 *   `method` is missing);
 * - JSON (SERVICE): `{ method: <service identifier>, params: { <input identifier>: value } }`,
 *   checked against the product's published thing model (`error.command.noThingModel`,
 *   `error.command.serviceInvalid` with the reason in `details`);
 * - JSON (ATTRIBUTE): an object of property identifiers and values, sent as the RPC method
 *   `setAttributes` (`error.command.attributesInvalid`); checked against the published model when
 *   one exists;
 * - ASCII: printable text; HEX: pairs of hex digits, spaces allowed (`error.command.hexInvalid`),
 *   stored upper case without spaces. Sent as the RPC method `raw` with `{ format, data }`.
 *
 * Delivery (statuses QUEUED → SENT → DELIVERED → SUCCESSFUL / TIMEOUT / EXPIRED / FAILED, and
 * DELETED when a user withdraws a pending command):
 * - device offline: a SYNC command is refused (400 code 31 `error.command.deviceOffline`, "the
 *   current device is offline"), nothing is recorded; an ASYNC command is recorded QUEUED and sent
 *   when the device next connects, or EXPIRED after `ttlMs`;
 * - SENT once handed to the transport; DELIVERED (with `deliveredTime`) when the device acknowledged
 *   it: the MQTT PUBACK of the request, which goes out at QoS 1 when the device subscribed
 *   `v1/devices/me/rpc/request/+` (a gateway: `v1/gateway/rpc`) with QoS 1, or the HTTP device's
 *   `GET …/rpc` poll that returned it. A QoS 0 subscriber sends no acknowledgement, so its
 *   command stays SENT until the answer (two-way) or for good (one-way);
 * - oneway: as in ThingsBoard, delivery is the outcome: an acknowledged one-way command is
 *   SUCCESSFUL (`deliveredTime` set, no response); the reboot button's SYNC call answers at SENT;
 * - twoway: SENT → DELIVERED → SUCCESSFUL with the device's answer (responseType,
 *   responseContent), or TIMEOUT after `timeoutMs`. An answer that overtakes the acknowledgement
 *   still ends SUCCESSFUL (and sets `deliveredTime`); statuses only ever move forward. A SYNC call
 *   answers after that outcome, an ASYNC call at once.
 * Every change of a record is pushed live on `/api/ws` to `COMMANDS` subscribers of the device
 * (server/contract/realtime.ts).
 * At most QUEUE_MAX pending (QUEUED or waiting) commands per device (`error.command.queueFull`).
 * Unknown device: 404 code 32 `error.notFound`.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { EpochMs, IdParamsSchema, Nullable, PageOf, PageQuerySchema } from './common.ts';

/** Command types (`commandType`). */
export const commandTypes = ['CUSTOM', 'SERVICE', 'ATTRIBUTE', 'API'] as const;
export const CommandTypeSchema = Type.Enum(commandTypes);
export type CommandType = (typeof commandTypes)[number];

/** Call types: ASYNC waits for an offline device, SYNC refuses one. */
export const commandCallTypes = ['ASYNC', 'SYNC'] as const;
export const CommandCallTypeSchema = Type.Enum(commandCallTypes);
export type CommandCallType = (typeof commandCallTypes)[number];

/** Delivery way: one-way, or two-way (waits for the device's response). */
export const commandWays = ['oneway', 'twoway'] as const;
export const CommandWaySchema = Type.Enum(commandWays);
export type CommandWay = (typeof commandWays)[number];

/** Statuses of a command record. */
export const commandStatuses = ['QUEUED', 'SENT', 'DELIVERED', 'SUCCESSFUL', 'TIMEOUT', 'EXPIRED', 'FAILED', 'DELETED'] as const;
export const CommandStatusSchema = Type.Enum(commandStatuses);
export type CommandStatus = (typeof commandStatuses)[number];
/** Statuses after which nothing changes any more. */
export const finalCommandStatuses: readonly CommandStatus[] = ['SUCCESSFUL', 'TIMEOUT', 'EXPIRED', 'FAILED', 'DELETED'];

/** How the content is written: JSON for MQTT/HTTP products, ASCII or HEX text for TCP products. */
export const commandFormats = ['JSON', 'ASCII', 'HEX'] as const;
export const CommandFormatSchema = Type.Enum(commandFormats);
export type CommandFormat = (typeof commandFormats)[number];

/** What the device answered: a JSON value or plain text. */
export const commandResponseTypes = ['JSON', 'TEXT'] as const;
export const CommandResponseTypeSchema = Type.Enum(commandResponseTypes);
export type CommandResponseType = (typeof commandResponseTypes)[number];

/** Two-way wait: default 10 s (the console's request timeout), at most 60 s. */
export const COMMAND_TIMEOUT_DEFAULT_MS = 10_000;
export const COMMAND_TIMEOUT_MIN_MS = 1_000;
export const COMMAND_TIMEOUT_MAX_MS = 60_000;
/** How long an ASYNC command waits for an offline device: default one day, at most seven. */
export const COMMAND_TTL_DEFAULT_MS = 24 * 3600_000;
export const COMMAND_TTL_MIN_MS = 1_000;
export const COMMAND_TTL_MAX_MS = 7 * 24 * 3600_000;
/** Content and stored answers: the same 64 KB ceiling as device payloads. */
export const COMMAND_CONTENT_MAX = 64 * 1024;
/** Pending (QUEUED, or SENT / DELIVERED and awaiting an answer) commands per device. */
export const COMMAND_QUEUE_MAX = 100;
/** HEX content (TCP devices take ASCII or HEX): hex digit pairs, spaces between them allowed. */
export const HEX_CONTENT_PATTERN = '^[0-9A-Fa-f\\s]+$';
/**
 * RPC methods the server uses for ATTRIBUTE and ASCII/HEX commands and the reboot button.
 *
 * ATTRIBUTE commands stay RPCs and do not become shared-attribute updates (docs/THINGSBOARD.md,
 * "Shared attributes"): a command record promises a delivery (DELIVERED on the PUBACK of its
 * request id), an answer or TIMEOUT for two-way commands, an expiry for ASYNC ones and a Modbus
 * write on TCP devices, and a shared-attribute push has no request id, no answer and no expiry
 * (it is lasting state, sent again to every attribute request). ThingsBoard clients that act on
 * attribute updates get them from the shared attributes (the device page's attribute tab,
 * server/contract/shared-attributes.ts); devices written for this gateway keep their
 * `setAttributes` handler.
 */
export const ATTRIBUTE_RPC_METHOD = 'setAttributes';
export const RAW_RPC_METHOD = 'raw';
export const REBOOT_RPC_METHOD = 'reboot';

/**
 * Who issued a command other than a user's call: a scene's DEVICE_OUT action
 * (server/contract/scene-linkage.ts), with the scene's name as it was then, the cloud, through
 * the cloud link's RPC (server/modules/cloud-link/), or a Node-RED instance's palette (node-red-palette.ts).
 */
export const CommandSourceSchema = Type.Union([
  Type.Object({ type: Type.Literal('SCENE_LINKAGE'), id: Type.String(), name: Type.String() }),
  Type.Object({ type: Type.Literal('CLOUD') }),
  /** A Node-RED flow's "edge command" node, with its instance's name as it was then. */
  Type.Object({ type: Type.Literal('NODE_RED'), id: Type.String(), name: Type.String() }),
]);
export type CommandSource = Static<typeof CommandSourceSchema>;

export const CommandSchema = Type.Object({
  id: Type.String(),
  deviceId: Type.String(),
  /** The `{requestId}` of the RPC topics. */
  requestId: Type.Integer(),
  commandType: CommandTypeSchema,
  callType: CommandCallTypeSchema,
  way: CommandWaySchema,
  format: CommandFormatSchema,
  /** The content as sent: JSON text, ASCII text or HEX digits (upper case, no spaces). */
  content: Type.String(),
  status: CommandStatusSchema,
  responseType: Nullable(CommandResponseTypeSchema),
  /** The device's answer (JSON text or plain text), or why the command failed. */
  responseContent: Nullable(Type.String()),
  timeoutMs: Type.Integer(),
  /** ASYNC: when a QUEUED command gives up (EXPIRED). */
  expiresTime: Nullable(EpochMs),
  /** Issuance time. */
  createdTime: EpochMs,
  sentTime: Nullable(EpochMs),
  /** When the device acknowledged the request (null: not known to have arrived). */
  deliveredTime: Nullable(EpochMs),
  respondedTime: Nullable(EpochMs),
  updatedTime: EpochMs,
  /** Null for a user's call. */
  source: Nullable(CommandSourceSchema),
});
export type Command = Static<typeof CommandSchema>;

export const CommandBodySchema = Type.Object(
  {
    commandType: CommandTypeSchema,
    callType: CommandCallTypeSchema,
    way: CommandWaySchema,
    /** JSON text (or a JSON object) for JSON; text for ASCII and HEX. */
    content: Type.Union([
      Type.String({ minLength: 1, maxLength: COMMAND_CONTENT_MAX }),
      Type.Object({}, { additionalProperties: true }),
    ]),
    /** Defaults to JSON, or HEX for TCP products; TCP products take ASCII or HEX only. */
    format: Type.Optional(CommandFormatSchema),
    timeoutMs: Type.Optional(Type.Integer({ minimum: COMMAND_TIMEOUT_MIN_MS, maximum: COMMAND_TIMEOUT_MAX_MS })),
    ttlMs: Type.Optional(Type.Integer({ minimum: COMMAND_TTL_MIN_MS, maximum: COMMAND_TTL_MAX_MS })),
  },
  { additionalProperties: false },
);
export type CommandBody = Static<typeof CommandBodySchema>;

export const CommandListQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  status: Type.Optional(CommandStatusSchema),
  commandType: Type.Optional(CommandTypeSchema),
});
export type CommandListQuery = Static<typeof CommandListQuerySchema>;

export const CommandPageSchema = PageOf(CommandSchema);
export type CommandPage = Static<typeof CommandPageSchema>;

export const CommandParamsSchema = Type.Object({
  id: IdParamsSchema.properties.id,
  commandId: Type.String({ minLength: 1, maxLength: 64 }),
});

const tags = ['command'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const commandRoutes = defineRoutes({
  send: {
    method: 'POST',
    url: '/api/yt/device/:id/command',
    schema: {
      tags,
      summary: 'Send a command; SYNC answers after the outcome, ASYNC at once (QUEUED while the device is offline)',
      params: IdParamsSchema,
      body: CommandBodySchema,
      response: { 200: CommandSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:command', deviceParam: 'id' },
  },
  list: {
    method: 'GET',
    url: '/api/yt/device/:id/command',
    schema: {
      tags,
      summary: 'Command records of a device, newest first',
      params: IdParamsSchema,
      querystring: CommandListQuerySchema,
      response: { 200: CommandPageSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:command', deviceParam: 'id' },
  },
  withdraw: {
    method: 'DELETE',
    url: '/api/yt/device/:id/command/:commandId',
    schema: {
      tags,
      summary: 'Withdraw a pending command (QUEUED or awaiting an answer): it becomes DELETED; finished ones are left as they are',
      params: CommandParamsSchema,
      response: { 200: CommandSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:command', deviceParam: 'id' },
  },
  reboot: {
    method: 'POST',
    url: '/api/yt/device/:id/reboot',
    schema: {
      tags,
      summary: 'Reboot button: a CUSTOM oneway SYNC command { method: "reboot" } (refused while the device is offline)',
      params: IdParamsSchema,
      response: { 200: CommandSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:command', deviceParam: 'id' },
  },
});
