/**
 * Protocol modules (`/api/yt/protocol_module`, spec sections 2, 3, 5): a vendor's Node-RED flow or
 * subflow template in one JSON file (≤ 5 MB) with its name, type, description, corporate name and
 * certificate, kept by the gateway and installed into a Node-RED instance on demand.
 *
 * - Upload: the module file itself is the request body (`application/json`). Past 5 MB: 413
 *   `error.payloadTooLarge`; not JSON: 400 `error.validation`; a field missing or wrong: 400 with a
 *   detail per field; `flow` not a Node-RED flow (an array of objects each with a string `id` and
 *   `type`, at least one of them a node or a subflow): 400 `error.protocolModule.notAFlow`.
 * - Install: the instance's flows are snapshotted (source INSTALL), then the module's items are
 *   added under new ids (so a module installs twice without clashing) through the instance's admin
 *   API; a flow without a tab of its own gets one named after the module.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DeleteResultSchema, EpochMs, IdParamsSchema, IdsBodySchema, PageOf, PageQuerySchema, ResourceIdSchema } from './common.ts';
import { DESCRIPTION_MAX, NAME_MAX } from './validation.ts';

export const PROTOCOL_MODULE_MAX_BYTES = 5 * 1024 * 1024;
export const CERTIFICATE_MAX = 8192;

export const protocolModuleKinds = ['FLOW', 'SUBFLOW'] as const;
export type ProtocolModuleKind = (typeof protocolModuleKinds)[number];

const text = (max: number, min = 0): ReturnType<typeof Type.String> => Type.String({ minLength: min, maxLength: max });

/** The file's shape. `flow` is checked further by the service (ids, types, something to draw). */
export const ProtocolModuleFileSchema = Type.Object({
  name: text(NAME_MAX, 1),
  /** The protocol's kind as the vendor names it, e.g. "Modbus meter" or "DL/T 645". */
  type: text(NAME_MAX, 1),
  description: Type.Optional(text(DESCRIPTION_MAX)),
  corporateName: text(NAME_MAX, 1),
  /** The vendor's certificate or licence text (PEM or free text). */
  certificate: Type.Optional(text(CERTIFICATE_MAX)),
  flow: Type.Array(Type.Record(Type.String(), Type.Unknown())),
});
export type ProtocolModuleFile = Static<typeof ProtocolModuleFileSchema>;

export const ProtocolModuleSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  description: Type.String(),
  corporateName: Type.String(),
  certificate: Type.String(),
  kind: Type.Enum(protocolModuleKinds),
  nodeCount: Type.Integer({ minimum: 0 }),
  sizeBytes: Type.Integer({ minimum: 0 }),
  createdTime: EpochMs,
});
export type ProtocolModule = Static<typeof ProtocolModuleSchema>;
export const ProtocolModulePageSchema = PageOf(ProtocolModuleSchema);
export const ProtocolModuleInstallBodySchema = Type.Object({ instanceId: ResourceIdSchema }, { additionalProperties: false });
export const ProtocolModuleInstallSchema = Type.Object({ snapshotId: Type.String(), added: Type.Integer({ minimum: 0 }) });
export type ProtocolModuleInstall = Static<typeof ProtocolModuleInstallSchema>;

const tags = ['protocol-module'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 413: ErrorBodySchema, 502: ErrorBodySchema, 503: ErrorBodySchema };
const manage = { access: 'user', permission: 'soft_gateway:manage' } as const;

export const protocolModuleRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/protocol_module',
    schema: { tags, summary: 'Protocol modules, newest first', querystring: PageQuerySchema, response: { 200: ProtocolModulePageSchema, ...errors } },
    config: manage,
  },
  get: {
    method: 'GET',
    url: '/api/yt/protocol_module/:id',
    schema: { tags, summary: 'One protocol module', params: IdParamsSchema, response: { 200: ProtocolModuleSchema, ...errors } },
    config: manage,
  },
  upload: {
    method: 'POST',
    url: '/api/yt/protocol_module',
    schema: { tags, summary: 'Upload a module file (JSON, at most 5 MB)', body: ProtocolModuleFileSchema, response: { 200: ProtocolModuleSchema, ...errors } },
    config: manage,
  },
  download: {
    method: 'GET',
    url: '/api/yt/protocol_module/:id/download',
    schema: { tags, summary: 'The module file as uploaded', params: IdParamsSchema, response: { 200: ProtocolModuleFileSchema, ...errors } },
    config: manage,
  },
  remove: {
    method: 'DELETE',
    url: '/api/yt/protocol_module',
    schema: { tags, summary: 'Delete modules (instances they were installed into keep their flows)', body: IdsBodySchema, response: { 200: DeleteResultSchema, ...errors } },
    config: manage,
  },
  install: {
    method: 'POST',
    url: '/api/yt/protocol_module/:id/install',
    schema: { tags, summary: "Add the module's flow or subflow to a running instance (snapshotted first)", params: IdParamsSchema, body: ProtocolModuleInstallBodySchema, response: { 200: ProtocolModuleInstallSchema, ...errors } },
    config: manage,
  },
});
