/**
 * A share page's live updates over /api/ws (VIS_SHARE, a guest command: server/live.ts): the
 * latest values of exactly the link's bindings, then each stored value of those device/key pairs
 * and nothing else. The link is asked again after every change of its configuration or link
 * (`visualization.changed`), so a revoked or replaced link, or a deleted configuration, closes the
 * socket at once; its expiry closes it by a timer. A layout saved with other bindings narrows or
 * widens what follows to the new ones. Alarm lists add the alarms of the devices they name (a
 * device, several, a product's devices of the moment): the active ones first, then every change of
 * those devices' alarms, each row naming the lists that show it, nothing of another device.
 */
import { WS_POLICY_VIOLATION } from '../../contract/realtime.ts';
import type { TelemetryEntry } from '../../contract/telemetry.ts';
import type { Alarm } from '../../contract/alarm.ts';
import { SharedLiveCmdSchema, VIS_SHARE_CMD, type SharedAlarm, type SharedLatest, type SharedLiveCmd, type SharedLiveUpdate, type Visualization } from '../../contract/visualization.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { liveGuestCommand, type LiveCommands, type LiveContext, type LiveGuestRequest, type LiveSubscription } from '../../live.ts';
import type { Services } from '../../module.ts';
import { bindingsOf, namesProduct, sharedAlarmOf, type ShareService } from './share-service.ts';

/** setTimeout's longest delay; a later expiry is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function updateOf(cmdId: number, data: SharedLatest, alarms?: SharedAlarm[]): SharedLiveUpdate {
  return { cmdId, subscriptionId: cmdId, errorCode: 0, errorMsg: null, data, ...(alarms ? { alarms } : {}), cmdUpdateType: VIS_SHARE_CMD };
}

class SharedLive implements LiveSubscription {
  private bindings: Map<string, Set<string>>;
  private visualization: Visualization;
  /** The alarm lists' devices as last read: read again for each alarm when a list names a product. */
  private alarmWidgets: Map<string, Set<string>>;
  private readonly visualizationId: string;
  private readonly offs: (() => void)[];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly request: LiveGuestRequest<SharedLiveCmd>,
    private readonly shares: ShareService,
    bus: EventBus,
  ) {
    // Refused (404 or 429) before anything is followed: the host answers the error on the cmdId.
    const { visualization, expiresAt } = shares.follow(request.body.shareToken, request.ip);
    this.visualizationId = visualization.id;
    this.visualization = visualization;
    this.bindings = bindingsOf(visualization);
    this.alarmWidgets = shares.alarmWidgetsOf(visualization);
    request.send(updateOf(request.cmdId, shares.latestOf(visualization), this.alarmWidgets.size ? shares.alarmsOf(this.alarmWidgets) : undefined));
    this.offs = [
      bus.on('telemetry.stored', ({ deviceId, entries }) => this.telemetry(deviceId, entries)),
      bus.on('alarm.changed', ({ alarm }) => this.alarm(alarm)),
      bus.on('visualization.changed', ({ visualizationId }) => {
        if (visualizationId === this.visualizationId) this.recheck();
      }),
    ];
    if (expiresAt !== null) this.closeAt(expiresAt);
  }

  get deviceIds(): readonly string[] {
    return [...this.bindings.keys()];
  }

  close(): void {
    for (const off of this.offs.splice(0)) off();
    clearTimeout(this.timer);
  }

  private telemetry(deviceId: string, entries: readonly TelemetryEntry[]): void {
    const keys = this.bindings.get(deviceId);
    if (!keys) return;
    const points: SharedLatest[string] = {};
    for (const e of entries) {
      if (keys.has(e.key) && (points[e.key]?.ts ?? -Infinity) <= e.ts) points[e.key] = { ts: e.ts, value: e.value };
    }
    if (Object.keys(points).length) this.request.send(updateOf(this.request.cmdId, { [deviceId]: points }));
  }

  /** An alarm of a device an alarm list shows, whatever its new status: the page drops one no longer active. */
  private alarm(alarm: Alarm): void {
    if (alarm.deviceId === null) return;
    // A product's devices are those of the moment: one added to it since shows its alarms, one moved out no longer does.
    if (namesProduct(this.visualization)) this.alarmWidgets = this.shares.alarmWidgetsOf(this.visualization);
    const widgetIds = [...this.alarmWidgets].filter(([, devices]) => devices.has(alarm.deviceId!)).map(([id]) => id);
    const row = widgetIds.length ? sharedAlarmOf(alarm, widgetIds) : null;
    if (row) this.request.send(updateOf(this.request.cmdId, {}, [row]));
  }

  /** The link as it is now: gone closes the socket, a new layout changes what is followed. */
  private recheck(): void {
    const v = this.shares.stillOpens(this.request.body.shareToken);
    if (!v) {
      this.request.close(WS_POLICY_VIOLATION, 'share link ended');
      return;
    }
    this.visualization = v;
    this.bindings = bindingsOf(v);
    this.alarmWidgets = this.shares.alarmWidgetsOf(v);
  }

  private closeAt(expiresAt: number): void {
    this.timer = setTimeout(
      () => {
        if (Date.now() >= expiresAt) this.request.close(WS_POLICY_VIOLATION, 'share link ended');
        else this.closeAt(expiresAt);
      },
      Math.min(Math.max(expiresAt - Date.now(), 0), MAX_TIMER_MS),
    );
    this.timer.unref();
  }
}

export function visualizationLive({ visualizationShares }: Pick<Services, 'visualizationShares'>, { bus }: LiveContext): LiveCommands {
  return {
    [VIS_SHARE_CMD]: liveGuestCommand<SharedLiveCmd>({
      guest: true,
      kind: 'subscription',
      schema: SharedLiveCmdSchema,
      updateType: VIS_SHARE_CMD,
      open: (request) => new SharedLive(request, visualizationShares, bus),
    }),
  };
}
