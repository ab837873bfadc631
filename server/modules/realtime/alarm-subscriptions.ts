/**
 * ALARM_DATA, ALARM_COUNT, NOTIFICATIONS and NOTIFICATIONS_COUNT (server/contract/realtime.ts):
 * first answers read through the alarm and notification services, then the hub hands every
 * `alarm.changed` / `notification.changed` to these subscriptions. Changes of one turn of the event
 * loop go out in one answer.
 */
import type { Alarm, AlarmSeverity, AlarmStatus } from '../../contract/alarm.ts';
import { alarmStatuses } from '../../contract/alarm.ts';
import type { Notification } from '../../contract/notification.ts';
import type {
  AlarmCountCmd,
  AlarmData,
  AlarmDataCmd,
  AlarmSearchStatus,
  EntityFilter,
  NotificationsCmd,
} from '../../contract/realtime.ts';
import { NOTIFICATIONS_LIMIT_DEFAULT, WsErrorCode } from '../../contract/realtime.ts';
import type { AlarmFilter } from '../alarm/alarm-filter.ts';
import type { LiveData } from './live-data.ts';
import { filteredIds, Subscription, type LiveSink } from './live-subscriptions.ts';
import { OncePerTurn } from './once-per-turn.ts';

/** The alarm and notification reads of the live views. */
export interface LiveAlarms {
  search(filter: AlarmFilter, page: number, pageSize: number): { items: Alarm[]; total: number };
  count(filter: AlarmFilter): number;
}
export interface LiveNotifications {
  unread(userId: string, limit: number): Notification[];
  unreadCount(userId: string): number;
  markRead(userId: string, ids: readonly string[]): unknown;
  markAllRead(userId: string): unknown;
}

const searchSets: Record<Exclude<AlarmSearchStatus, AlarmStatus>, readonly AlarmStatus[]> = {
  ANY: alarmStatuses,
  ACTIVE: ['ACTIVE_UNACK', 'ACTIVE_ACK'],
  CLEARED: ['CLEARED_UNACK', 'CLEARED_ACK'],
  ACK: ['ACTIVE_ACK', 'CLEARED_ACK'],
  UNACK: ['ACTIVE_UNACK', 'CLEARED_UNACK'],
};

/** ThingsBoard's search statuses must all hold; our own statuses are alternatives. */
export function statusesOf(list: readonly AlarmSearchStatus[] | undefined): AlarmStatus[] | undefined {
  if (!list?.length) return undefined;
  let statuses: AlarmStatus[] = [...alarmStatuses];
  const own = list.filter((s): s is AlarmStatus => (alarmStatuses as readonly string[]).includes(s));
  if (own.length) statuses = statuses.filter((s) => own.includes(s));
  for (const s of list) if (s in searchSets) statuses = statuses.filter((x) => searchSets[s as keyof typeof searchSets].includes(x));
  return statuses;
}

interface AlarmQuery {
  entityFilter?: EntityFilter;
  statusList?: AlarmSearchStatus[];
  severityList?: AlarmSeverity[];
  typeList?: string[];
}

/** The SQL filter of a query, and the same test in memory for changed alarms. */
function alarmFilterOf(query: AlarmQuery | undefined, data: LiveData, extra: Partial<AlarmFilter> = {}): AlarmFilter {
  const devices = query?.entityFilter ? filteredIds(query.entityFilter, data) : null;
  return {
    statuses: statusesOf(query?.statusList),
    severities: query?.severityList?.length ? query.severityList : undefined,
    types: query?.typeList?.length ? query.typeList : undefined,
    deviceIds: devices?.ids,
    ...extra,
  };
}

export function alarmMatches(a: Alarm, f: AlarmFilter): boolean {
  if (f.statuses && !f.statuses.includes(a.status)) return false;
  if (f.severities && !f.severities.includes(a.severity)) return false;
  if (f.types && !f.types.includes(a.type)) return false;
  if (f.deviceIds && (a.deviceId === null || !f.deviceIds.includes(a.deviceId))) return false;
  if (f.startTime !== undefined && a.createdTime < f.startTime) return false;
  if (f.endTime !== undefined && a.createdTime > f.endTime) return false;
  if (f.text) {
    const text = f.text.toLowerCase();
    if (![a.type, a.sceneName, a.deviceName ?? ''].some((s) => s.toLowerCase().includes(text))) return false;
  }
  return true;
}

export function alarmData(a: Alarm): AlarmData {
  return { ...a, entityId: a.deviceId ? { entityType: 'DEVICE', id: a.deviceId } : null, originatorName: a.deviceName, latest: {} };
}

/** Subscriptions to alarm changes: the hub calls `alarmChanged` for each. */
export abstract class AlarmFollower extends Subscription {
  readonly deviceIds: readonly string[] = [];
  abstract alarmChanged(alarm: Alarm, previous: Alarm | null): void;
}

