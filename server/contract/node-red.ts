/**
 * Soft gateway: managed Node-RED instances (`/api/yt/node_red`, shared/DESIGN.md §4 "Soft gateway").
 *
 * - An instance is a Node-RED runtime in its own process (server/cli/node-red-runtime.ts) with its
 *   own user dir, credential secret and port, bound to 127.0.0.1. `port` is chosen from the port
 *   range (server/contract/port-range.ts) when not given; a port outside the range or in use is
 *   `error.nodeRed.portUnavailable` on `port`.
 * - Without an installed `node-red` package every call that needs the runtime answers 503
 *   `error.nodeRed.notInstalled` (the spec's "the Node-RED service is not started"); the list still answers.
 * - Creating beyond `--node-red-max` (default 3): 400 code 41 `error.nodeRed.limitReached`.
 * - The editor is reachable only through `/soft-gateway/node-red/{id}/editor/`, with a ticket from
 *   `POST …/ticket` (single use, 60 s) that becomes an HttpOnly, SameSite=Strict cookie scoped to
 *   that instance's editor path.
 * - HTTP-in nodes answer at `/soft-gateway/node-red/{id}/http/…` without sign-in only while the
 *   instance's `exposeHttp` is on (default off; else 404); that path never reaches the editor or its admin API.
 * - Snapshots: taken on every deploy the proxy sees (POST …/editor/flows) and on demand; flows and
 *   the credentials still encrypted with the instance's secret. Rollback deploys one in full
 *   through Node-RED's admin API after snapshotting what it replaces. The newest 50 are kept.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DeleteResultSchema, EpochMs, IdParamsSchema, IdsBodySchema, Nullable, OkSchema, PageOf, PageQuerySchema, ResourceIdSchema } from './common.ts';
import { DESCRIPTION_MAX, NAME_MAX, NAME_PATTERN } from './validation.ts';

export const nodeRedStatuses = ['RUNNING', 'STOPPED', 'STARTING', 'CRASHED'] as const;
export const NodeRedStatusSchema = Type.Enum(nodeRedStatuses);
export type NodeRedStatus = (typeof nodeRedStatuses)[number];

/** The editor's path of an instance, as the proxy serves it and Node-RED's httpAdminRoot is set. */
export function nodeRedEditorPath(id: string): string {
  return `/soft-gateway/node-red/${id}/editor/`;
}

/** Where an instance's HTTP-in nodes answer when exposed (Node-RED's httpNodeRoot is this same path). */
export function nodeRedHttpPath(id: string): string {
  return `/soft-gateway/node-red/${id}/http/`;
}

/** How many snapshots an instance keeps (oldest go first). */
export const NODE_RED_SNAPSHOT_RETENTION = 50;
export const NOTE_MAX = 255;

export const NodeRedInstanceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  port: Type.Integer(),
  description: Type.String(),
  status: NodeRedStatusSchema,
  /** Whether the flows' HTTP-in nodes answer at nodeRedHttpPath(id) without the console's sign-in. */
  exposeHttp: Type.Boolean(),
  /** Resident memory of the instance's process while it runs (sampled every 5 s). */
  rssBytes: Type.Optional(Type.Integer({ minimum: 0 })),
  /** CPU of the instance's process over the last sample interval, in % of one core (over 100 on several cores). */
  cpuPercent: Type.Optional(Type.Number({ minimum: 0 })),
  /** While CRASHED: the last lines the process logged before it died (why it is restarting). */
  crashLog: Type.Optional(Type.Array(Type.String())),
  createdTime: EpochMs,
});
export type NodeRedInstance = Static<typeof NodeRedInstanceSchema>;

