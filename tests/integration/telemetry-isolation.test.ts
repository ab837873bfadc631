/**
 * One device's message must never cost another device its data or its connection. A value nested
 * far too deep is refused at parse time, like any other refused payload; and should a message fail
 * to commit for a reason of its own anyway, the batch it shared is split so only it fails. Both
 * hold with commits on the main thread and through the history worker.
 */
import type { MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../server/contract/errors.ts';
import { telemetryRoutes, type TelemetryValue, type TimeseriesValues } from '../../server/contract/telemetry.ts';
import type { App, AppOptions } from '../../server/app.ts';
import { makeDeviceApp, type DeviceApi } from '../helpers/devices.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

/** `{"deep":[[[…]]]}`: 30,000 arrays inside each other, 60 KB, under the 64 KB payload limit. */
const POISON = `{"deep":${'['.repeat(30_000)}${']'.repeat(30_000)}}`;
const ROUNDS = 10;
const PER_ROUND = 5;

const modes: [string, AppOptions['tuning']][] = [
  ['on the main thread', undefined],
  ['through the history worker', { writer: { workerFrom: 1 } }],
];

function history(api: DeviceApi, id: string, key: string): Promise<TimeseriesValues> {
  return api.ok(telemetryRoutes.timeseries, { params: { id }, query: { keys: key, startTs: 0, endTs: 1_000_000, orderBy: 'ASC', limit: 1000 } });
}

function refusedCount(app: App, key: string): number {
  return app.services!.transport!.statsSnapshot().refused[key] ?? 0;
}

/** Rejects as soon as any of `clients` is closed by the broker. */
function anyClosed(clients: Record<string, MqttClient>): Promise<never> {
  const closed = new Promise<never>((_, reject) => {
    for (const [name, client] of Object.entries(clients)) client.once('close', () => reject(new Error(`${name} was disconnected`)));
  });
  closed.catch(() => undefined);
  return closed;
}

describe.each(modes)('one device’s message and the others’ (commits %s)', (_mode, tuning) => {
  it('keeps every other device connected and stores all it sends while one device publishes a value nested 30,000 deep ten times', async () => {
    const t = await makeDeviceApp({ tuning });
    const [poisoner, steady0, steady1] = [await t.api.createDevice(), await t.api.createDevice(), await t.api.createDevice()];
    const clients = {
      poisoner: await connectDevice(t.app, { username: await tokenOf(t.api, poisoner.id) }),
      qos0: await connectDevice(t.app, { username: await tokenOf(t.api, steady0.id) }),
      qos1: await connectDevice(t.app, { username: await tokenOf(t.api, steady1.id) }),
    };
    const closed = anyClosed(clients);
    for (let round = 0; round < ROUNDS; round++) {
      // Sent together so that they share the writer's batches.
      const sent: Promise<unknown>[] = [clients.poisoner.publishAsync('v1/devices/me/telemetry', POISON, { qos: 1 })];
      for (let j = 0; j < PER_ROUND; j++) {
        const ts = round * PER_ROUND + j + 1;
        sent.push(clients.qos0.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts, values: { n: ts } }), { qos: 0 }));
        sent.push(clients.qos1.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts, values: { n: ts } }), { qos: 1 }));
      }
      await Promise.race([Promise.all(sent), closed]);
    }
    const all = ROUNDS * PER_ROUND;
    await Promise.race([eventually(() => history(t.api, steady0.id, 'n'), (h) => h.n?.length === all), closed]);
    expect((await history(t.api, steady1.id, 'n')).n?.map((p) => p.value)).toEqual(Array.from({ length: all }, (_, i) => i + 1));
    expect(Object.values(clients).map((c) => c.connected)).toEqual([true, true, true]);
    expect(await t.api.ok(telemetryRoutes.timeseriesKeys, { params: { id: poisoner.id } })).toEqual([]);
    expect(refusedCount(t.app, 'error.transport.tooDeep')).toBe(ROUNDS);
  });

  it('fails only the message whose values cannot be stored, and commits the rest of its batch', async () => {
    const t = await makeDeviceApp({ tuning });
    const [bad, good] = [await t.api.createDevice(), await t.api.createDevice()];
    const telemetry = t.app.services!.telemetry!;
    let deep: unknown = [];
    for (let i = 0; i < 30_000; i++) deep = [deep];
    // Values no device payload can carry (the parser refuses them): the encoder or SQLite throws.
    const unstorable: [string, number, unknown][] = [
      ['deep', 1, deep],
      ['big', 1, 10n],
      ['when', Number.NaN, 1],
    ];
    const writes = [
      ...unstorable.map(([key, ts, value]) => telemetry.telemetry(bad, [{ key, ts, value: value as TelemetryValue }], 10)),
      ...Array.from({ length: 20 }, (_, i) => telemetry.telemetry(good, [{ key: 'n', ts: i + 1, value: i + 1 }], 10)),
    ];
    const results = await Promise.allSettled(writes);
    expect(results.map((r) => r.status)).toEqual([...unstorable.map(() => 'rejected'), ...Array.from({ length: 20 }, () => 'fulfilled')]);
    expect((await history(t.api, good.id, 'n')).n).toHaveLength(20);
    expect(await t.api.ok(telemetryRoutes.timeseriesKeys, { params: { id: bad.id } })).toEqual([]);
    // The writer goes on as before.
    await telemetry.telemetry(bad, [{ key: 'ok', ts: 5, value: 1 }], 10);
    expect((await history(t.api, bad.id, 'ok')).ok).toEqual([{ ts: 5, value: 1 }]);
  });
});

