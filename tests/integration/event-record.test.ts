import { describe, expect, it } from 'vitest';
import { eventRecordRoutes, type EventRecord } from '../../server/contract/event-record.ts';
import { expectError } from '../helpers/error-body.ts';
import { makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

async function events(t: LiveTestApp, deviceId: string, query: Record<string, string | number> = {}): Promise<{ items: EventRecord[]; total: number }> {
  return t.api.ok(eventRecordRoutes.list, { params: { id: deviceId }, query });
}

/** A device that reported four events over MQTT, at ts 1000…4000. */
async function reported(t: LiveTestApp): Promise<string> {
  const d = await t.api.createDevice();
  const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, d.id) });
  await mqtt.publishAsync(
    'v1/devices/me/events',
    JSON.stringify([
      { identifier: 'overheat', type: 'ALERT', ts: 1000, params: { temperature: 90 } },
      { identifier: 'door', type: 'INFO', ts: 2000, params: { open: true } },
      { identifier: 'overheat', type: 'ALERT', ts: 3000, params: { temperature: 95 } },
      { identifier: 'fault', type: 'ERROR', ts: 4000 },
    ]),
    { qos: 1 },
  );
  await eventually(() => events(t, d.id), (page) => page.total === 4);
  return d.id;
}

describe('event records', () => {
  it('lists what a device reported, newest first, with type and output parameters', async () => {
    const t = await makeLiveApp();
    const id = await reported(t);
    const page = await events(t, id);
    expect(page.items.map((e) => [e.ts, e.identifier, e.eventType])).toEqual([
      [4000, 'fault', 'ERROR'],
      [3000, 'overheat', 'ALERT'],
      [2000, 'door', 'INFO'],
      [1000, 'overheat', 'ALERT'],
    ]);
    expect(page.items[1]).toMatchObject({ deviceId: id, params: { temperature: 95 }, id: expect.any(String) });
    expect(page.items[0]?.params).toEqual({});
  });

  it('filters by identifier, event type and time range, with paging', async () => {
    const t = await makeLiveApp();
    const id = await reported(t);
    expect((await events(t, id, { identifier: 'overheat' })).items.map((e) => e.ts)).toEqual([3000, 1000]);
    expect((await events(t, id, { eventType: 'INFO' })).items.map((e) => e.identifier)).toEqual(['door']);
    expect((await events(t, id, { startTime: 2000, endTime: 3000 })).items.map((e) => e.ts)).toEqual([3000, 2000]);
    expect((await events(t, id, { identifier: 'overheat', eventType: 'ERROR' })).total).toBe(0);
    const second = await events(t, id, { page: 2, pageSize: 3 });
    expect(second).toMatchObject({ total: 4, items: [{ ts: 1000 }] });
  });

  it('refuses an end before the start, an unknown event type, an unknown device and a missing token', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    const range = expectError(
      await t.api.call(eventRecordRoutes.list, { params: { id: d.id }, query: { startTime: 5000, endTime: 4000 } }),
      400,
      31,
      'error.event.rangeInvalid',
    );
    expect(range.details?.[0]?.field).toBe('querystring.endTime');
    expectError(await t.api.call(eventRecordRoutes.list, { params: { id: d.id }, query: { eventType: 'WARN' } }), 400, 31, 'error.validation');
    expectError(await t.api.call(eventRecordRoutes.list, { params: { id: 'nope' } }), 404, 32, 'error.notFound');
    expectError(await t.anonymous.call(eventRecordRoutes.list, { params: { id: d.id } }), 401, 10, 'error.auth.required');
  });
});
