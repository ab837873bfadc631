/**
 * The live websocket `/api/ws` (docs/API.md, Websocket): ThingsBoard's telemetry websocket protocol.
 *
 * Served on WS_PATH and on ThingsBoard's older WS_LEGACY_PATH alike.
 * Authentication: `?token=<access token>` on the URL (or `Authorization` / `X-Authorization: Bearer`
 * on the upgrade), or a first message
 * `{ "authCmd": { "cmdId": 0, "token": "…" } }` (it may carry `cmds` too) within
 * WS_AUTH_TIMEOUT_MS. A bad, expired or missing token, a missing or expired licence, or more than
 * WS_MAX_SOCKETS_PER_USER sockets of one user close the socket with WS_POLICY_VIOLATION (1008). A
 * logout or password change closes the user's sockets the same way.
 *
 * Then `{ "cmds": [ … ] }` with at most WS_MAX_CMDS_PER_MESSAGE commands (ThingsBoard's legacy
 * `{ tsSubCmds, historyCmds, attrSubCmds }` is accepted too and counts the same). A message that
 * is not JSON answers `errorCode` 23 (WsErrorCode.PARSE_ERROR) and the socket stays open; a
 * message over WS_MAX_MESSAGE_BYTES closes it (1009). Each command is answered on its `cmdId`:
 * - TIMESERIES: `scope: 'LATEST_TELEMETRY'` (or neither startTs nor timeWindow): the latest value
 *   of each key (all keys when `keys` is empty), then every stored value as it arrives. With
 *   `startTs` or `timeWindow`: the history of that window (interval, limit, agg as the REST
 *   history call), then arriving values (raw values with agg NONE; with an aggregation, the
 *   current bucket recomputed). `unsubscribe: true` or TIMESERIES_UNSUBSCRIBE ends it.
 * - TIMESERIES_HISTORY: one answer with the history of [startTs, endTs].
 * - ATTRIBUTES: the device's attributes (server-side ones: `active`, `deviceState`,
 *   `lastOnlineTime`, `lastOfflineTime`), then changes.
 * - ENTITY_DATA: latest values of DEVICE entities (`singleEntity` or `entityList` filter):
 *   ENTITY_FIELD (name, alias, label, deviceType, deviceProfileId, productName, createdTime,
 *   deviceState), TIME_SERIES keys and ATTRIBUTE keys, then updates (telemetry and state changes).
 *   Filters also `deviceType` (devices of the products named, ThingsBoard's device profiles) and
 *   `entityName` (names matched as ThingsBoard does: a case-insensitive prefix, or an ILIKE pattern
 *   when the filter starts or ends with `%`), at most WS_MAX_FILTERED_ENTITIES devices.
 *   `tsCmd { keys, startTs, timeWindow, interval, limit, agg }`: each entity's `timeseries`
 *   `{ key: [{ ts, value }] }` (values as text, raw points newest first, at most `limit`, default
 *   100) in the first answer, then `update: [{ entityId, latest: null, timeseries }]` with each
 *   value of those keys stored from startTs on. `historyCmd { keys, startTs, endTs, … }`: the same
 *   history, once. Sent again on a running cmdId without `query`, either replaces the time series
 *   and answers in `update`. `intervalType` other than MILLISECONDS is refused.
 * - ENTITY_COUNT: the number of devices (filter `entityType` DEVICE, `singleEntity`,
 *   `entityList`, `deviceType` or `entityName`), again when devices are created or deleted.
 * - COMMANDS (ours; ThingsBoard has no live RPC list): `{ type: 'COMMANDS', cmdId, entityType:
 *   'DEVICE', entityId }` follows the device's command records (server/contract/command.ts). The
 *   first answer `{ cmdId, subscriptionId, errorCode: 0, errorMsg: null, data: [],
 *   cmdUpdateType: 'COMMANDS' }` says the subscription is live (a client that lost its socket
 *   reloads its list then); every later answer has `data: [Command, …]`: each record as it is
 *   after a creation or status change (QUEUED, SENT, DELIVERED, SUCCESSFUL, …), in the order they
 *   happened. The list itself is read over HTTP (`GET /api/yt/device/{id}/command`, with paging).
 *   COMMANDS_UNSUBSCRIBE ends it.
 * - ALARM_DATA (ThingsBoard's shape): `query: { entityFilter?, pageLink: { page (0-based),
 *   pageSize, textSearch?, statusList?, severityList?, typeList?, startTs?, endTs?, timeWindow? } }`
 *   → first `{ cmdId, data: { data: AlarmData[], totalPages, totalElements, hasNext }, update: null,
 *   allowedEntities, totalEntities, cmdUpdateType: 'ALARM_DATA' }` (newest first), then
 *   `{ data: null, update: [AlarmData] }` for each created or changed alarm that matches the filter
 *   (or matched it before the change). statusList: ThingsBoard's search statuses ANY, ACTIVE,
 *   CLEARED, ACK, UNACK (all given must hold) or our four statuses (any of them). entityFilter:
 *   the devices' filters above; none = every alarm.
 * - ALARM_COUNT: `query: { entityFilter?, statusList?, severityList?, typeList? }` → `{ cmdId,
 *   count, cmdUpdateType: 'ALARM_COUNT_DATA' }`, again after each change of an alarm.
 * - NOTIFICATIONS `{ cmdId, limit }` (default 10): `{ cmdId, totalUnreadCount, notifications:
 *   [the newest `limit` unread], update: null, cmdUpdateType: 'NOTIFICATIONS' }`, then on a new one
 *   `{ update: Notification, totalUnreadCount, notifications: null }`, and after marks the whole
 *   list again. NOTIFICATIONS_COUNT `{ cmdId }`: `{ cmdId, totalUnreadCount, cmdUpdateType:
 *   'NOTIFICATIONS_COUNT' }`, again after each change. Both end with NOTIFICATIONS_UNSUBSCRIBE.
 *   MARK_NOTIFICATIONS_AS_READ `{ cmdId, notifications: [ids] }` and
 *   MARK_ALL_NOTIFICATIONS_AS_READ `{ cmdId }` mark the user's own; their subscriptions update.
 * - VIS_SHARE (ours, a guest command: server/live.ts) `{ type: 'VIS_SHARE', cmdId, shareToken }`
 *   as the first message of a socket without a token: the latest values of exactly the share
 *   link's bindings (`data`: device → key → { ts, value }, as its HTTP `latest`), then each stored
 *   value of those pairs. The socket is then a guest socket: guest commands only, no authCmd; at
 *   most WS_MAX_GUEST_SOCKETS_PER_ADDRESS per client address; an unknown, revoked or expired token
 *   answers NOT_FOUND, and the link's revocation or expiry closes the socket (WS_POLICY_VIOLATION).
 * - NODE_RED_TELEMETRY and NODE_RED_TCP (ours, guest commands of the soft gateway's palette nodes:
 *   server/contract/node-red-palette.ts) `{ cmdId, instanceId, secret, deviceId | productId }`
 *   from a running Node-RED instance over loopback: each stored message of the device (or of every
 *   device of the product), and each frame a custom TCP device sends, as they come.
 * TIMESERIES, TIMESERIES_HISTORY and ATTRIBUTES answer values as text (objects and arrays as JSON),
 * as ThingsBoard's websocket does; `useStrictDataTypes: true` on the command keeps their JSON type
 * (the console asks for it).
 * At most WS_MAX_SUBSCRIPTIONS live subscriptions per socket.
 */
