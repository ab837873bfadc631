import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { thingModelRoutes } from '../../server/contract/thing-model.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import type { Events } from '../../server/lib/event-bus.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';
import { eventBody, intType, makeThingModelApp, param, propertyBody, propertyOf } from '../helpers/thing-model.ts';
import { migrations } from '../../server/app.ts';

async function publishJson(client: MqttClient, topic: string, body: unknown): Promise<void> {
  await client.publishAsync(topic, JSON.stringify(body), { qos: 1 });
}

/** A device of a product whose published model has four properties and an ALERT event. */
async function modelledDevice(workerFrom?: number) {
  const t = await makeThingModelApp(workerFrom === undefined ? undefined : { writer: { workerFrom } });
  const stored: Events['telemetry.stored'][] = [];
  const reported: Events['device.eventReported'][] = [];
  t.bus.on('telemetry.stored', (e) => stored.push(e));
  t.bus.on('device.eventReported', (e) => reported.push(e));
  const product = await t.api.createProduct();
  const temperature = await t.api.createItem(propertyBody(product.id, { identifier: 'temperature', functionJson: { dataType: intType({ max: 100 }) } }));
  await t.api.createItem(propertyOf(product.id, { type: 'BOOL', specs: { '0': 'off', '1': 'on' } }, { identifier: 'running' }));
  await t.api.createItem(propertyOf(product.id, { type: 'ENUM', specs: [{ value: 1, description: 'eco' }, { value: 2, description: 'boost' }] }, { identifier: 'mode' }));
  await t.api.createItem(propertyOf(product.id, { type: 'TEXT', specs: { length: 5 } }, { identifier: 'label' }));
  await t.api.createItem(eventBody(product.id, { identifier: 'overheat', functionName: '过温告警', eventType: 'ALERT', functionJson: { outputData: [param('temperature')] } }));
  await t.api.publish(product.id);
  const device = await t.api.createDevice({ deviceProfileId: product.id });
  const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
  return { ...t, product, temperature, device, client, stored, reported };
}

function eventRows(dataDir: string, deviceId: string): { identifier: string; event_name: string | null; event_type: string; params: string; flag: string | null }[] {
  const db = openDatabase(join(dataDir, 'edge.db'), migrations);
  try {
    return db.prepare('SELECT identifier, event_name, event_type, params, flag FROM event_record WHERE device_id = ? ORDER BY ts').all(deviceId) as never;
  } finally {
    db.close();
  }
}

describe('telemetry checked against the published thing model', () => {
  it.each([
    ['on the main thread', undefined],
    ['through the history worker', 1],
  ])('stores values that do not fit (out of range, wrong type, unknown key) with the reason as flag, and fitting ones without (%s)', async (_, workerFrom) => {
    const { api, device, client, stored } = await modelledDevice(workerFrom);
    await publishJson(client, 'v1/devices/me/telemetry', {
      ts: 1_000,
      values: { temperature: 150, running: 'yes', mode: 3, label: 'too long', humidity: 40 },
    });
    await publishJson(client, 'v1/devices/me/telemetry', { ts: 2_000, values: { running: true, mode: 2, label: 'ok' } });
    const latest = await api.ok(telemetryRoutes.timeseries, { params: { id: device.id } });
    expect(latest.temperature).toEqual([{ ts: 1_000, value: 150, flag: 'temperature: 150 is above the maximum 100' }]);
    expect(latest.humidity?.[0]).toMatchObject({ value: 40, flag: expect.stringContaining('no such property') as string });
    expect(latest.running).toEqual([{ ts: 2_000, value: true }]);
    expect(latest.mode).toEqual([{ ts: 2_000, value: 2 }]);
    const history = await api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'running,mode,label', startTs: 0, orderBy: 'ASC' } });
    expect(history.running?.[0]).toMatchObject({ value: 'yes', flag: expect.stringContaining('not true, false, 0 or 1') as string });
    expect(history.mode?.[0]?.flag).toContain('not one of 1, 2');
    expect(history.label?.[0]?.flag).toContain('more than 5');
    expect(history.label?.[1]).toEqual({ ts: 2_000, value: 'ok' });
    // Announced with the same flags.
    expect(stored[0]!.entries.find((e) => e.key === 'temperature')).toEqual({ ts: 1_000, key: 'temperature', value: 150, flag: 'temperature: 150 is above the maximum 100' });
    expect(stored[1]!.entries.every((e) => e.flag === undefined)).toBe(true);
  });

  it('applies an edited model only once it is published', async () => {
    const { api, product, temperature, device, client } = await modelledDevice();
    await api.ok(thingModelRoutes.update, {
      body: { ...propertyBody(product.id, { identifier: 'temperature', functionJson: { dataType: intType({ max: 200 }) } }), id: temperature.id },
    });
    await publishJson(client, 'v1/devices/me/telemetry', { ts: 1, values: { temperature: 150 } });
    await api.publish(product.id);
    await publishJson(client, 'v1/devices/me/telemetry', { ts: 2, values: { temperature: 150 } });
    const history = await api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'temperature', startTs: 0, orderBy: 'ASC' } });
    expect(history.temperature?.[0]?.flag).toContain('above the maximum 100');
    expect(history.temperature?.[1]).toEqual({ ts: 2, value: 150 });
  });
});

describe('event records', () => {
  it('matches reported events to the model’s events, and stores unmatched ones flagged', async () => {
    const { dataDir, device, client, reported } = await modelledDevice();
    await publishJson(client, 'v1/devices/me/events', [
      { identifier: 'overheat', ts: 1_000, params: { temperature: 96 } },
      { identifier: 'overheat', ts: 2_000, params: { temperature: 'hot' } },
      { identifier: 'doorOpen', ts: 3_000, type: 'ERROR', params: { door: 2 } },
      { identifier: 'unknownQuiet', ts: 4_000 },
    ]);
    expect(eventRows(dataDir, device.id)).toEqual([
      { identifier: 'overheat', event_name: '过温告警', event_type: 'ALERT', params: '{"temperature":96}', flag: null },
      { identifier: 'overheat', event_name: '过温告警', event_type: 'ALERT', params: '{"temperature":"hot"}', flag: 'temperature: "hot" is not an integer' },
      { identifier: 'doorOpen', event_name: null, event_type: 'ERROR', params: '{"door":2}', flag: 'doorOpen: no such event in the published thing model' },
      { identifier: 'unknownQuiet', event_name: null, event_type: 'INFO', params: '{}', flag: 'unknownQuiet: no such event in the published thing model' },
    ]);
    expect(reported.map((r) => [r.identifier, r.eventType, r.ts])).toEqual([
      ['overheat', 'ALERT', 1_000],
      ['overheat', 'ALERT', 2_000],
      ['doorOpen', 'ERROR', 3_000],
      ['unknownQuiet', 'INFO', 4_000],
    ]);
  });
});
