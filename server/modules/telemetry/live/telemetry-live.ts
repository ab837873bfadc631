/**
 * The telemetry module's live commands on /api/ws (server/live.ts; server/contract/realtime.ts
 * says what each answers): TIMESERIES, TIMESERIES_HISTORY, ATTRIBUTES, ENTITY_DATA and
 * ENTITY_COUNT. Subscriptions are indexed by the devices they follow, so a stored batch reaches
 * only the sockets that follow that device.
 */
import {
  AttributesCmdSchema,
  EntityCountCmdSchema,
  EntityDataCmdSchema,
  HistoryCmdSchema,
  TimeseriesCmdSchema,
  WsErrorCode,
  type AttributesCmd,
  type EntityCountCmd,
  type EntityDataCmd,
  type HistoryCmd,
  type TimeseriesCmd,
} from '../../../contract/realtime.ts';
import { ALL, Followers } from '../../../lib/followers.ts';
import { LiveRefusal, liveCommand, type LiveCommands, type LiveContext, type LiveRequest, type LiveSubscription } from '../../../live.ts';
import type { Services } from '../../../module.ts';
import { AttributesSubscription, keyList, TimeseriesSubscription, type DeviceSubscription, type SubscriptionContext } from './device-subscriptions.ts';
import { EntityCountSubscription, EntityDataSubscription } from './entity-subscriptions.ts';
import { LiveData, textData, toTsData } from './live-data.ts';

/** A started subscription while it follows its devices. */
class Followed implements LiveSubscription {
  constructor(
    readonly sub: DeviceSubscription,
    private readonly unfollow: readonly (() => void)[],
  ) {}

  get deviceIds(): readonly string[] {
    return this.sub.deviceIds;
  }

  close(): void {
    for (const off of this.unfollow) off();
    this.sub.close();
  }
}

export function telemetryLive(
  { telemetry, sharedAttributes }: Pick<Services, 'telemetry' | 'sharedAttributes'>,
  { bus, log }: LiveContext,
): LiveCommands {
  const byDevice = new Followers<DeviceSubscription>(log);
  const deviceSet = new Followers<DeviceSubscription>(log);
  bus.on('telemetry.stored', ({ deviceId, entries }) => byDevice.each(deviceId, (sub) => sub.telemetry(deviceId, entries)));
  bus.on('device.stateChanged', ({ deviceId, state, ts }) => byDevice.each(deviceId, (sub) => sub.stateChanged(deviceId, state, ts)));
  bus.on('device.updated', ({ deviceId }) => byDevice.each(deviceId, (sub) => sub.deviceUpdated(deviceId)));
  bus.on('attributes.updated', ({ deviceId, scope, values }) => byDevice.each(deviceId, (sub) => sub.attributesChanged(deviceId, scope, values)));
  bus.on('attributes.deleted', ({ deviceId, scope, keys }) => {
    // ThingsBoard tells subscribers of a deleted attribute as the value "" at ts 0.
    const values = keys.map((key) => ({ key, value: '', lastUpdateTs: 0 }));
    byDevice.each(deviceId, (sub) => sub.attributesChanged(deviceId, scope, values));
  });
  const devicesChanged = (): void => deviceSet.each(ALL, (sub) => sub.devicesChanged());
  bus.on('device.created', devicesChanged);
  bus.on('device.deleted', devicesChanged);

  const dataOf = (request: LiveRequest<unknown>): LiveData => new LiveData(telemetry, sharedAttributes, request.devices);
  const contextOf = (request: LiveRequest<unknown>): SubscriptionContext => ({ cmdId: request.cmdId, sink: request, data: dataOf(request) });

  /** Sends the subscription's first answer, then hands it the events of its devices until closed. */
  const follow = (sub: DeviceSubscription): Followed => {
    sub.start();
    const unfollow = [byDevice.add(sub.deviceIds, sub)];
    if (sub.followsDeviceSet) unfollow.push(deviceSet.add([ALL], sub));
    return new Followed(sub, unfollow);
  };

  return {
    TIMESERIES: liveCommand<TimeseriesCmd>({
      schema: TimeseriesCmdSchema,
      updateType: 'TIMESERIES',
      deviceData: true,
      kind: 'subscription',
      open: (request) => follow(new TimeseriesSubscription(contextOf(request), request.body)),
    }),
    TIMESERIES_HISTORY: liveCommand<HistoryCmd>({
      schema: HistoryCmdSchema,
      updateType: 'TIMESERIES_HISTORY',
      deviceData: true,
      kind: 'request',
      open: (request) => {
        const cmd = request.body;
        const points = dataOf(request).telemetry.timeseries(cmd.entityId, {
          keys: keyList(cmd.keys)?.join(','),
          startTs: cmd.startTs,
          endTs: cmd.endTs,
          interval: cmd.interval,
          limit: cmd.limit,
          agg: cmd.agg ?? 'NONE',
          orderBy: 'DESC',
        });
        request.send({
          subscriptionId: cmd.cmdId,
          cmdId: cmd.cmdId,
          errorCode: WsErrorCode.NO_ERROR,
          errorMsg: null,
          data: cmd.useStrictDataTypes === true ? toTsData(points) : textData(toTsData(points)),
          cmdUpdateType: 'TIMESERIES_HISTORY',
        });
      },
    }),
    ATTRIBUTES: liveCommand<AttributesCmd>({
      schema: AttributesCmdSchema,
      updateType: 'ATTRIBUTES',
      deviceData: true,
      kind: 'subscription',
      open: (request) => follow(new AttributesSubscription(contextOf(request), request.body)),
    }),
    ENTITY_DATA: liveCommand<EntityDataCmd>({
      schema: EntityDataCmdSchema,
      updateType: 'ENTITY_DATA',
      deviceData: true,
      kind: 'subscription',
      open: (request, running) => {
        const body = request.body;
        const series = { tsCmd: body.tsCmd, historyCmd: body.historyCmd };
        if (!body.query) {
          // `latestCmd`, `tsCmd` or `historyCmd` alone change the subscription already running under this cmdId.
          const existing = running instanceof Followed ? running.sub : undefined;
          if (!(existing instanceof EntityDataSubscription) || !(body.latestCmd || body.tsCmd || body.historyCmd)) {
            throw new LiveRefusal(WsErrorCode.BAD_REQUEST, 'error.ws.badCmd', { type: 'ENTITY_DATA', reason: 'query is required' });
          }
          if (body.latestCmd) existing.addLatest(body.latestCmd.keys);
          if (body.tsCmd || body.historyCmd) existing.replaceSeries(series);
          return running;
        }
        if (body.query.entityFilter.type === 'entityType') {
          throw new LiveRefusal(WsErrorCode.BAD_REQUEST, 'error.ws.badCmd', {
            type: 'ENTITY_DATA',
            reason: 'every device at once is not served: use a singleEntity, entityList, deviceType or entityName filter',
          });
        }
        const latest = [...(body.query.latestValues ?? []), ...(body.latestCmd?.keys ?? [])];
        return follow(
          new EntityDataSubscription(contextOf(request), { filter: body.query.entityFilter, fields: body.query.entityFields ?? [], latest, series }),
        );
      },
    }),
    ENTITY_COUNT: liveCommand<EntityCountCmd>({
      schema: EntityCountCmdSchema,
      updateType: 'COUNT_DATA',
      deviceData: true,
      kind: 'subscription',
      open: (request) => follow(new EntityCountSubscription(contextOf(request), request.body.query.entityFilter)),
    }),
  };
}