import Type, { type Static } from 'typebox';
import type { EdgeState } from './cloud-link.ts';
import type { OtaDevice } from './ota.ts';
import type { Command } from './command.ts';
import type { Alarm } from './alarm.ts';
import { AlarmSeveritySchema, alarmStatuses } from './alarm.ts';
import type { Notification } from './notification.ts';
import type { SharedLiveUpdate } from './visualization.ts';
import type { PaletteTcpUpdate, PaletteTelemetryUpdate } from './node-red-palette.ts';
import { AggregationSchema, HISTORY_LIMIT_MAX } from './telemetry.ts';

export const WS_PATH = '/api/ws';
/** ThingsBoard's older path of the same protocol, served as WS_PATH. */
export const WS_LEGACY_PATH = '/api/ws/plugins/telemetry';
export const WS_MAX_CMDS_PER_MESSAGE = 10;
export const WS_MAX_MESSAGE_BYTES = 64 * 1024;
export const WS_MAX_SUBSCRIPTIONS = 100;
export const WS_MAX_SOCKETS_PER_USER = 20;
/** Guest sockets (share links, VIS_SHARE) per client address. */
export const WS_MAX_GUEST_SOCKETS_PER_ADDRESS = 20;
export const WS_AUTH_TIMEOUT_MS = 10_000;
/** Close code for refused authentication, revoked sessions and the per-user socket limit. */
export const WS_POLICY_VIOLATION = 1008;
/**
 * The server closed the socket because the user's scope changed (memberships, or the organization
 * tree): the client connects again and subscribes anew, and its answers follow the new scope.
 */
