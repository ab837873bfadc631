/**
 * The cloud link: the gateway as a ThingsBoard gateway device of a cloud's MQTT broker. Its state
 * (`/system/marginal-state`), the cloud events it owes the cloud (`/system/cloud-event`) and the
 * configuration page's connection test.
 */
import Type, { type Static } from 'typebox';
import { CloudConfigSchema } from './cloud.ts';
import { EpochMs, IdParamsSchema, PageQuerySchema } from './common.ts';
import { ErrorBodySchema } from './errors.ts';
import { defineRoutes } from './route.ts';

export const edgeStatuses = ['NOT_CONFIGURED', 'CONNECTING', 'CONNECTED', 'DISCONNECTED'] as const;
export const EdgeStatusSchema = Type.Enum(edgeStatuses);
export type EdgeStatus = (typeof edgeStatuses)[number];

export const cloudEventStatuses = ['PENDING', 'DEPLOYED', 'FAILED'] as const;
export const CloudEventStatusSchema = Type.Enum(cloudEventStatuses);
export type CloudEventStatus = (typeof cloudEventStatuses)[number];

export const cloudEntityTypes = ['DEVICE', 'DEVICE_PROFILE', 'ATTRIBUTE'] as const;
export const CloudEntityTypeSchema = Type.Enum(cloudEntityTypes);
export type CloudEntityType = (typeof cloudEntityTypes)[number];

/** What happened to the entity: each is one message on ThingsBoard's gateway topics. */
export const cloudEventKinds = ['CREATED', 'RENAMED', 'DELETED', 'PRODUCT_CHANGED', 'ATTRIBUTES_UPDATED', 'CONNECTED', 'DISCONNECTED'] as const;
export const CloudEventKindSchema = Type.Enum(cloudEventKinds);
export type CloudEventKind = (typeof cloudEventKinds)[number];

export const EdgeStateSchema = Type.Object({
  status: EdgeStatusSchema,
  /** The last connection failure in words (the broker's CONNACK code, a network or TLS error). */
  lastError: Type.Optional(Type.String()),
  /** The gateway's device name in the cloud: its serial, which is also the MQTT client id. */
  edgeName: Type.String(),
  /** The gateway's device id in the cloud, once the cloud told it (ThingsBoard does not over MQTT). */
  edgeId: Type.Optional(Type.String()),
  edgeType: Type.String(),
  /** The cloud key (the gateway device's access token or MQTT user name). */
  edgeKey: Type.String(),
  lastConnectTime: Type.Optional(EpochMs),
  lastDisconnectTime: Type.Optional(EpochMs),
  /** Stored telemetry values and device events not yet acknowledged by the cloud, and the oldest one's time. */
  backlog: Type.Object({ messages: Type.Integer({ minimum: 0 }), oldestTs: Type.Optional(EpochMs) }),
  /** Cloud events (device announcements and changes) the cloud has not acknowledged yet. */
  pendingCloudEvents: Type.Integer({ minimum: 0 }),
  /** Messages the cloud acknowledged since local midnight (kept across a restart). */
  sentToday: Type.Integer({ minimum: 0 }),
  /** Backlog values and events older than the retention (or too large for the cloud), dropped without being sent; kept across a restart. */
  dropped: Type.Integer({ minimum: 0 }),
});
export type EdgeState = Static<typeof EdgeStateSchema>;

export const EdgeSecretSchema = Type.Object({ edgeSecret: Type.String() });

export const CloudTestResultSchema = Type.Object({
  ok: Type.Boolean(),
  /** The broker's CONNACK return code (0 accepted), or -1 when no CONNACK came (network, TLS, timeout). */
  code: Type.Integer(),
  message: Type.String(),
});
export type CloudTestResult = Static<typeof CloudTestResultSchema>;

export const CloudEventSchema = Type.Object({
  id: Type.String(),
  entityName: Type.String(),
  entityType: CloudEntityTypeSchema,
  event: CloudEventKindSchema,
  status: CloudEventStatusSchema,
  /** Why the event is FAILED. */
  reason: Type.Optional(Type.String()),
  createdTime: EpochMs,
  deployedTime: Type.Optional(EpochMs),
});
export type CloudEvent = Static<typeof CloudEventSchema>;

export const CloudEventQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    status: Type.Optional(CloudEventStatusSchema),
    entityType: Type.Optional(CloudEntityTypeSchema),
    startTime: Type.Optional(EpochMs),
    endTime: Type.Optional(EpochMs),
  },
  { additionalProperties: false },
);
export type CloudEventQuery = Static<typeof CloudEventQuerySchema>;

export const CloudEventPageSchema = Type.Object({
  items: Type.Array(CloudEventSchema),
  total: Type.Integer(),
  /** Events per status over the whole table (the filters do not apply). */
  counts: Type.Object({ PENDING: Type.Integer(), DEPLOYED: Type.Integer(), FAILED: Type.Integer() }),
});
export type CloudEventPage = Static<typeof CloudEventPageSchema>;

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

export const cloudLinkRoutes = defineRoutes({
  test: {
    method: 'POST',
    url: '/api/yt/configuration/cloud/test',
    schema: {
      tags: ['cloud'],
      summary: 'Try the given cloud settings: connect once, answer the CONNACK code in words (within 10 s)',
      body: CloudConfigSchema,
      response: { 200: CloudTestResultSchema, ...errors },
    },
    // Like the configuration PUT: the activation wizard tests before an administrator exists.
    config: { access: 'setup', permission: 'system:config', licenseFree: true },
  },
  state: {
    method: 'GET',
    url: '/api/yt/edge/state',
    schema: {
      tags: ['cloud'],
      summary: 'The cloud link: status, identity, backlog, messages sent today (setup code during first boot)',
      response: { 200: EdgeStateSchema, ...errors },
    },
    // The activation wizard's "cloud data loading" wait reads it before an administrator exists,
    // as it saves and tests the cloud configuration; afterwards a signed-in user with the permission
    // and a valid licence (code 99 otherwise): system administration data, as over /api/ws.
    config: { access: 'setup', permission: 'edge:state' },
  },
  secret: {
    method: 'GET',
    url: '/api/yt/edge/state/secret',
    schema: { tags: ['cloud'], summary: 'The cloud secret in clear (administrators)', response: { 200: EdgeSecretSchema, ...errors } },
    config: { access: 'user', permission: 'edge:secret:view' },
  },
  events: {
    method: 'GET',
    url: '/api/yt/edge/cloud_event',
    schema: {
      tags: ['cloud'],
      summary: 'Cloud events, newest first, by status, entity type and time, with counts per status',
      querystring: CloudEventQuerySchema,
      response: { 200: CloudEventPageSchema, ...errors },
    },
    config: { access: 'user', permission: 'edge:cloud_event:list' },
  },
  retry: {
    method: 'POST',
    url: '/api/yt/edge/cloud_event/:id/retry',
    schema: { tags: ['cloud'], summary: 'Send a FAILED cloud event again (it becomes PENDING)', params: IdParamsSchema, response: { 200: CloudEventSchema, ...errors } },
    config: { access: 'user', permission: 'edge:cloud_event:retry' },
  },
});