describe('payloads nested too deep', () => {
  it('answers 400 with the reason’s key over HTTP, and stores the device’s next message', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/v1/${await tokenOf(t.api, device.id)}`;
    const post = (path: string, body: string) => fetch(`${base}${path}`, { method: 'POST', body, headers: { 'accept-language': 'en-US' } });
    for (const path of ['/telemetry', '/attributes']) {
      const res = await post(path, POISON);
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as ErrorBody;
      expect(body).toEqual({ code: 31, key: 'error.transport.tooDeep', message: 'The message nests objects and arrays deeper than 32 levels' });
    }
    expect((await post('/telemetry', JSON.stringify({ ts: 7, values: { t: 21 } }))).status).toBe(200);
    expect((await history(t.api, device.id, 't')).t).toEqual([{ ts: 7, value: 21 }]);
  });

  it('accepts a value nested to the limit and refuses one level more', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
    // The message object is the first level, so the value may nest 31 more.
    const nested = (levels: number) => JSON.stringify({ v: JSON.parse('['.repeat(levels) + ']'.repeat(levels)) as unknown });
    await client.publishAsync('v1/devices/me/telemetry', nested(32), { qos: 1 });
    await client.publishAsync('v1/devices/me/telemetry', nested(31), { qos: 1 });
    const latest = await t.api.ok(telemetryRoutes.timeseries, { params: { id: device.id } });
    expect(JSON.stringify(latest.v?.[0]?.value)).toBe('['.repeat(31) + ']'.repeat(31));
    expect(refusedCount(t.app, 'error.transport.tooDeep')).toBe(1);
  });

  it('drops and counts deep attributes, events and gateway messages over MQTT, keeping the sender connected', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const gateway = await t.api.createDevice({ deviceType: 'GATEWAY' });
    const sensor = await t.api.createDevice({ deviceType: 'SENSOR', gatewayId: gateway.id, name: 'Sensor_Deep' });
    const direct = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
    const viaGateway = await connectDevice(t.app, { username: await tokenOf(t.api, gateway.id) });
    const closed = anyClosed({ direct, viaGateway });
    const deep = '['.repeat(30_000) + ']'.repeat(30_000);
    await Promise.race([direct.publishAsync('v1/devices/me/attributes', `{"a":${deep}}`, { qos: 1 }), closed]);
    await Promise.race([direct.publishAsync('v1/devices/me/events', `{"identifier":"e","params":{"p":${deep}}}`, { qos: 1 }), closed]);
    await Promise.race([viaGateway.publishAsync('v1/gateway/telemetry', `{"Sensor_Deep":[{"a":${deep}}]}`, { qos: 1 }), closed]);
    await Promise.race([viaGateway.publishAsync('v1/gateway/attributes', `{"Sensor_Deep":{"a":${deep}}}`, { qos: 1 }), closed]);
    expect(refusedCount(t.app, 'error.transport.tooDeep')).toBe(4);
    expect([direct.connected, viaGateway.connected]).toEqual([true, true]);
    await viaGateway.publishAsync('v1/gateway/telemetry', JSON.stringify({ Sensor_Deep: [{ ts: 3, values: { a: 1 } }] }), { qos: 1 });
    expect((await history(t.api, sensor.id, 'a')).a).toEqual([{ ts: 3, value: 1 }]);
  });
});

describe('reserved keys', () => {
  it('refuses __proto__, constructor and prototype as telemetry or attribute keys, naming the key', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      await client.publishAsync('v1/devices/me/telemetry', `{"${key}":1,"fine":2}`, { qos: 1 });
      await client.publishAsync('v1/devices/me/attributes', `{"${key}":1}`, { qos: 1 });
    }
    expect(refusedCount(t.app, 'error.transport.reservedKey')).toBe(6);
    expect(await t.api.ok(telemetryRoutes.timeseriesKeys, { params: { id: device.id } })).toEqual([]);
    expect(await t.api.ok(telemetryRoutes.attributes, { params: { id: device.id } })).toEqual([]);

    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/v1/${await tokenOf(t.api, device.id)}/telemetry`;
    const res = await fetch(url, { method: 'POST', body: '{"ts":1,"values":{"__proto__":{"x":1}}}', headers: { 'accept-language': 'en-US' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 31, key: 'error.transport.reservedKey', message: '__proto__ is a reserved name and cannot be a key' });
  });
});