export const WS_SCOPE_CHANGED = 4001;
/** The console's client: reconnect after 2 s, close 90 s after the last subscriber. */
export const WS_RECONNECT_DELAY_MS = 2000;
export const WS_IDLE_CLOSE_MS = 90_000;

/** Query of the upgrade request: the access token (or send an authCmd first). */
export const WsQuerySchema = Type.Object({ token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })) });

/** `errorCode` of an update: ThingsBoard's subscription codes, 23 (not JSON), and two of ours. */
export const WsErrorCode = {
  NO_ERROR: 0,
  INTERNAL_ERROR: 1,
  BAD_REQUEST: 2,
  UNAUTHORIZED: 3,
  /** The message was not JSON. */
  PARSE_ERROR: 23,
  NOT_FOUND: 32,
  LIMIT_EXCEEDED: 41,
} as const;
export type WsErrorCode = (typeof WsErrorCode)[keyof typeof WsErrorCode];

/** Alarm and notification commands (server/contract/alarm.ts, server/contract/notification.ts). */
export const alarmWsCmdTypes = [
  'ALARM_DATA',
  'ALARM_COUNT',
  'NOTIFICATIONS',
  'NOTIFICATIONS_COUNT',
  'MARK_NOTIFICATIONS_AS_READ',
  'MARK_ALL_NOTIFICATIONS_AS_READ',
] as const;
/** Commands of features this version does not have yet: refused, never faked. */
export const unsupportedWsCmdTypes = [] as const;

/** Every command type of the protocol (`cmds[].type`), the unsupported ones included. */
export const wsCmdTypes = [
  'AUTH',
  'ATTRIBUTES',
  'TIMESERIES',
  'TIMESERIES_HISTORY',
  'ENTITY_DATA',
  'ENTITY_COUNT',
  'COMMANDS',
  ...alarmWsCmdTypes,
  'EDGE_STATE',
  'OTA_PROGRESS',
  'VIS_SHARE',
  'NODE_RED_TELEMETRY',
  'NODE_RED_TCP',
  ...unsupportedWsCmdTypes,
  'ATTRIBUTES_UNSUBSCRIBE',
  'TIMESERIES_UNSUBSCRIBE',
  'ENTITY_DATA_UNSUBSCRIBE',
  'ENTITY_COUNT_UNSUBSCRIBE',
  'COMMANDS_UNSUBSCRIBE',
  'EDGE_STATE_UNSUBSCRIBE',
  'OTA_PROGRESS_UNSUBSCRIBE',
  'ALARM_DATA_UNSUBSCRIBE',
  'ALARM_COUNT_UNSUBSCRIBE',
  'NOTIFICATIONS_UNSUBSCRIBE',
  'VIS_SHARE_UNSUBSCRIBE',
  'NODE_RED_TELEMETRY_UNSUBSCRIBE',
  'NODE_RED_TCP_UNSUBSCRIBE',
] as const;
export type WsCmdType = (typeof wsCmdTypes)[number];

const CmdId = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });
const EntityId = Type.String({ minLength: 1, maxLength: 64 });
/** Comma-separated keys (ThingsBoard) or a list. */
const KeysSchema = Type.Union([
  Type.String({ maxLength: 4096 }),
  Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 100 }),
]);
const Ms = Type.Integer({ minimum: 0 });

export const AuthCmdSchema = Type.Object({ cmdId: Type.Optional(CmdId), token: Type.String({ minLength: 1, maxLength: 4096 }) });
export type AuthCmd = Static<typeof AuthCmdSchema>;

