/**
 * What the edge-* palette nodes of a Node-RED instance call on the gateway (issue 29 item 6;
 * docs/NODE-RED.md "Palette nodes").
 *
 * - The caller is a Node-RED instance, not a user: `access: 'node-red-instance'`. It presents
 *   `X-Edge-Node-Red-Instance: <instance id>:<palette secret>` (the secret the gateway generated for
 *   that instance and handed only to its runtime), over loopback, while the instance runs. That
 *   credential opens these routes and the live commands below, nothing else; no user route
 *   accepts it and these routes accept no user token.
 * - Telemetry out is stricter than a device's own message: a value the device's published thing
 *   model refuses (unknown key, wrong type, out of range) refuses the whole message (400 code 31,
 *   `error.nodeRedPalette.modelRefused` on `values.<key>`), and nothing of it is stored.
 * - Telemetry in is the guest live command NODE_RED_TELEMETRY on /api/ws: the device's values as
 *   they are stored, nothing earlier.
 * - Edge command sends a command as a user's call would (the same checks against the model), its
 *   source NODE_RED with the instance's name; edge alarm raises (or fires again) and clears an
 *   alarm of a device under the instance's name, as a scene's MSG_NOTIFY does under the scene's.
 * - TCP in/out serve devices of a TCP product whose protocol is CUSTOM (not Modbus: those frames are
 *   the Modbus master's): NODE_RED_TCP follows the raw frames a device sends once registered, in
 *   hex; `POST …/palette/tcp` writes a frame back to its live connection (400
 *   `error.nodeRedPalette.tcpNotConnected` while it has none). Another device is not found (404).
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { EpochMs, OkSchema, ResourceIdSchema } from './common.ts';
import { CommandBodySchema, CommandSchema } from './command.ts';
import { AlarmSchema, AlarmSeveritySchema } from './alarm.ts';

/** The header carrying an instance's palette credential: `<instance id>:<secret>`. */
export const NODE_RED_INSTANCE_HEADER = 'x-edge-node-red-instance';

/** At most this many values in one telemetry message of a flow (a device's own message has the same order of size). */
export const PALETTE_VALUES_MAX = 256;

export const PaletteTelemetryBodySchema = Type.Object(
  {
    deviceId: ResourceIdSchema,
    /** `{ key: value }`: the values of one message, checked against the device's published thing model. */
    values: Type.Record(Type.String({ minLength: 1, maxLength: 128 }), Type.Unknown(), { minProperties: 1, maxProperties: PALETTE_VALUES_MAX }),
    /** When the values were measured; default now. */
    ts: Type.Optional(EpochMs),
  },
  { additionalProperties: false },
);
export type PaletteTelemetryBody = Static<typeof PaletteTelemetryBodySchema>;

/**
 * An "in" node's live command: the credential in its body (a guest socket has no headers of its
 * own to check per command) and the device it follows.
 */
function paletteCmdSchema<T extends string>(type: T) {
  return Type.Object({
    type: Type.Literal(type),
    cmdId: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
    instanceId: ResourceIdSchema,
    secret: Type.String({ minLength: 1, maxLength: 128 }),
    deviceId: ResourceIdSchema,
  });
}

/** An update of an "in" node's command: the device it follows, and `D` (what came). */
type PaletteUpdate<T extends string, D> = {
  cmdId: number;
  subscriptionId: number;
  errorCode: 0;
  errorMsg: null;
  cmdUpdateType: T;
  deviceId: string;
} & D;

export const NODE_RED_TELEMETRY_CMD = 'NODE_RED_TELEMETRY';
/** Edge telemetry in follows one device, or every device of a product (exactly one of the two). */
export const PaletteTelemetryCmdSchema = Type.Object({
  ...Type.Omit(paletteCmdSchema(NODE_RED_TELEMETRY_CMD), ['deviceId']).properties,
  deviceId: Type.Optional(ResourceIdSchema),
  productId: Type.Optional(ResourceIdSchema),
});
export type PaletteTelemetryCmd = Static<typeof PaletteTelemetryCmdSchema>;
/** One update of NODE_RED_TELEMETRY: the values of one stored message (empty on the first answer). */
export type PaletteTelemetryUpdate = PaletteUpdate<typeof NODE_RED_TELEMETRY_CMD, { data: Record<string, { ts: number; value: unknown }> }>;