const nameSchema = Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: NAME_PATTERN });
const createProperties = {
  name: nameSchema,
  /** Omitted or null: the first free port of the port range. */
  port: Type.Optional(Nullable(Type.Integer({ minimum: 1024, maximum: 65535 }))),
  description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX })),
};
export const NodeRedCreateBodySchema = Type.Object(createProperties, { additionalProperties: false });
export type NodeRedCreateBody = Static<typeof NodeRedCreateBodySchema>;
/** The port of an existing instance changes only while it is stopped (or takes effect at its next start). */
export const NodeRedUpdateBodySchema = Type.Object(
  {
    id: ResourceIdSchema,
    ...createProperties,
    /** Omitted: unchanged. On: anyone reaching the gateway may call the flows' HTTP-in nodes (never the editor). */
    exposeHttp: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type NodeRedUpdateBody = Static<typeof NodeRedUpdateBodySchema>;

export const NodeRedPageSchema = PageOf(NodeRedInstanceSchema);
export type NodeRedPage = Static<typeof NodeRedPageSchema>;

/** Whether instances can run here at all, and how many may exist: the list page says so before anyone tries. */
export const NodeRedServiceSchema = Type.Object({ installed: Type.Boolean(), max: Type.Integer({ minimum: 0 }) });
export type NodeRedService = Static<typeof NodeRedServiceSchema>;

export const NodeRedLogSchema = Type.Object({ lines: Type.Array(Type.String()) });
export type NodeRedLog = Static<typeof NodeRedLogSchema>;

export const NodeRedTicketSchema = Type.Object({ ticket: Type.String(), editorUrl: Type.String() });
export type NodeRedTicket = Static<typeof NodeRedTicketSchema>;

export const snapshotSources = ['DEPLOY', 'MANUAL', 'ROLLBACK', 'INSTALL'] as const;
export const NodeRedSnapshotSchema = Type.Object({
  id: Type.String(),
  instanceId: Type.String(),
  note: Type.String(),
  /** DEPLOY: seen by the proxy; MANUAL: on demand; ROLLBACK: what a rollback replaced; INSTALL: before a protocol module was added. */
  source: Type.Enum(snapshotSources),
  nodeCount: Type.Integer({ minimum: 0 }),
  createdTime: EpochMs,
});
export type NodeRedSnapshot = Static<typeof NodeRedSnapshotSchema>;
export const NodeRedSnapshotPageSchema = PageOf(NodeRedSnapshotSchema);
export type NodeRedSnapshotPage = Static<typeof NodeRedSnapshotPageSchema>;
/** A flows file as Node-RED writes it: tabs, subflows, groups, nodes and config nodes in one array. */
const FlowsSchema = Type.Array(Type.Record(Type.String(), Type.Unknown()));
export const NodeRedSnapshotDetailSchema = Type.Object({ ...NodeRedSnapshotSchema.properties, flows: FlowsSchema });
export const NodeRedFlowsSchema = Type.Object({ flows: FlowsSchema });
export type NodeRedFlows = Static<typeof NodeRedFlowsSchema>;
export type NodeRedSnapshotDetail = Static<typeof NodeRedSnapshotDetailSchema>;
export const NodeRedSnapshotBodySchema = Type.Object({ note: Type.Optional(Type.String({ maxLength: NOTE_MAX })) }, { additionalProperties: false });
export const SnapshotParamsSchema = Type.Object({ id: ResourceIdSchema, snapshotId: ResourceIdSchema });

const tags = ['node-red'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 503: ErrorBodySchema };
const manage = { access: 'user', permission: 'soft_gateway:manage' } as const;

export const nodeRedRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/node_red',
    schema: { tags, summary: 'Node-RED instances with their status', querystring: PageQuerySchema, response: { 200: NodeRedPageSchema, ...errors } },
    config: manage,
  },
  service: {
    method: 'GET',
    url: '/api/yt/node_red/service',
    schema: { tags, summary: 'Whether a node-red package is installed, and the creation limit', response: { 200: NodeRedServiceSchema, ...errors } },
    config: manage,
  },
  get: {
    method: 'GET',
    url: '/api/yt/node_red/:id',
    schema: { tags, summary: 'One Node-RED instance', params: IdParamsSchema, response: { 200: NodeRedInstanceSchema, ...errors } },
    config: manage,
  },
  create: {
    method: 'POST',
    url: '/api/yt/node_red',
    schema: { tags, summary: 'Create an instance and start it', body: NodeRedCreateBodySchema, response: { 200: NodeRedInstanceSchema, ...errors } },
    config: manage,
  },
  update: {
    method: 'PUT',
    url: '/api/yt/node_red',
    schema: { tags, summary: 'Rename, describe or move an instance to another port (applied at its next start)', body: NodeRedUpdateBodySchema, response: { 200: NodeRedInstanceSchema, ...errors } },
    config: manage,
  },
  remove: {
    method: 'DELETE',
    url: '/api/yt/node_red',
    schema: { tags, summary: 'Stop and delete instances with their user dirs and snapshots', body: IdsBodySchema, response: { 200: DeleteResultSchema, ...errors } },
    config: manage,
  },
  start: {
    method: 'POST',
    url: '/api/yt/node_red/:id/start',
    schema: { tags, summary: 'Start an instance', params: IdParamsSchema, response: { 200: NodeRedInstanceSchema, ...errors } },
    config: manage,
  },
  stop: {
    method: 'POST',
    url: '/api/yt/node_red/:id/stop',
    schema: { tags, summary: 'Stop an instance', params: IdParamsSchema, response: { 200: NodeRedInstanceSchema, ...errors } },
    config: manage,
  },
  restart: {
    method: 'POST',
    url: '/api/yt/node_red/:id/restart',
    schema: { tags, summary: 'Restart an instance', params: IdParamsSchema, response: { 200: NodeRedInstanceSchema, ...errors } },
    config: manage,
  },
  log: {
    method: 'GET',
    url: '/api/yt/node_red/:id/log',
    schema: { tags, summary: 'The last lines the instance logged', params: IdParamsSchema, response: { 200: NodeRedLogSchema, ...errors } },
    config: manage,
  },
  ticket: {
    method: 'POST',
    url: '/api/yt/node_red/:id/ticket',
    schema: { tags, summary: 'A single-use ticket (60 s) opening the instance editor', params: IdParamsSchema, response: { 200: NodeRedTicketSchema, ...errors } },
    config: manage,
  },
  snapshots: {
    method: 'GET',
    url: '/api/yt/node_red/:id/snapshot',
    schema: { tags, summary: 'Snapshots of an instance, newest first', params: IdParamsSchema, querystring: PageQuerySchema, response: { 200: NodeRedSnapshotPageSchema, ...errors } },
    config: manage,
  },
  takeSnapshot: {
    method: 'POST',
    url: '/api/yt/node_red/:id/snapshot',
    schema: { tags, summary: 'Snapshot the running flows and their encrypted credentials', params: IdParamsSchema, body: NodeRedSnapshotBodySchema, response: { 200: NodeRedSnapshotSchema, ...errors } },
    config: manage,
  },
  flows: {
    method: 'GET',
    url: '/api/yt/node_red/:id/flows',
    schema: { tags, summary: 'The flows the instance has deployed now (its flows file), for the preview', params: IdParamsSchema, response: { 200: NodeRedFlowsSchema, ...errors } },
    config: manage,
  },
  snapshot: {
    method: 'GET',
    url: '/api/yt/node_red/:id/snapshot/:snapshotId',
    schema: { tags, summary: 'One snapshot with its flows', params: SnapshotParamsSchema, response: { 200: NodeRedSnapshotDetailSchema, ...errors } },
    config: manage,
  },
  rollback: {
    method: 'POST',
    url: '/api/yt/node_red/:id/snapshot/:snapshotId/rollback',
    schema: { tags, summary: 'Deploy a snapshot in full (what it replaces is snapshotted first)', params: SnapshotParamsSchema, response: { 200: OkSchema, ...errors } },
    config: manage,
  },
});