export const TimeseriesCmdSchema = Type.Object({
  cmdId: CmdId,
  entityType: Type.Optional(Type.Literal('DEVICE')),
  entityId: Type.Optional(EntityId),
  keys: Type.Optional(KeysSchema),
  scope: Type.Optional(Type.Literal('LATEST_TELEMETRY')),
  startTs: Type.Optional(Ms),
  timeWindow: Type.Optional(Type.Integer({ minimum: 1 })),
  interval: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_LIMIT_MAX })),
  agg: Type.Optional(AggregationSchema),
  unsubscribe: Type.Optional(Type.Boolean()),
  /** Ours: values keep their JSON type; left out, they come as text, as ThingsBoard sends them. */
  useStrictDataTypes: Type.Optional(Type.Boolean()),
});
export type TimeseriesCmd = Static<typeof TimeseriesCmdSchema>;

export const HistoryCmdSchema = Type.Object({
  cmdId: CmdId,
  entityType: Type.Optional(Type.Literal('DEVICE')),
  entityId: EntityId,
  keys: KeysSchema,
  startTs: Ms,
  endTs: Ms,
  interval: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_LIMIT_MAX })),
  agg: Type.Optional(AggregationSchema),
  /** Ours: values keep their JSON type; left out, they come as text, as ThingsBoard sends them. */
  useStrictDataTypes: Type.Optional(Type.Boolean()),
});
export type HistoryCmd = Static<typeof HistoryCmdSchema>;

export const attributeScopes = ['CLIENT_SCOPE', 'SERVER_SCOPE', 'SHARED_SCOPE'] as const;
export const AttributesCmdSchema = Type.Object({
  cmdId: CmdId,
  entityType: Type.Optional(Type.Literal('DEVICE')),
  entityId: Type.Optional(EntityId),
  keys: Type.Optional(KeysSchema),
  scope: Type.Optional(Type.Enum(attributeScopes)),
  unsubscribe: Type.Optional(Type.Boolean()),
  /** Ours: values keep their JSON type; left out, they come as text, as ThingsBoard sends them. */
  useStrictDataTypes: Type.Optional(Type.Boolean()),
});
export type AttributesCmd = Static<typeof AttributesCmdSchema>;

const EntityRef = Type.Object({ entityType: Type.Literal('DEVICE'), id: EntityId });
export const EntityFilterSchema = Type.Union([
  Type.Object({ type: Type.Literal('singleEntity'), singleEntity: EntityRef }),
  Type.Object({
    type: Type.Literal('entityList'),
    entityType: Type.Literal('DEVICE'),
    entityList: Type.Array(EntityId, { maxItems: 100 }),
  }),
  Type.Object({ type: Type.Literal('entityType'), entityType: Type.Literal('DEVICE') }),
  /**
   * ThingsBoard's device profiles are our products: devices of the products named in `deviceTypes`
   * (or the older single `deviceType`) whose name matches `deviceNameFilter` (server/lib/entity-filters.ts).
   */
  Type.Object({
    type: Type.Literal('deviceType'),
    deviceType: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    deviceTypes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { minItems: 1, maxItems: 100 })),
    deviceNameFilter: Type.Optional(Type.String({ maxLength: 255 })),
  }),
  /** Devices whose name matches `entityNameFilter`, as ThingsBoard matches it (server/lib/entity-filters.ts). */
  Type.Object({ type: Type.Literal('entityName'), entityType: Type.Literal('DEVICE'), entityNameFilter: Type.String({ maxLength: 255 }) }),
]);
export type EntityFilter = Static<typeof EntityFilterSchema>;

export const entityKeyTypes = ['ENTITY_FIELD', 'TIME_SERIES', 'ATTRIBUTE', 'SERVER_ATTRIBUTE', 'CLIENT_ATTRIBUTE', 'SHARED_ATTRIBUTE'] as const;
export type EntityKeyType = (typeof entityKeyTypes)[number];
export const EntityKeySchema = Type.Object({ type: Type.Enum(entityKeyTypes), key: Type.String({ minLength: 1, maxLength: 128 }) });
export type EntityKey = Static<typeof EntityKeySchema>;
const EntityKeys = Type.Array(EntityKeySchema, { maxItems: 100 });

/** Most devices a filter (`deviceType`, `entityName`) brings into one ENTITY_DATA subscription; more are counted in `totalElements`. */
export const WS_MAX_FILTERED_ENTITIES = 100;

