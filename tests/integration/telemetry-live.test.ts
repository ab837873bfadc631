/**
 * The live command types of device data (TIMESERIES, TIMESERIES_HISTORY, ATTRIBUTES, ENTITY_DATA,
 * ENTITY_COUNT) through a real /api/ws socket: each answers, follows a change a device makes over
 * real MQTT (or the device list over HTTP), and hears nothing more once ended.
 */
import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import type { EntityCountUpdate, EntityDataUpdate, TelemetryUpdate } from '../../server/contract/realtime.ts';
import { expectSilenced, type LiveCmd, LiveClient, makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';

interface Sensor {
  t: LiveTestApp;
  device: Device;
  mqtt: MqttClient;
  ws: LiveClient;
}

/** A device online over MQTT and an administrator's socket. */
async function sensor(): Promise<Sensor> {
  const t = await makeLiveApp({ listen: true });
  const device = await t.api.createDevice();
  const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
  const ws = await LiveClient.open(t, { token: t.token });
  return { t, device, mqtt, ws };
}

async function publish(mqtt: MqttClient, topic: 'telemetry' | 'attributes', payload: unknown): Promise<void> {
  await mqtt.publishAsync(`v1/devices/me/${topic}`, JSON.stringify(payload), { qos: 1 });
}

function latest(cmdId: number, entityId: string): LiveCmd {
  return { type: 'TIMESERIES', cmdId, entityType: 'DEVICE', entityId, scope: 'LATEST_TELEMETRY', keys: 'temperature', useStrictDataTypes: true };
}

function clientAttributes(cmdId: number, entityId: string): LiveCmd {
  return { type: 'ATTRIBUTES', cmdId, entityType: 'DEVICE', entityId, scope: 'CLIENT_SCOPE', keys: 'firmware' };
}

function entityData(cmdId: number, id: string): LiveCmd {
  return {
    type: 'ENTITY_DATA',
    cmdId,
    query: {
      entityFilter: { type: 'singleEntity', singleEntity: { entityType: 'DEVICE', id } },
      entityFields: [{ type: 'ENTITY_FIELD', key: 'name' }],
      latestValues: [{ type: 'TIME_SERIES', key: 'temperature' }],
    },
  };
}

function deviceCount(cmdId: number): LiveCmd {
  return { type: 'ENTITY_COUNT', cmdId, query: { entityFilter: { type: 'entityType', entityType: 'DEVICE' } } };
}

/** True for a telemetry answer carrying `value` under `key`. */
function carries(key: string, value: unknown): (m: Record<string, unknown>) => boolean {
  return (m) => (m as unknown as TelemetryUpdate).data?.[key]?.some(([, v]) => v === value) ?? false;
}

describe('TIMESERIES over /api/ws', () => {
  it.each([
    ['unsubscribe: true', (cmdId: number) => ({ type: 'TIMESERIES', cmdId, unsubscribe: true })],
    ['TIMESERIES_UNSUBSCRIBE', (cmdId: number) => ({ type: 'TIMESERIES_UNSUBSCRIBE', cmdId })],
  ])('answers the latest value, pushes what the device publishes over MQTT, and stops after %s', async (_form, end) => {
    const { device, mqtt, ws } = await sensor();
    await publish(mqtt, 'telemetry', { temperature: 20 });
    ws.send({ cmds: [latest(1, device.id)] });
    const first = await ws.answer<TelemetryUpdate>(1);
    expect(first).toMatchObject({ cmdId: 1, subscriptionId: 1, errorCode: 0, errorMsg: null, cmdUpdateType: 'TIMESERIES' });
    expect(first.data?.temperature?.[0]?.[1]).toBe(20);

    await publish(mqtt, 'telemetry', { ts: 1_700_000_000_000, values: { temperature: 21 } });
    expect(await ws.answer<TelemetryUpdate>(1)).toMatchObject({ cmdUpdateType: 'TIMESERIES', data: { temperature: [[1_700_000_000_000, 21]] } });

    await expectSilenced(ws, {
      cmdId: 1,
      end: end(1),
      witness: latest(2, device.id),
      change: () => publish(mqtt, 'telemetry', { temperature: 22 }),
      heard: carries('temperature', 22),
    });
  });
});

describe('TIMESERIES_HISTORY over /api/ws', () => {
  it('answers once with the values of the range asked, newest kept within the limit, and pushes nothing afterwards', async () => {
    const { device, mqtt, ws } = await sensor();
    await publish(mqtt, 'telemetry', [1, 2, 3, 4].map((i) => ({ ts: 1000 * i, values: { temperature: i } })));
    ws.send({ cmds: [{ type: 'TIMESERIES_HISTORY', cmdId: 1, entityType: 'DEVICE', entityId: device.id, keys: 'temperature', startTs: 1000, endTs: 4000, limit: 2, useStrictDataTypes: true }] });
    const answer = await ws.answer<TelemetryUpdate>(1);
    expect(answer).toMatchObject({ cmdId: 1, errorCode: 0, cmdUpdateType: 'TIMESERIES_HISTORY' });
    expect(answer.data).toEqual({ temperature: [[2000, 2], [3000, 3]] });

    // A value inside the range asked is stored after the answer: a history command does not follow it.
    await expectSilenced(ws, {
      cmdId: 1,
      witness: latest(2, device.id),
      change: () => publish(mqtt, 'telemetry', { ts: 2500, values: { temperature: 99 } }),
      heard: carries('temperature', 99),
    });
  });
});

describe('ATTRIBUTES over /api/ws', () => {
  it.each([
    ['unsubscribe: true', (cmdId: number) => ({ type: 'ATTRIBUTES', cmdId, unsubscribe: true })],
    ['ATTRIBUTES_UNSUBSCRIBE', (cmdId: number) => ({ type: 'ATTRIBUTES_UNSUBSCRIBE', cmdId })],
  ])('answers the client attributes, pushes those the device publishes over MQTT, and stops after %s', async (_form, end) => {
    const { device, mqtt, ws } = await sensor();
    await publish(mqtt, 'attributes', { firmware: '1.0.0' });
    ws.send({ cmds: [clientAttributes(1, device.id)] });
    const first = await ws.answer<TelemetryUpdate>(1);
    expect(first).toMatchObject({ cmdId: 1, subscriptionId: 1, errorCode: 0, cmdUpdateType: 'ATTRIBUTES' });
    expect(first.data).toEqual({ firmware: [[expect.any(Number), '1.0.0']] });

    await publish(mqtt, 'attributes', { firmware: '1.1.0' });
    expect((await ws.answer<TelemetryUpdate>(1)).data).toEqual({ firmware: [[expect.any(Number), '1.1.0']] });

    await expectSilenced(ws, {
      cmdId: 1,
      end: end(1),
      witness: clientAttributes(2, device.id),
      change: () => publish(mqtt, 'attributes', { firmware: '2.0.0' }),
      heard: carries('firmware', '2.0.0'),
    });
  });
});

describe('ENTITY_DATA over /api/ws', () => {
  it('answers a page of the device with its fields and latest values, pushes new telemetry, and stops after ENTITY_DATA_UNSUBSCRIBE', async () => {
    const { device, mqtt, ws } = await sensor();
    await publish(mqtt, 'telemetry', { temperature: 20 });
    ws.send({ cmds: [entityData(1, device.id)] });
    const first = await ws.answer<EntityDataUpdate>(1);
    expect(first).toMatchObject({ cmdId: 1, errorCode: 0, cmdUpdateType: 'ENTITY_DATA', update: null, data: { totalElements: 1, hasNext: false } });
    expect(first.data?.data[0]).toMatchObject({
      entityId: { entityType: 'DEVICE', id: device.id },
      latest: { ENTITY_FIELD: { name: { value: device.name } }, TIME_SERIES: { temperature: { value: 20 } } },
    });

    await publish(mqtt, 'telemetry', { temperature: 21 });
    const pushed = await ws.answer<EntityDataUpdate>(1);
    expect(pushed).toMatchObject({ cmdUpdateType: 'ENTITY_DATA', data: null });
    expect(pushed.update).toEqual([expect.objectContaining({ entityId: { entityType: 'DEVICE', id: device.id }, latest: { TIME_SERIES: { temperature: { ts: expect.any(Number), value: 21 } } } })]);

    await expectSilenced(ws, {
      cmdId: 1,
      end: { type: 'ENTITY_DATA_UNSUBSCRIBE', cmdId: 1 },
      witness: entityData(2, device.id),
      change: () => publish(mqtt, 'telemetry', { temperature: 22 }),
      heard: (m) => (m as unknown as EntityDataUpdate).update?.[0]?.latest.TIME_SERIES?.temperature?.value === 22,
    });
  });
});

describe('ENTITY_COUNT over /api/ws', () => {
  it('answers the number of devices, counts again when one is created over HTTP, and stops after ENTITY_COUNT_UNSUBSCRIBE', async () => {
    const t = await makeLiveApp({ listen: true });
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [deviceCount(1)] });
    expect(await ws.answer<EntityCountUpdate>(1)).toEqual({ cmdId: 1, errorCode: 0, errorMsg: null, count: 0, cmdUpdateType: 'COUNT_DATA' });

    const device = await t.api.createDevice();
    expect(await ws.answer<EntityCountUpdate>(1)).toMatchObject({ count: 1, cmdUpdateType: 'COUNT_DATA' });

    await expectSilenced(ws, {
      cmdId: 1,
      end: { type: 'ENTITY_COUNT_UNSUBSCRIBE', cmdId: 1 },
      witness: deviceCount(2),
      change: () => t.api.ok(deviceRoutes.delete, { body: { ids: [device.id] } }),
      heard: (m) => m.count === 0,
    });
  });
});