export const NODE_RED_TCP_CMD = 'NODE_RED_TCP';
export const PaletteTcpCmdSchema = paletteCmdSchema(NODE_RED_TCP_CMD);
export type PaletteTcpCmd = Static<typeof PaletteTcpCmdSchema>;
/** One update of NODE_RED_TCP: a frame the device sent, in hex (null on the first answer). */
export type PaletteTcpUpdate = PaletteUpdate<typeof NODE_RED_TCP_CMD, { frame: string | null }>;

/** A frame to a device is at most this many bytes (written as hex, twice as many characters). */
export const PALETTE_FRAME_MAX = 4096;
export const PaletteTcpBodySchema = Type.Object(
  {
    deviceId: ResourceIdSchema,
    /** The bytes, in hex. */
    frame: Type.String({ minLength: 2, maxLength: PALETTE_FRAME_MAX * 2, pattern: '^([0-9a-fA-F]{2})+$' }),
  },
  { additionalProperties: false },
);
export type PaletteTcpBody = Static<typeof PaletteTcpBodySchema>;

export const PaletteCommandBodySchema = Type.Object({ deviceId: ResourceIdSchema, ...CommandBodySchema.properties }, { additionalProperties: false });
export type PaletteCommandBody = Static<typeof PaletteCommandBodySchema>;

export const paletteAlarmActions = ['RAISE', 'CLEAR'] as const;
export const PaletteAlarmBodySchema = Type.Object(
  {
    deviceId: ResourceIdSchema,
    action: Type.Enum(paletteAlarmActions),
    /** The alarm's type: one open alarm per instance, device and type (raising it again fires it again). */
    type: Type.String({ minLength: 1, maxLength: 64 }),
    /** RAISE only; default MAJOR. */
    severity: Type.Optional(AlarmSeveritySchema),
    /** RAISE only: shown with the alarm. */
    message: Type.Optional(Type.String({ maxLength: 255 })),
    /** RAISE only: the value that raised it. */
    value: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type PaletteAlarmBody = Static<typeof PaletteAlarmBodySchema>;
/** The alarm raised or cleared; on CLEAR null when none of that type was open. */
export const PaletteAlarmAnswerSchema = Type.Object({ alarm: Type.Union([AlarmSchema, Type.Null()]) });
export type PaletteAlarmAnswer = Static<typeof PaletteAlarmAnswerSchema>;

const tags = ['node-red-palette'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 503: ErrorBodySchema };
const instance = { access: 'node-red-instance' } as const;

export const nodeRedPaletteRoutes = defineRoutes({
  telemetry: {
    method: 'POST',
    url: '/api/yt/node_red/palette/telemetry',
    schema: {
      tags,
      summary: "A flow's values as a device's telemetry (edge telemetry out), refused whole when the thing model refuses one",
      body: PaletteTelemetryBodySchema,
      response: { 200: OkSchema, ...errors },
    },
    config: instance,
  },
  command: {
    method: 'POST',
    url: '/api/yt/node_red/palette/command',
    schema: { tags, summary: 'A command from a flow to a device (edge command)', body: PaletteCommandBodySchema, response: { 200: CommandSchema, ...errors } },
    config: instance,
  },
  alarm: {
    method: 'POST',
    url: '/api/yt/node_red/palette/alarm',
    schema: { tags, summary: "A flow raises or clears a device's alarm (edge alarm)", body: PaletteAlarmBodySchema, response: { 200: PaletteAlarmAnswerSchema, ...errors } },
    config: instance,
  },
  tcp: {
    method: 'POST',
    url: '/api/yt/node_red/palette/tcp',
    schema: {
      tags,
      summary: 'A frame from a flow to a custom TCP device over its live connection (edge TCP out)',
      body: PaletteTcpBodySchema,
      response: { 200: OkSchema, ...errors },
    },
    config: instance,
  },
});