/** Fields of ThingsBoard's time-series commands that ask for what this version does not do (calendar intervals, time zones). */
const TsCmdCommon = {
  keys: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 100 }),
  /** Bucket width in ms for an aggregation; ThingsBoard's UI sends 0 with agg NONE. */
  interval: Type.Optional(Type.Integer({ minimum: 0 })),
  intervalType: Type.Optional(Type.Literal('MILLISECONDS')),
  timeZoneId: Type.Optional(Type.String({ maxLength: 64 })),
  /** 0 (or none) is ThingsBoard's default, HISTORY_LIMIT_DEFAULT. */
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: HISTORY_LIMIT_MAX })),
  agg: Type.Optional(AggregationSchema),
  /** Accepted, not used: the point before the window is not fetched. */
  fetchLatestPreviousPoint: Type.Optional(Type.Boolean()),
};

/** ENTITY_DATA's `tsCmd`: the history of [startTs, startTs + timeWindow], then values as they are stored. */
export const EntityTsCmdSchema = Type.Object({ ...TsCmdCommon, startTs: Ms, timeWindow: Type.Integer({ minimum: 0 }) });
export type EntityTsCmd = Static<typeof EntityTsCmdSchema>;
/** ENTITY_DATA's `historyCmd`: the history of [startTs, endTs], once. */
export const EntityHistoryCmdSchema = Type.Object({ ...TsCmdCommon, startTs: Ms, endTs: Ms });
export type EntityHistoryCmd = Static<typeof EntityHistoryCmdSchema>;

export const EntityDataCmdSchema = Type.Object({
  cmdId: CmdId,
  query: Type.Optional(
    Type.Object({
      entityFilter: EntityFilterSchema,
      entityFields: Type.Optional(EntityKeys),
      latestValues: Type.Optional(EntityKeys),
    }),
  ),
  /** Extra latest keys to follow (ThingsBoard sends them here when it adds keys to a subscription). */
  latestCmd: Type.Optional(Type.Object({ keys: EntityKeys })),
  tsCmd: Type.Optional(EntityTsCmdSchema),
  historyCmd: Type.Optional(EntityHistoryCmdSchema),
});
export type EntityDataCmd = Static<typeof EntityDataCmdSchema>;

export const EntityCountCmdSchema = Type.Object({
  cmdId: CmdId,
  query: Type.Object({ entityFilter: EntityFilterSchema }),
});
export type EntityCountCmd = Static<typeof EntityCountCmdSchema>;

/** COMMANDS: the command records of one device, live. */
export const CommandsCmdSchema = Type.Object({
  cmdId: CmdId,
  entityType: Type.Optional(Type.Literal('DEVICE')),
  entityId: EntityId,
});
export type CommandsCmd = Static<typeof CommandsCmdSchema>;

/** ThingsBoard's alarm search statuses, and our four statuses. */
export const alarmSearchStatuses = ['ANY', 'ACTIVE', 'CLEARED', 'ACK', 'UNACK', ...alarmStatuses] as const;
export const AlarmSearchStatusSchema = Type.Enum(alarmSearchStatuses);
export type AlarmSearchStatus = (typeof alarmSearchStatuses)[number];

const AlarmFilterFields = {
  statusList: Type.Optional(Type.Array(AlarmSearchStatusSchema, { maxItems: 10 })),
  severityList: Type.Optional(Type.Array(AlarmSeveritySchema, { maxItems: 5 })),
  typeList: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50 })),
  /** Accepted, not used: alarms are raised on devices only. */
  searchPropagatedAlarms: Type.Optional(Type.Boolean()),
};

