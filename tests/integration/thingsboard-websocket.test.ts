/**
 * The live websocket as ThingsBoard's UI widgets use it (the `ws` package, as a browser speaks):
 * ENTITY_DATA with `tsCmd` and `historyCmd`, the `deviceType` and `entityName` entity filters,
 * and the legacy path /api/ws/plugins/telemetry. Devices are MQTT 3.1.1 clients.
 */
import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { Device } from '../../server/contract/device.ts';
import type { EntityCountUpdate, EntityDataUpdate, EntityTimeseriesUpdate, ErrorUpdate, TelemetryUpdate } from '../../server/contract/realtime.ts';
import { LiveClient, makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';

async function deviceOnline(t: LiveTestApp, device: Device): Promise<MqttClient> {
  return connectDevice(t.app, { username: await tokenOf(t.api, device.id), protocolVersion: 4 });
}

async function publish(client: MqttClient, payload: unknown): Promise<void> {
  await client.publishAsync('v1/devices/me/telemetry', JSON.stringify(payload), { qos: 1 });
}

function single(id: string) {
  return { type: 'singleEntity', singleEntity: { entityType: 'DEVICE', id } };
}

/** ENTITY_DATA as ThingsBoard's UI builds it (page link, entity fields, and the given extras). */
function entityDataCmd(cmdId: number, entityFilter: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'ENTITY_DATA',
    cmdId,
    query: {
      entityFilter,
      pageLink: { pageSize: 1024, page: 0, sortOrder: { key: { type: 'ENTITY_FIELD', key: 'createdTime' }, direction: 'DESC' } },
      entityFields: [{ type: 'ENTITY_FIELD', key: 'name' }],
      latestValues: [],
    },
    ...extra,
  };
}

describe('ENTITY_DATA time series', () => {
  it('answers a tsCmd with the window’s values as text, newest first, then pushes each new value as an update', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const mqtt = await deviceOnline(t, device);
    const now = Date.now();
    await publish(mqtt, [
      { ts: now - 3000, values: { temperature: 20.5, running: true } },
      { ts: now - 2000, values: { temperature: 21 } },
      { ts: now - 120_000, values: { temperature: 5 } },
    ]);
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({
      cmds: [
        entityDataCmd(1, single(device.id), {
          tsCmd: { keys: ['temperature', 'running', 'absent'], startTs: now - 60_000, timeWindow: 120_000, interval: 0, intervalType: 'MILLISECONDS', limit: 0, agg: 'NONE', timeZoneId: 'Asia/Shanghai', fetchLatestPreviousPoint: false },
        }),
      ],
    });
    const first = await ws.answer<EntityDataUpdate>(1);
    expect(first).toMatchObject({ errorCode: 0, cmdUpdateType: 'ENTITY_DATA', update: null });
    expect(first.data?.data[0]?.timeseries).toEqual({
      temperature: [
        { ts: now - 2000, value: '21' },
        { ts: now - 3000, value: '20.5' },
      ],
      running: [{ ts: now - 3000, value: 'true' }],
      absent: [],
    });
    await publish(mqtt, { ts: now - 1000, values: { temperature: 22.25, humidity: 40 } });
    const pushed = await ws.answer<EntityTimeseriesUpdate>(1);
    expect(pushed).toEqual({
      cmdId: 1,
      errorCode: 0,
      errorMsg: null,
      data: null,
      update: [{ entityId: { entityType: 'DEVICE', id: device.id }, latest: null, timeseries: { temperature: [{ ts: now - 1000, value: '22.25' }] } }],
      cmdUpdateType: 'ENTITY_DATA',
    });
  });

  it('answers a historyCmd once, aggregated when asked, and pushes nothing afterwards', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const mqtt = await deviceOnline(t, device);
    await publish(mqtt, [
      { ts: 1_000, values: { level: 1 } },
      { ts: 2_000, values: { level: 3 } },
      { ts: 11_000, values: { level: 10 } },
    ]);
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [entityDataCmd(2, single(device.id), { historyCmd: { keys: ['level'], startTs: 0, endTs: 20_000, interval: 10_000, limit: 100, agg: 'AVG' } })] });
    const first = await ws.answer<EntityDataUpdate>(2);
    expect(first.data?.data[0]?.timeseries).toEqual({ level: [{ ts: 5_000, value: '2' }, { ts: 15_000, value: '10' }] });
    await publish(mqtt, { ts: 12_000, values: { level: 11 } });
    // A COUNT subscription on the same socket answers after the telemetry was handled.
    ws.send({ cmds: [{ type: 'ENTITY_COUNT', cmdId: 3, query: { entityFilter: single(device.id) } }] });
    await ws.answer(3);
    expect(ws.pending()).toEqual([]);
  });

  it('answers a tsCmd sent again on a running cmdId without a query with the new window in an update', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const mqtt = await deviceOnline(t, device);
    await publish(mqtt, [{ ts: 1_000, values: { level: 1 } }, { ts: 5_000, values: { level: 5 } }]);
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [entityDataCmd(4, single(device.id), { tsCmd: { keys: ['level'], startTs: 0, timeWindow: 2_000 } })] });
    expect((await ws.answer<EntityDataUpdate>(4)).data?.data[0]?.timeseries).toEqual({ level: [{ ts: 1_000, value: '1' }] });
    ws.send({ cmds: [{ type: 'ENTITY_DATA', cmdId: 4, tsCmd: { keys: ['level'], startTs: 4_000, timeWindow: 2_000 } }] });
    const moved = await ws.answer<EntityTimeseriesUpdate>(4);
    expect(moved.update).toEqual([{ entityId: { entityType: 'DEVICE', id: device.id }, latest: null, timeseries: { level: [{ ts: 5_000, value: '5' }] } }]);
  });

  it('refuses a calendar intervalType with an error on the cmdId', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [entityDataCmd(5, single(device.id), { tsCmd: { keys: ['level'], startTs: 0, timeWindow: 1000, intervalType: 'MONTH', agg: 'AVG' } })] });
    const refused = await ws.answer<ErrorUpdate>(5);
    expect(refused).toMatchObject({ errorCode: 2, cmdUpdateType: 'ENTITY_DATA' });
    expect(refused.errorMsg).toContain('intervalType');
  });
});

