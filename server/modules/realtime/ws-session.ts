/**
 * One websocket of /api/ws: authentication (query token or first authCmd), the commands of each
 * message, and the socket's subscriptions. Every failure of a command is answered on its cmdId
 * and leaves the socket open; only authentication problems close it (1008).
 */
import type { WebSocket } from 'ws';
import type { AuthUser } from '../../core.ts';
import { ErrorCode, type ErrorKey } from '../../contract/errors.ts';
import {
  AlarmCountCmdSchema,
  AlarmDataCmdSchema,
  AttributesCmdSchema,
  CommandsCmdSchema,
  MarkAllNotificationsAsReadCmdSchema,
  MarkNotificationsAsReadCmdSchema,
  NotificationsCmdSchema,
  NotificationsCountCmdSchema,
  EdgeStateCmdSchema,
  EntityCountCmdSchema,
  EntityDataCmdSchema,
  HistoryCmdSchema,
  TimeseriesCmdSchema,
  UnsubscribeCmdSchema,
  WS_MAX_SUBSCRIPTIONS,
  WS_POLICY_VIOLATION,
  WsErrorCode,
  unsupportedWsCmdTypes,
  type AlarmCountCmd,
  type AlarmDataCmd,
  type AttributesCmd,
  type MarkNotificationsAsReadCmd,
  type NotificationsCmd,
  type CommandsCmd,
  type EntityCountCmd,
  type EntityDataCmd,
  type ErrorUpdate,
  type HistoryCmd,
  type TimeseriesCmd,
  type WsUpdate,
} from '../../contract/realtime.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Language } from '../../contract/languages.ts';
import { roleHolds, type Permission } from '../../contract/permissions.ts';
import { translate } from '../../lib/messages.ts';
import {
  AlarmCountSubscription,
  AlarmDataSubscription,
  NotificationsCountSubscription,
  NotificationsSubscription,
} from './alarm-subscriptions.ts';
import { CommandsSubscription } from './command-subscription.ts';
import { EdgeStateSubscription } from './edge-state-subscription.ts';
import { toTsData, type LiveData } from './live-data.ts';
import {
  AttributesSubscription,
  EntityCountSubscription,
  EntityDataSubscription,
  keyList,
  TimeseriesSubscription,
  type LiveSink,
  type Subscription,
} from './live-subscriptions.ts';
import { parseClientMessage, schemaProblem, type ClientCmd } from './ws-messages.ts';

/** What a session needs from the hub that owns every session. */
export interface SessionHost {
  data: LiveData;
  /** The user behind a token, or why not (a key for the close reason). */
  authenticate(token: string): AuthUser | ErrorKey;
  /** The live data `user` may see (organization scoping); null for a role without device telemetry. */
  dataFor(user: AuthUser): LiveData | null;
  /** Registers the session under its user; false when the user has too many sockets. */
  admit(session: WsSession): boolean;
  /** The token the session holds now, checked again from time to time. */
  authenticated(session: WsSession, token: string): void;
  subscribe(session: WsSession, sub: Subscription): void;
  unsubscribe(session: WsSession, sub: Subscription): void;
  remove(session: WsSession): void;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Close reasons stay short: the protocol allows 123 bytes. */
const closeReasons: Partial<Record<ErrorKey, string>> = {
  'error.auth.required': 'authentication required',
  'error.auth.tokenExpired': 'token expired',
  'error.auth.tokenInvalid': 'invalid token',
  'error.auth.passwordChangeRequired': 'password change required',
  'error.license.required': 'licence required',
  'error.license.expired': 'licence expired',
};

/** The close reason for an authentication refusal. */
export function closeReasonOf(key: ErrorKey): string {
  return closeReasons[key] ?? 'unauthorized';
}

const unsupported = new Set<string>(unsupportedWsCmdTypes);

const updateTypes: Record<string, string> = {
  TIMESERIES: 'TIMESERIES',
  TIMESERIES_HISTORY: 'TIMESERIES_HISTORY',
  ATTRIBUTES: 'ATTRIBUTES',
  ENTITY_DATA: 'ENTITY_DATA',
  ENTITY_COUNT: 'COUNT_DATA',
  COMMANDS: 'COMMANDS',
  EDGE_STATE: 'EDGE_STATE',
  ALARM_DATA: 'ALARM_DATA',
  ALARM_COUNT: 'ALARM_COUNT_DATA',
  NOTIFICATIONS: 'NOTIFICATIONS',
  NOTIFICATIONS_COUNT: 'NOTIFICATIONS_COUNT',
};

/** Past this many unsent bytes the client is not reading: drop it rather than buffer without end. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export class WsSession implements LiveSink {
  user: AuthUser | null = null;
  /** The device data this session's user may see (null: their role reads no device telemetry). */
  private data: LiveData | null = null;
  /** Set by the hub's keep-alive: false until the next pong. */
  alive = true;
  private readonly subscriptions = new Map<number, Subscription>();
  private closed = false;