/** ALARM_DATA: a page of alarms, then changes. */
export const AlarmDataCmdSchema = Type.Object({
  cmdId: CmdId,
  query: Type.Object({
    entityFilter: Type.Optional(EntityFilterSchema),
    pageLink: Type.Object({
      /** 0-based, as ThingsBoard. */
      page: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
      pageSize: Type.Integer({ minimum: 1, maximum: 100 }),
      /** Part of the alarm type, scene or device name. */
      textSearch: Type.Optional(Type.String({ maxLength: 255 })),
      ...AlarmFilterFields,
      startTs: Type.Optional(Ms),
      endTs: Type.Optional(Ms),
      /** The last `timeWindow` ms (instead of startTs). */
      timeWindow: Type.Optional(Type.Integer({ minimum: 1 })),
      /** Accepted; the order is always createdTime, newest first. */
      sortOrder: Type.Optional(Type.Object({}, { additionalProperties: true })),
    }),
    alarmFields: Type.Optional(EntityKeys),
    entityFields: Type.Optional(EntityKeys),
    latestValues: Type.Optional(EntityKeys),
  }),
});
export type AlarmDataCmd = Static<typeof AlarmDataCmdSchema>;

/** ALARM_COUNT: how many alarms match, then again after changes. */
export const AlarmCountCmdSchema = Type.Object({
  cmdId: CmdId,
  query: Type.Optional(Type.Object({ entityFilter: Type.Optional(EntityFilterSchema), ...AlarmFilterFields })),
});
export type AlarmCountCmd = Static<typeof AlarmCountCmdSchema>;

export const NOTIFICATIONS_LIMIT_DEFAULT = 10;
export const NotificationsCmdSchema = Type.Object({ cmdId: CmdId, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) });
export type NotificationsCmd = Static<typeof NotificationsCmdSchema>;
export const NotificationsCountCmdSchema = Type.Object({ cmdId: CmdId });
export const MarkNotificationsAsReadCmdSchema = Type.Object({
  cmdId: CmdId,
  notifications: Type.Array(EntityId, { minItems: 1, maxItems: 1000 }),
});
export type MarkNotificationsAsReadCmd = Static<typeof MarkNotificationsAsReadCmdSchema>;
export const MarkAllNotificationsAsReadCmdSchema = Type.Object({ cmdId: CmdId });
/** EDGE_STATE (not ThingsBoard's): the cloud link's state (`GET /api/yt/edge/state`'s body) now and whenever it changes. */
export const EdgeStateCmdSchema = Type.Object({ cmdId: CmdId });
export type EdgeStateCmd = Static<typeof EdgeStateCmdSchema>;

export const UnsubscribeCmdSchema = Type.Object({ cmdId: CmdId });

/** What a client sends (after `JSON.parse`); every part optional. */
export interface WsClientMessage {
  authCmd?: AuthCmd;
  cmds?: ({ type: string } & Record<string, unknown>)[]; // `type`: a WsCmdType from a correct client
  tsSubCmds?: TimeseriesCmd[];
  historyCmds?: HistoryCmd[];
  attrSubCmds?: AttributesCmd[];
}

/**
 * `[ts, value]` pairs per key, oldest first. A value that did not match the published thing model
 * carries the reason as a third element (`[ts, value, flag]`); ThingsBoard clients ignore it.
 */
export type TsData = Record<string, ([number, unknown] | [number, unknown, string])[]>;

/** TIMESERIES, TIMESERIES_HISTORY and ATTRIBUTES answers (ThingsBoard's telemetry update). */
export interface TelemetryUpdate {
  subscriptionId: number;
  cmdId: number;
  errorCode: WsErrorCode;
  errorMsg: string | null;
  data: TsData | null;
  /** Newest ts per key in `data`. */
  latestValues?: Record<string, number>;
  cmdUpdateType: 'TIMESERIES' | 'TIMESERIES_HISTORY' | 'ATTRIBUTES' | null;
}

export interface TsValue {
  ts: number;
  value: unknown;
}

/** A time-series point of ENTITY_DATA's `timeseries`: the value as text, as ThingsBoard sends it. */
export interface TsTextValue {
  ts: number;
  value: string;
}

export interface EntityData {
  entityId: { entityType: 'DEVICE'; id: string };
  /** Requested key type → key → latest value. */
  latest: Partial<Record<EntityKeyType, Record<string, TsValue>>>;
  /** `tsCmd` / `historyCmd` points per key (raw ones newest first); empty without them. */
  timeseries: Record<string, TsTextValue[]>;
}

/** An entity in a time-series update of ENTITY_DATA (`tsCmd`): no latest values, as ThingsBoard sends it. */
export interface EntityTimeseriesData {
  entityId: { entityType: 'DEVICE'; id: string };
  latest: null;
  timeseries: Record<string, TsTextValue[]>;
}

