/**
 * Device attributes by scope, as ThingsBoard's TelemetryController serves them (the console's
 * attribute tab uses these routes too). Shared attributes (SHARED_SCOPE) are set by users and
 * pushed to the device; client attributes (CLIENT_SCOPE) are what the device reports
 * (server/contract/device-api.ts).
 *
 * - `POST /api/plugins/telemetry/DEVICE/{id}/attributes/SHARED_SCOPE`, and ThingsBoard's older
 *   `POST …/DEVICE/{id}/SHARED_SCOPE` and `POST /api/plugins/telemetry/{id}/SHARED_SCOPE`: a flat
 *   JSON object `{ key: value }` sets those shared attributes (the others stay) → 200 with an empty
 *   body, as ThingsBoard. Keys 1-255 characters, not `__proto__`/`constructor`/`prototype`; values
 *   any JSON but null; at most 64 KB and 32 levels deep (what a device accepts): 400 code 31 with
 *   the device API's reason key (`error.transport.badKey`, `…nullValue`, `…empty`, `…tooDeep`),
 *   413 over 64 KB. Another scope: 400 code 31 (only shared attributes are written here).
 * - `DELETE /api/plugins/telemetry/DEVICE/{id}/SHARED_SCOPE?keys=a,b` (and
 *   `DELETE /api/plugins/telemetry/{id}/SHARED_SCOPE?keys=`): deletes those keys (unknown ones are
 *   skipped) → 200 empty; no keys: 400 code 31 `error.telemetry.keysRequired`.
 * - `GET …/DEVICE/{id}/values/attributes/{CLIENT_SCOPE|SHARED_SCOPE}?keys=` and
 *   `GET …/DEVICE/{id}/values/attributes?keys=` (client and shared): `[{ key, value, lastUpdateTs }]`
 *   (client attributes add `flag` when they do not fit the published thing model).
 * - `GET …/DEVICE/{id}/keys/attributes` and `…/keys/attributes/{scope}`: the keys.
 * Every change reaches the device (MQTT `v1/devices/me/attributes`, its gateway's
 * `v1/gateway/attributes`, the HTTP long poll `…/attributes/updates`) and `/api/ws` subscribers.
 * SERVER_SCOPE (the state attributes `active`, `deviceState`, …) is served on `/api/ws` only.
 * Unknown device: 404 code 32.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { ResourceIdSchema } from './common.ts';
import { AttributeValueSchema, AttributesQuerySchema } from './telemetry.ts';

/** Scopes the REST reads answer. */
export const storedAttributeScopes = ['CLIENT_SCOPE', 'SHARED_SCOPE'] as const;
export type StoredAttributeScope = (typeof storedAttributeScopes)[number];

/** `{ key: value }` as the REST call sends it; checked by the device payload rules on the server. */
export const SharedAttributesBodySchema = Type.Record(Type.String(), Type.Unknown(), {
  description: 'A flat JSON object { key: value } (at most 64 KB)',
});
export type SharedAttributesBody = Static<typeof SharedAttributesBodySchema>;

const DeviceParams = Type.Object({ id: ResourceIdSchema });
const WriteParams = Type.Object({ id: ResourceIdSchema, scope: Type.Literal('SHARED_SCOPE') });
const ReadParams = Type.Object({ id: ResourceIdSchema, scope: Type.Enum(storedAttributeScopes) });
const Done = Type.Unsafe<undefined>({ description: 'Done: an empty body, as ThingsBoard answers' });

const tags = ['telemetry'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema, 413: ErrorBodySchema };
const write = { access: 'user', permission: 'device:attributes', deviceParam: 'id' } as const;
const read = { access: 'user', permission: 'device:telemetry', deviceParam: 'id' } as const;

function saveRoute(url: string, summary: string) {
  return {
    method: 'POST',
    url,
    schema: { tags, summary, params: WriteParams, body: SharedAttributesBodySchema, response: { 200: Done, ...errors } },
    config: write,
  } as const;
}

function deleteRoute(url: string, summary: string) {
  return {
    method: 'DELETE',
    url,
    schema: { tags, summary, params: WriteParams, querystring: AttributesQuerySchema, response: { 200: Done, ...errors } },
    config: write,
  } as const;
}

export const sharedAttributeRoutes = defineRoutes({
  save: saveRoute('/api/plugins/telemetry/DEVICE/:id/attributes/:scope', 'Set shared attributes of a device and push them to it'),
  saveV1: saveRoute('/api/plugins/telemetry/DEVICE/:id/:scope', 'Set shared attributes (ThingsBoard’s older path)'),
  saveByDevice: saveRoute('/api/plugins/telemetry/:id/:scope', 'Set shared attributes (ThingsBoard’s device path)'),
  delete: deleteRoute('/api/plugins/telemetry/DEVICE/:id/:scope', 'Delete shared attributes (keys=a,b) and tell the device'),
  deleteByDevice: deleteRoute('/api/plugins/telemetry/:id/:scope', 'Delete shared attributes (ThingsBoard’s device path)'),
  values: {
    method: 'GET',
    url: '/api/plugins/telemetry/DEVICE/:id/values/attributes/:scope',
    schema: {
      tags,
      summary: 'Attributes of one scope (latest value of each)',
      params: ReadParams,
      querystring: AttributesQuerySchema,
      response: { 200: Type.Array(AttributeValueSchema), ...errors },
    },
    config: read,
  },
  keys: {
    method: 'GET',
    url: '/api/plugins/telemetry/DEVICE/:id/keys/attributes',
    schema: { tags, summary: 'Client and shared attribute keys', params: DeviceParams, response: { 200: Type.Array(Type.String()), ...errors } },
    config: read,
  },
  scopeKeys: {
    method: 'GET',
    url: '/api/plugins/telemetry/DEVICE/:id/keys/attributes/:scope',
    schema: { tags, summary: 'Attribute keys of one scope', params: ReadParams, response: { 200: Type.Array(Type.String()), ...errors } },
    config: read,
  },
});