  constructor(
    readonly socket: WebSocket,
    private readonly host: SessionHost,
    readonly lang: Language,
  ) {}

  /** Authenticates with the URL's token; false when the socket was closed for it. */
  authenticate(token: string): boolean {
    const who = this.host.authenticate(token);
    if (typeof who === 'string') {
      this.close(WS_POLICY_VIOLATION, closeReasonOf(who));
      return false;
    }
    if (this.user) {
      // A fresh token of the same user (after a refresh) is welcome; another user is not.
      if (this.user.id !== who.id) {
        this.close(WS_POLICY_VIOLATION, 'another user');
        return false;
      }
    } else {
      this.user = who;
      this.data = this.host.dataFor(who);
      if (!this.host.admit(this)) {
        this.close(WS_POLICY_VIOLATION, 'too many connections');
        return false;
      }
    }
    this.host.authenticated(this, token);
    return true;
  }

  handle(text: string): void {
    // Frames still in flight after a close must not subscribe anything: nothing would remove it.
    if (this.closed) return;
    const message = parseClientMessage(text);
    if (!this.user && !(message.ok && message.token)) {
      // Until authenticated only an authCmd is listened to.
      this.close(WS_POLICY_VIOLATION, 'authentication required');
      return;
    }
    if (!message.ok) {
      this.sendError(0, null, message.errorCode, message.key, message.params);
      return;
    }
    if (message.token && !this.authenticate(message.token)) return;
    for (const cmd of message.cmds) {
      if (this.closed) return;
      try {
        this.run(cmd);
      } catch (err) {
        this.failed(cmd, err);
      }
    }
  }