export interface EntityDataUpdate {
  cmdId: number;
  errorCode: WsErrorCode;
  errorMsg: string | null;
  /** The first answer: a page holding every matched entity. */
  data: { data: EntityData[]; totalPages: number; totalElements: number; hasNext: boolean } | null;
  /** Later answers: what changed. */
  update: EntityData[] | null;
  cmdUpdateType: 'ENTITY_DATA';
}

/** ENTITY_DATA answers that bring new time-series values of a `tsCmd`, or a repeated `tsCmd`/`historyCmd`'s points. */
export interface EntityTimeseriesUpdate {
  cmdId: number;
  errorCode: WsErrorCode;
  errorMsg: string | null;
  data: null;
  update: (EntityTimeseriesData | EntityData)[];
  cmdUpdateType: 'ENTITY_DATA';
}

export interface EntityCountUpdate {
  cmdId: number;
  errorCode: WsErrorCode;
  errorMsg: string | null;
  count: number;
  cmdUpdateType: 'COUNT_DATA';
}

/** COMMANDS answers: none at first, then the records that changed. */
export interface CommandsUpdate {
  subscriptionId: number;
  cmdId: number;
  errorCode: WsErrorCode;
  errorMsg: string | null;
  data: Command[];
  cmdUpdateType: 'COMMANDS';
}

/** An alarm as ALARM_DATA sends it: the alarm with ThingsBoard's originator fields. */
export type AlarmData = Alarm & {
  entityId: { entityType: 'DEVICE'; id: string } | null;
  originatorName: string | null;
  latest: Record<string, never>;
};

export interface AlarmDataUpdate {
  cmdId: number;
  errorCode: WsErrorCode;
  errorMsg: string | null;
  data: { data: AlarmData[]; totalPages: number; totalElements: number; hasNext: boolean } | null;
  update: AlarmData[] | null;
  allowedEntities: number;
  totalEntities: number;
  cmdUpdateType: 'ALARM_DATA';
}

export interface AlarmCountUpdate {
  cmdId: number;
  errorCode: WsErrorCode;
  errorMsg: string | null;
  count: number;
  cmdUpdateType: 'ALARM_COUNT_DATA';
}

export interface NotificationsUpdate {
  cmdId: number;
  errorCode: WsErrorCode;
  errorMsg: string | null;
  totalUnreadCount: number;
  /** The newest unread (first answer and after marks), else null. */
  notifications: Notification[] | null;
  /** A new notification, else null. */
  update: Notification | null;
  cmdUpdateType: 'NOTIFICATIONS';
}

export interface NotificationsCountUpdate {
  cmdId: number;
  errorCode: WsErrorCode;
  errorMsg: string | null;
  totalUnreadCount: number;
  cmdUpdateType: 'NOTIFICATIONS_COUNT';
}

/** EDGE_STATE answers: the whole state each time. */
export interface EdgeStateUpdate {
  subscriptionId: number;
  cmdId: number;
  errorCode: WsErrorCode;
  errorMsg: string | null;
  data: EdgeState;
  cmdUpdateType: 'EDGE_STATE';
}

/** OTA_PROGRESS answers (server/contract/ota.ts): a firmware's device list, whole, now and at every change. */
export interface OtaProgressUpdate {
  subscriptionId: number;
  cmdId: number;
  errorCode: WsErrorCode;
  errorMsg: string | null;
  data: OtaDevice[];
  cmdUpdateType: 'OTA_PROGRESS';
}

/** An answer that only reports a failure (unknown, unsupported or invalid command). */
export interface ErrorUpdate {
  cmdId: number;
  subscriptionId: number;
  errorCode: WsErrorCode;
  errorMsg: string;
  data: null;
  cmdUpdateType: string | null;
}

export type WsUpdate =
  | TelemetryUpdate
  | EntityDataUpdate
  | EntityTimeseriesUpdate
  | EntityCountUpdate
  | CommandsUpdate
  | AlarmDataUpdate
  | AlarmCountUpdate
  | NotificationsUpdate
  | NotificationsCountUpdate
  | EdgeStateUpdate
  | OtaProgressUpdate
  | SharedLiveUpdate
  | PaletteTelemetryUpdate
  | PaletteTcpUpdate
  | ErrorUpdate;