describe('ENTITY_DATA and ENTITY_COUNT entity filters', () => {
  it('serves a deviceType filter as the devices of the named products, their names matched by prefix', async () => {
    const t = await makeLiveApp({ listen: true });
    const pump = await t.api.createProduct({ name: 'PumpProfile' });
    const fan = await t.api.createProduct({ name: 'FanProfile' });
    const p1 = await t.api.createDevice({ name: 'pump_north', deviceProfileId: pump.id });
    const p2 = await t.api.createDevice({ name: 'Pump_south', deviceProfileId: pump.id });
    await t.api.createDevice({ name: 'valve_1', deviceProfileId: pump.id });
    await t.api.createDevice({ name: 'pump_fan', deviceProfileId: fan.id });
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [entityDataCmd(1, { type: 'deviceType', deviceTypes: ['PumpProfile'], deviceNameFilter: 'pump' })] });
    const answer = await ws.answer<EntityDataUpdate>(1);
    expect(answer.errorCode).toBe(0);
    expect(answer.data?.data.map((e) => e.entityId.id).sort()).toEqual([p1.id, p2.id].sort());
    expect(answer.data).toMatchObject({ totalElements: 2, hasNext: false });
    ws.send({ cmds: [{ type: 'ENTITY_COUNT', cmdId: 2, query: { entityFilter: { type: 'deviceType', deviceType: 'PumpProfile' } } }] });
    expect((await ws.answer<EntityCountUpdate>(2)).count).toBe(3);
  });

  it('serves an entityName filter by case-insensitive prefix, or as a % pattern, and follows the matched devices', async () => {
    const t = await makeLiveApp({ listen: true });
    const a = await t.api.createDevice({ name: 'Boiler_A' });
    const b = await t.api.createDevice({ name: 'boiler_B' });
    await t.api.createDevice({ name: 'old_boiler' });
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [entityDataCmd(1, { type: 'entityName', entityType: 'DEVICE', entityNameFilter: 'BOILER' }, { latestCmd: { keys: [{ type: 'TIME_SERIES', key: 'pressure' }] } })] });
    const answer = await ws.answer<EntityDataUpdate>(1);
    expect(answer.data?.data.map((e) => e.entityId.id).sort()).toEqual([a.id, b.id].sort());
    ws.send({ cmds: [{ type: 'ENTITY_COUNT', cmdId: 2, query: { entityFilter: { type: 'entityName', entityType: 'DEVICE', entityNameFilter: '%boiler%' } } }] });
    expect((await ws.answer<EntityCountUpdate>(2)).count).toBe(3);
    const mqtt = await deviceOnline(t, b);
    await publish(mqtt, { pressure: 2.5 });
    const pushed = await ws.next<EntityDataUpdate>((m) => m.cmdId === 1 && JSON.stringify(m).includes('pressure'));
    expect(pushed.update?.[0]).toMatchObject({ entityId: { id: b.id }, latest: { TIME_SERIES: { pressure: { value: 2.5 } } } });
  });
});

describe('the legacy path /api/ws/plugins/telemetry', () => {
  it('speaks the same protocol as /api/ws, legacy command lists included', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const mqtt = await deviceOnline(t, device);
    await publish(mqtt, { temperature: 19 });
    const ws = await LiveClient.open(t, { token: t.token, path: '/api/ws/plugins/telemetry' });
    ws.send({ tsSubCmds: [{ cmdId: 9, entityType: 'DEVICE', entityId: device.id, scope: 'LATEST_TELEMETRY' }], historyCmds: [], attrSubCmds: [] });
    const answer = await ws.answer<TelemetryUpdate>(9);
    expect(answer).toMatchObject({ subscriptionId: 9, errorCode: 0 });
    // As ThingsBoard's websocket: values as text unless the command asks for typed ones.
    expect(answer.data?.temperature?.[0]?.[1]).toBe('19');
  });
});