export class AlarmDataSubscription extends AlarmFollower {
  private readonly filter: AlarmFilter;
  private readonly changed = new Map<string, AlarmData>();
  private readonly flush = new OncePerTurn(() => {
    const update = [...this.changed.values()];
    this.changed.clear();
    this.sink.send({ cmdId: this.cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, data: null, update, allowedEntities: 0, totalEntities: 0, cmdUpdateType: 'ALARM_DATA' });
  });

  constructor(
    cmdId: number,
    sink: LiveSink,
    data: LiveData,
    private readonly alarms: LiveAlarms,
    private readonly cmd: AlarmDataCmd,
  ) {
    super(cmdId, sink, data);
    const link = cmd.query.pageLink;
    const startTime = link.startTs ?? (link.timeWindow !== undefined ? Date.now() - link.timeWindow : undefined);
    this.filter = alarmFilterOf(cmd.query, data, { startTime, endTime: link.endTs, text: link.textSearch || undefined });
  }

  start(): void {
    const { page = 0, pageSize } = this.cmd.query.pageLink;
    const { items, total } = this.alarms.search(this.filter, page + 1, pageSize);
    const totalPages = Math.ceil(total / pageSize);
    this.sink.send({
      cmdId: this.cmdId,
      errorCode: WsErrorCode.NO_ERROR,
      errorMsg: null,
      data: { data: items.map(alarmData), totalPages, totalElements: total, hasNext: page + 1 < totalPages },
      update: null,
      allowedEntities: total,
      totalEntities: total,
      cmdUpdateType: 'ALARM_DATA',
    });
  }

  alarmChanged(alarm: Alarm, previous: Alarm | null): void {
    if (!alarmMatches(alarm, this.filter) && !(previous && alarmMatches(previous, this.filter))) return;
    this.changed.set(alarm.id, alarmData(alarm));
    this.flush.request();
  }

  override close(): void {
    this.flush.cancel();
    this.changed.clear();
  }
}

export class AlarmCountSubscription extends AlarmFollower {
  private readonly filter: AlarmFilter;
  private last = -1;
  private readonly recount = new OncePerTurn(() => this.send());

  constructor(
    cmdId: number,
    sink: LiveSink,
    data: LiveData,
    private readonly alarms: LiveAlarms,
    cmd: AlarmCountCmd,
  ) {
    super(cmdId, sink, data);
    this.filter = alarmFilterOf(cmd.query, data);
  }

  start(): void {
    this.send();
  }

  alarmChanged(alarm: Alarm, previous: Alarm | null): void {
    if (!alarmMatches(alarm, this.filter) && !(previous && alarmMatches(previous, this.filter))) return;
    this.recount.request();
  }

  override close(): void {
    this.recount.cancel();
  }

  private send(): void {
    const count = this.alarms.count(this.filter);
    if (count === this.last) return;
    this.last = count;
    this.sink.send({ cmdId: this.cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, count, cmdUpdateType: 'ALARM_COUNT_DATA' });
  }
}

/** Subscriptions to one user's notifications: the hub calls `notificationChanged` for that user's. */
export abstract class NotificationFollower extends Subscription {
  readonly deviceIds: readonly string[] = [];
  constructor(
    cmdId: number,
    sink: LiveSink,
    data: LiveData,
    readonly userId: string,
    protected readonly notifications: LiveNotifications,
  ) {
    super(cmdId, sink, data);
  }
  abstract notificationChanged(created: Notification | null): void;
}

export class NotificationsSubscription extends NotificationFollower {
  private readonly limit: number;

  constructor(cmdId: number, sink: LiveSink, data: LiveData, userId: string, notifications: LiveNotifications, cmd: NotificationsCmd) {
    super(cmdId, sink, data, userId, notifications);
    this.limit = cmd.limit ?? NOTIFICATIONS_LIMIT_DEFAULT;
  }

  start(): void {
    this.sendList();
  }

  notificationChanged(created: Notification | null): void {
    if (!created) {
      this.sendList();
      return;
    }
    const totalUnreadCount = this.notifications.unreadCount(this.userId);
    this.sink.send({ cmdId: this.cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, totalUnreadCount, notifications: null, update: created, cmdUpdateType: 'NOTIFICATIONS' });
  }

  private sendList(): void {
    this.sink.send({
      cmdId: this.cmdId,
      errorCode: WsErrorCode.NO_ERROR,
      errorMsg: null,
      totalUnreadCount: this.notifications.unreadCount(this.userId),
      notifications: this.notifications.unread(this.userId, this.limit),
      update: null,
      cmdUpdateType: 'NOTIFICATIONS',
    });
  }
}

export class NotificationsCountSubscription extends NotificationFollower {
  start(): void {
    this.notificationChanged();
  }

  notificationChanged(): void {
    const totalUnreadCount = this.notifications.unreadCount(this.userId);
    this.sink.send({ cmdId: this.cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, totalUnreadCount, cmdUpdateType: 'NOTIFICATIONS_COUNT' });
  }
}
