/**
 * The alarm module's live commands on /api/ws (server/live.ts; server/contract/realtime.ts):
 * ALARM_DATA and ALARM_COUNT answer through the alarm service within the subscriber's scope, then
 * follow every `alarm.changed`. Changes of one turn of the event loop go out in one answer.
 */
import type { Alarm, AlarmSeverity, AlarmStatus } from '../../contract/alarm.ts';
import { alarmStatuses } from '../../contract/alarm.ts';
import {
  AlarmCountCmdSchema,
  AlarmDataCmdSchema,
  WsErrorCode,
  type AlarmCountCmd,
  type AlarmData,
  type AlarmDataCmd,
  type AlarmSearchStatus,
  type EntityFilter,
} from '../../contract/realtime.ts';
import { organizationsWithin, type ScopedDevices } from '../../lib/device-scope.ts';
import { filteredIds } from '../../lib/entity-filters.ts';
import { ALL, Followers } from '../../lib/followers.ts';
import { OncePerTurn } from '../../lib/once-per-turn.ts';
import { liveCommand, type LiveCommands, type LiveContext, type LiveRequest, type LiveSubscription } from '../../live.ts';
import type { Services } from '../../module.ts';
import type { AlarmFilter } from './alarm-filter.ts';

/** The alarm reads of the live views, within the subscriber's scope. */
interface LiveAlarms {
  search(filter: AlarmFilter, page: number, pageSize: number): { items: Alarm[]; total: number };
  count(filter: AlarmFilter): number;
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
function alarmFilterOf(query: AlarmQuery | undefined, devices: ScopedDevices, extra: Partial<AlarmFilter> = {}): AlarmFilter {
  const named = query?.entityFilter ? filteredIds(query.entityFilter, devices) : null;
  return {
    statuses: statusesOf(query?.statusList),
    severities: query?.severityList?.length ? query.severityList : undefined,
    types: query?.typeList?.length ? query.typeList : undefined,
    deviceIds: named?.ids,
    // A changed alarm is tested in memory against this too: the subscriber's organizations only, as the HTTP list.
    organizationIds: organizationsWithin(devices.scope, undefined),
    ...extra,
  };
}

export function alarmMatches(a: Alarm, f: AlarmFilter): boolean {
  if (f.statuses && !f.statuses.includes(a.status)) return false;
  if (f.severities && !f.severities.includes(a.severity)) return false;
  if (f.types && !f.types.includes(a.type)) return false;
  if (f.deviceIds && (a.deviceId === null || !f.deviceIds.includes(a.deviceId))) return false;
  if (f.organizationIds && (a.organizationId === null || !f.organizationIds.includes(a.organizationId))) return false;
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

/** What an alarm subscription is made with. */
interface AlarmSubscriptionContext {
  request: LiveRequest<unknown>;
  alarms: LiveAlarms;
}

/** Subscriptions to alarm changes: every `alarm.changed` is handed to `alarmChanged`. */
interface AlarmFollower extends LiveSubscription {
  start(): void;
  alarmChanged(alarm: Alarm, previous: Alarm | null): void;
}

class AlarmDataSubscription implements AlarmFollower {
  private readonly filter: AlarmFilter;
  private readonly changed = new Map<string, AlarmData>();
  private readonly flush = new OncePerTurn(() => {
    const update = [...this.changed.values()];
    this.changed.clear();
    this.request.send({ cmdId: this.request.cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, data: null, update, allowedEntities: 0, totalEntities: 0, cmdUpdateType: 'ALARM_DATA' });
  });
  private readonly request: LiveRequest<unknown>;
  private readonly alarms: LiveAlarms;

  constructor(
    { request, alarms }: AlarmSubscriptionContext,
    private readonly cmd: AlarmDataCmd,
  ) {
    this.request = request;
    this.alarms = alarms;
    const link = cmd.query.pageLink;
    const startTime = link.startTs ?? (link.timeWindow !== undefined ? Date.now() - link.timeWindow : undefined);
    this.filter = alarmFilterOf(cmd.query, request.devices, { startTime, endTime: link.endTs, text: link.textSearch || undefined });
  }

  start(): void {
    const { page = 0, pageSize } = this.cmd.query.pageLink;
    const { items, total } = this.alarms.search(this.filter, page + 1, pageSize);
    const totalPages = Math.ceil(total / pageSize);
    this.request.send({
      cmdId: this.request.cmdId,
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

  close(): void {
    this.flush.cancel();
    this.changed.clear();
  }
}

class AlarmCountSubscription implements AlarmFollower {
  private readonly filter: AlarmFilter;
  private last = -1;
  private readonly recount = new OncePerTurn(() => this.send());
  private readonly request: LiveRequest<unknown>;
  private readonly alarms: LiveAlarms;

  constructor({ request, alarms }: AlarmSubscriptionContext, cmd: AlarmCountCmd) {
    this.request = request;
    this.alarms = alarms;
    this.filter = alarmFilterOf(cmd.query, request.devices);
  }

  start(): void {
    this.send();
  }

  alarmChanged(alarm: Alarm, previous: Alarm | null): void {
    if (!alarmMatches(alarm, this.filter) && !(previous && alarmMatches(previous, this.filter))) return;
    this.recount.request();
  }

  close(): void {
    this.recount.cancel();
  }

  private send(): void {
    const count = this.alarms.count(this.filter);
    if (count === this.last) return;
    this.last = count;
    this.request.send({ cmdId: this.request.cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, count, cmdUpdateType: 'ALARM_COUNT_DATA' });
  }
}

/** ALARM_DATA and ALARM_COUNT: the alarms of the devices the subscriber may see, then their changes. */
export function alarmLive({ alarms }: Pick<Services, 'alarms'>, { bus, log }: LiveContext): LiveCommands {
  const followers = new Followers<AlarmFollower>(log);
  bus.on('alarm.changed', ({ alarm, previous }) => followers.each(ALL, (sub) => sub.alarmChanged(alarm, previous)));

  /** The alarm reads limited to the organizations of the subscriber's scope. */
  const within = (request: LiveRequest<unknown>): LiveAlarms => ({
    search: (filter, page, pageSize) => alarms.search({ ...filter, organizationIds: organizationsWithin(request.scope, filter.organizationIds) }, page, pageSize),
    count: (filter) => alarms.count({ ...filter, organizationIds: organizationsWithin(request.scope, filter.organizationIds) }),
  });
  const follow = (sub: AlarmFollower): LiveSubscription => {
    sub.start();
    const unfollow = followers.add([ALL], sub);
    return {
      close: () => {
        unfollow();
        sub.close();
      },
    };
  };

  return {
    ALARM_DATA: liveCommand<AlarmDataCmd>({
      schema: AlarmDataCmdSchema,
      updateType: 'ALARM_DATA',
      deviceData: true,
      kind: 'subscription',
      open: (request) => follow(new AlarmDataSubscription({ request, alarms: within(request) }, request.body)),
    }),
    ALARM_COUNT: liveCommand<AlarmCountCmd>({
      schema: AlarmCountCmdSchema,
      updateType: 'ALARM_COUNT_DATA',
      deviceData: true,
      kind: 'subscription',
      open: (request) => follow(new AlarmCountSubscription({ request, alarms: within(request) }, request.body)),
    }),
  };
}
