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
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { EpochMs, OkSchema, ResourceIdSchema } from './common.ts';

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

/** The credential as the live commands carry it (a guest socket has no headers of its own to check per command). */
const credentialProperties = {
  instanceId: ResourceIdSchema,
  secret: Type.String({ minLength: 1, maxLength: 128 }),
};

export const NODE_RED_TELEMETRY_CMD = 'NODE_RED_TELEMETRY';
export const PaletteTelemetryCmdSchema = Type.Object({
  type: Type.Literal(NODE_RED_TELEMETRY_CMD),
  cmdId: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
  ...credentialProperties,
  deviceId: ResourceIdSchema,
});
export type PaletteTelemetryCmd = Static<typeof PaletteTelemetryCmdSchema>;

/** One update of NODE_RED_TELEMETRY: the values of one stored message (empty on the first answer). */
export interface PaletteTelemetryUpdate {
  cmdId: number;
  subscriptionId: number;
  errorCode: 0;
  errorMsg: null;
  cmdUpdateType: typeof NODE_RED_TELEMETRY_CMD;
  deviceId: string;
  data: Record<string, { ts: number; value: unknown }>;
}

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
});