  send(update: WsUpdate): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(1013, 'too slow');
      return;
    }
    this.socket.send(JSON.stringify(update));
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.close(code, reason);
    this.dispose();
  }

  /** Drops every subscription; called once the socket closes, however it closed. */
  dispose(): void {
    this.closed = true;
    for (const sub of this.subscriptions.values()) {
      sub.close();
      this.host.unsubscribe(this, sub);
    }
    this.subscriptions.clear();
    this.host.remove(this);
  }

  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  private run(cmd: ClientCmd): void {
    const type = cmd.type;
    const unsubscribeFlag = cmd.body.unsubscribe === true;
    if (type.endsWith('_UNSUBSCRIBE') || ((type === 'TIMESERIES' || type === 'ATTRIBUTES') && unsubscribeFlag)) {
      this.check(cmd, UnsubscribeCmdSchema);
      this.drop(cmd.cmdId);
      return;
    }
    switch (type) {
      case 'TIMESERIES':
        this.start(cmd, new TimeseriesSubscription(cmd.cmdId, this, this.devices, this.check<TimeseriesCmd>(cmd, TimeseriesCmdSchema)));
        return;
      case 'TIMESERIES_HISTORY':
        this.history(this.check<HistoryCmd>(cmd, HistoryCmdSchema));
        return;
      case 'ATTRIBUTES':
        this.start(cmd, new AttributesSubscription(cmd.cmdId, this, this.devices, this.check<AttributesCmd>(cmd, AttributesCmdSchema)));
        return;
      case 'ENTITY_DATA':
        this.entityData(cmd, this.check<EntityDataCmd>(cmd, EntityDataCmdSchema));
        return;
      case 'ENTITY_COUNT': {
        const body = this.check<EntityCountCmd>(cmd, EntityCountCmdSchema);
        this.start(cmd, new EntityCountSubscription(cmd.cmdId, this, this.devices, body.query.entityFilter));
        return;
      }
      case 'COMMANDS':
        // The same permission as the command records' HTTP list (server/contract/command.ts).
        this.requirePermission('device:command');
        this.start(cmd, new CommandsSubscription(cmd.cmdId, this, this.devices, this.check<CommandsCmd>(cmd, CommandsCmdSchema)));
        return;
      case 'ALARM_DATA':
        this.start(cmd, new AlarmDataSubscription(cmd.cmdId, this, this.devices, this.devices.alarms, this.check<AlarmDataCmd>(cmd, AlarmDataCmdSchema)));
        return;
      case 'ALARM_COUNT':
        this.start(cmd, new AlarmCountSubscription(cmd.cmdId, this, this.devices, this.devices.alarms, this.check<AlarmCountCmd>(cmd, AlarmCountCmdSchema)));
        return;
      case 'NOTIFICATIONS': {
        const body = this.check<NotificationsCmd>(cmd, NotificationsCmdSchema);
        this.start(cmd, new NotificationsSubscription(cmd.cmdId, this, this.host.data, this.user!.id, this.host.data.notifications, body));
        return;
      }
      case 'NOTIFICATIONS_COUNT':
        this.check(cmd, NotificationsCountCmdSchema);
        this.start(cmd, new NotificationsCountSubscription(cmd.cmdId, this, this.host.data, this.user!.id, this.host.data.notifications));
        return;
      case 'MARK_NOTIFICATIONS_AS_READ':
        // No answer of its own, as in ThingsBoard: the user's NOTIFICATIONS subscriptions update.
        this.host.data.notifications.markRead(this.user!.id, this.check<MarkNotificationsAsReadCmd>(cmd, MarkNotificationsAsReadCmdSchema).notifications);
        return;
      case 'MARK_ALL_NOTIFICATIONS_AS_READ':
        this.check(cmd, MarkAllNotificationsAsReadCmdSchema);
        this.host.data.notifications.markAllRead(this.user!.id);
        return;
      case 'EDGE_STATE':
        this.check(cmd, EdgeStateCmdSchema);
        this.start(cmd, new EdgeStateSubscription(cmd.cmdId, this, this.host.data, this.lang));
        return;
      case 'AUTH':
        // Handled with the message; a bare AUTH command has nothing more to do.
        return;
      default:
        if (unsupported.has(type)) throw new WsRefusal(WsErrorCode.BAD_REQUEST, 'error.ws.unsupported', { type });
        throw new WsRefusal(WsErrorCode.BAD_REQUEST, 'error.ws.unknownCmd', { type: type || '(none)' });
    }
  }

  /** Refuses a command whose HTTP twin needs a permission the user's role does not hold. */
  private requirePermission(permission: Permission): void {
    if (!roleHolds(this.user!.role, permission)) throw new WsRefusal(WsErrorCode.UNAUTHORIZED, 'error.permissionDenied', {});
  }

  /** Device data for a command; refused for a role without device telemetry (server/contract/permissions.ts). */
  private get devices(): LiveData {
    if (!this.data) throw new WsRefusal(WsErrorCode.UNAUTHORIZED, 'error.permissionDenied', {});
    return this.data;
  }

  private check<T>(cmd: ClientCmd, schema: Parameters<typeof schemaProblem>[0]): T {
    const problem = schemaProblem(schema, cmd.body);
    if (problem) throw new WsRefusal(WsErrorCode.BAD_REQUEST, 'error.ws.badCmd', { type: cmd.type, reason: problem });
    return cmd.body as T;
  }

  /** A command with a cmdId already in use replaces that subscription, as in ThingsBoard. */
  private start(cmd: ClientCmd, sub: Subscription): void {
    const replacing = this.subscriptions.has(cmd.cmdId);
    if (!replacing && this.subscriptions.size >= WS_MAX_SUBSCRIPTIONS) {
      throw new WsRefusal(WsErrorCode.LIMIT_EXCEEDED, 'error.ws.subscriptionLimit', { max: WS_MAX_SUBSCRIPTIONS });
    }
    this.drop(cmd.cmdId);
    sub.start();
    this.subscriptions.set(cmd.cmdId, sub);
    this.host.subscribe(this, sub);
  }

  private drop(cmdId: number): void {
    const sub = this.subscriptions.get(cmdId);
    if (!sub) return;
    sub.close();
    this.host.unsubscribe(this, sub);
    this.subscriptions.delete(cmdId);
  }

  private history(cmd: HistoryCmd): void {
    const keys = keyList(cmd.keys);
    const points = this.devices.telemetry.timeseries(cmd.entityId, {
      keys: keys?.join(','),
      startTs: cmd.startTs,
      endTs: cmd.endTs,
      interval: cmd.interval,
      limit: cmd.limit,
      agg: cmd.agg ?? 'NONE',
      orderBy: 'DESC',
    });
    const data = toTsData(points);
    this.send({
      subscriptionId: cmd.cmdId,
      cmdId: cmd.cmdId,
      errorCode: WsErrorCode.NO_ERROR,
      errorMsg: null,
      data,
      cmdUpdateType: 'TIMESERIES_HISTORY',
    });
  }

  private entityData(cmd: ClientCmd, body: EntityDataCmd): void {
    const existing = this.subscriptions.get(cmd.cmdId);
    const series = { tsCmd: body.tsCmd, historyCmd: body.historyCmd };
    if (!body.query) {
      // `latestCmd`, `tsCmd` or `historyCmd` alone change the subscription already running under this cmdId.
      if (!(existing instanceof EntityDataSubscription) || !(body.latestCmd || body.tsCmd || body.historyCmd)) {
        throw new WsRefusal(WsErrorCode.BAD_REQUEST, 'error.ws.badCmd', { type: cmd.type, reason: 'query is required' });
      }
      if (body.latestCmd) existing.addLatest(body.latestCmd.keys);
      if (body.tsCmd || body.historyCmd) existing.replaceSeries(series);
      return;
    }
    if (body.query.entityFilter.type === 'entityType') {
      throw new WsRefusal(WsErrorCode.BAD_REQUEST, 'error.ws.badCmd', {
        type: cmd.type,
        reason: 'every device at once is not served: use a singleEntity, entityList, deviceType or entityName filter',
      });
    }
    const latest = [...(body.query.latestValues ?? []), ...(body.latestCmd?.keys ?? [])];
    this.start(cmd, new EntityDataSubscription(cmd.cmdId, this, this.devices, body.query.entityFilter, body.query.entityFields ?? [], latest, series));
  }

  private failed(cmd: ClientCmd, err: unknown): void {
    if (err instanceof WsRefusal) {
      this.sendError(cmd.cmdId, cmd.type, err.errorCode, err.key, err.params);
    } else if (err instanceof AppError) {
      const code = err.code === ErrorCode.ITEM_NOT_FOUND ? WsErrorCode.NOT_FOUND : err.statusCode < 500 ? WsErrorCode.BAD_REQUEST : WsErrorCode.INTERNAL_ERROR;
      const key = err.code === ErrorCode.ITEM_NOT_FOUND ? 'error.ws.entityNotFound' : err.key;
      this.sendError(cmd.cmdId, cmd.type, code, key, { ...err.params, id: entityIdOf(cmd.body) });
    } else {
      this.host.log.error({ err, type: cmd.type }, 'websocket command failed');
      this.sendError(cmd.cmdId, cmd.type, WsErrorCode.INTERNAL_ERROR, 'error.ws.internal', {});
    }
  }

  private sendError(cmdId: number, type: string | null, errorCode: WsErrorCode, key: ErrorKey, params: Record<string, string | number>): void {
    const update: ErrorUpdate = {
      cmdId,
      subscriptionId: cmdId,
      errorCode,
      errorMsg: translate(this.lang, key, params),
      data: null,
      cmdUpdateType: (type && updateTypes[type]) || null,
    };
    this.send(update);
  }
}

/** The device a command names, for error texts. */
function entityIdOf(body: Record<string, unknown>): string {
  if (typeof body.entityId === 'string') return body.entityId;
  const filter = (body.query as { entityFilter?: { singleEntity?: { id?: unknown } } } | undefined)?.entityFilter;
  return typeof filter?.singleEntity?.id === 'string' ? filter.singleEntity.id : '';
}

/** A command refused with a websocket error code. */
export class WsRefusal extends Error {
  constructor(
    readonly errorCode: WsErrorCode,
    readonly key: ErrorKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}
