/**
 * Telemetry as ThingsBoard's clients send and read it: a `ts` given as a string, booleans and
 * numbers in another JSON type than their property's, and history aggregates that leave out
 * values flagged out of range.
 */
import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';
import { intType, makeThingModelApp, propertyOf } from '../helpers/thing-model.ts';

async function publishJson(client: MqttClient, topic: string, body: unknown): Promise<void> {
  await client.publishAsync(topic, JSON.stringify(body), { qos: 1 });
}

/** A device of a product whose published model has a BOOL `running`, an INT `level` (0–100) and a DOUBLE `flow`. */
async function modelledDevice() {
  const t = await makeThingModelApp();
  const product = await t.api.createProduct();
  await t.api.createItem(propertyOf(product.id, { type: 'BOOL', specs: { '0': 'off', '1': 'on' } }, { identifier: 'running' }));
  await t.api.createItem(propertyOf(product.id, intType({ min: 0, max: 100 }), { identifier: 'level' }));
  await t.api.createItem(propertyOf(product.id, { type: 'DOUBLE', specs: { min: 0, max: 1000, unit: 'L', unitName: 'litre' } }, { identifier: 'flow' }));
  await t.api.publish(product.id);
  const device = await t.api.createDevice({ deviceProfileId: product.id });
  const token = await tokenOf(t.api, device.id);
  const client = await connectDevice(t.app, { username: token, protocolVersion: 4 });
  return { ...t, device, token, client };
}

describe('a ts given as a string of digits', () => {
  it('is read as epoch milliseconds over MQTT, as ThingsBoard reads it', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id), protocolVersion: 4 });
    await publishJson(client, 'v1/devices/me/telemetry', { ts: '1700000000000', values: { humidity: 40 } });
    await publishJson(client, 'v1/devices/me/telemetry', [{ ts: '1700000001000', values: { humidity: 41 } }]);
    const history = await t.api.ok(telemetryRoutes.timeseries, {
      params: { id: device.id },
      query: { keys: 'humidity', startTs: 0, endTs: 1_800_000_000_000, orderBy: 'ASC' },
    });
    expect(history.humidity).toEqual([
      { ts: 1_700_000_000_000, value: 40 },
      { ts: 1_700_000_001_000, value: 41 },
    ]);
  });

  it('is read over HTTP too, and a ts that is no string of digits is still refused', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const token = await tokenOf(t.api, device.id);
    const post = (body: unknown) => t.app.inject({ method: 'POST', url: `/api/v1/${token}/telemetry`, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect((await post({ ts: '1700000000000', values: { t: 1 } })).statusCode).toBe(200);
    for (const ts of ['17e11', '-5', '1700000000000.5', 'soon', '']) {
      const res = await post({ ts, values: { t: 2 } });
      expect(res.statusCode, ts).toBe(400);
      expect(res.json()).toMatchObject({ code: 31, key: 'error.transport.badTs' });
    }
    const latest = await t.api.ok(telemetryRoutes.timeseries, { params: { id: device.id } });
    expect(latest.t).toEqual([{ ts: 1_700_000_000_000, value: 1 }]);
  });
});

describe('values in another JSON type than their property', () => {
  it('stores a BOOL sent as 1, 0, "1", "0", "true" or "false" as true or false, and flags what does not convert', async () => {
    const { api, device, client } = await modelledDevice();
    const sent: unknown[] = [1, 0, '1', '0', 'true', 'false', true, 2, 'yes', 'TRUE'];
    await publishJson(
      client,
      'v1/devices/me/telemetry',
      sent.map((running, i) => ({ ts: 1_000 + i, values: { running } })),
    );
    const history = await api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'running', startTs: 0, orderBy: 'ASC' } });
    expect(history.running?.map((p) => [p.value, p.flag !== undefined])).toEqual([
      [true, false],
      [false, false],
      [true, false],
      [false, false],
      [true, false],
      [false, false],
      [true, false],
      [2, true],
      ['yes', true],
      ['TRUE', true],
    ]);
  });

  it('stores an INT or DOUBLE sent as a string of a number as the number, checked against its range', async () => {
    const { api, device, client } = await modelledDevice();
    await publishJson(client, 'v1/devices/me/telemetry', { ts: 1_000, values: { level: '12', flow: '2.5' } });
    await publishJson(client, 'v1/devices/me/telemetry', { ts: 2_000, values: { level: '150', flow: '2.5e3' } });
    await publishJson(client, 'v1/devices/me/telemetry', { ts: 3_000, values: { level: '12.5', flow: ' 7' } });
    const history = await api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'level,flow', startTs: 0, orderBy: 'ASC' } });
    expect(history.level).toEqual([
      { ts: 1_000, value: 12 },
      { ts: 2_000, value: 150, flag: 'level: 150 is above the maximum 100' },
      { ts: 3_000, value: '12.5', flag: 'level: "12.5" is not an integer' },
    ]);
    expect(history.flow?.map((p) => [p.value, p.flag !== undefined])).toEqual([
      [2.5, false],
      ['2.5e3', true],
      [' 7', true],
    ]);
  });

  it('stores a BOOL client attribute sent as 1 as true', async () => {
    const { api, device, client } = await modelledDevice();
    await publishJson(client, 'v1/devices/me/attributes', { running: 1, firmware: '1.0' });
    const attributes = await api.ok(telemetryRoutes.attributes, { params: { id: device.id } });
    expect(attributes.map((a) => [a.key, a.value])).toEqual([
      ['firmware', '1.0'],
      ['running', true],
    ]);
  });
});

describe('history aggregates', () => {
  it('leave out values flagged out of range unless includeOutOfRange=true', async () => {
    const { api, device, client } = await modelledDevice();
    await publishJson(client, 'v1/devices/me/telemetry', [
      { ts: 1_000, values: { level: 10 } },
      { ts: 2_000, values: { level: 30 } },
      { ts: 3_000, values: { level: 500 } },
      { ts: 4_000, values: { level: -7 } },
    ]);
    const query = (agg: string, includeOutOfRange?: boolean) =>
      api.ok(telemetryRoutes.timeseries, {
        params: { id: device.id },
        query: { keys: 'level', startTs: 0, endTs: 10_000, interval: 10_000, agg, ...(includeOutOfRange === undefined ? {} : { includeOutOfRange }) },
      });
    const value = async (agg: string, includeOutOfRange?: boolean) => (await query(agg, includeOutOfRange)).level?.[0]?.value;
    expect(await value('MIN')).toBe(10);
    expect(await value('MAX')).toBe(30);
    expect(await value('AVG')).toBe(20);
    expect(await value('SUM')).toBe(40);
    expect(await value('COUNT')).toBe(2);
    expect(await value('MAX', false)).toBe(30);
    expect(await value('MIN', true)).toBe(-7);
    expect(await value('MAX', true)).toBe(500);
    expect(await value('COUNT', true)).toBe(4);
  });
});
