import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { App } from '../../server/app.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { HISTORY_LIMIT_MAX, telemetryRoutes, type TimeseriesValues } from '../../server/contract/telemetry.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { expectError } from '../helpers/error-body.ts';
import { makeDeviceApp, type DeviceApi } from '../helpers/devices.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';
import { migrations } from '../../server/app.ts';
import { storedValueCount } from '../helpers/stored-history.ts';

type Item = { ts: number; values: Record<string, unknown> };

/** Sends telemetry through the HTTP device API in bodies under its 64 KB limit. */
async function report(app: App, token: string, items: Item[]): Promise<void> {
  for (let i = 0; i < items.length; i += 1000) {
    const res = await app.inject({ method: 'POST', url: `/api/v1/${token}/telemetry`, payload: items.slice(i, i + 1000) });
    if (res.statusCode !== 200) throw new Error(`telemetry answered ${res.statusCode}: ${res.body}`);
  }
}

async function deviceWithHistory(items: Item[]) {
  const t = await makeDeviceApp();
  const device = await t.api.createDevice();
  const token = await tokenOf(t.api, device.id);
  await report(t.app, token, items);
  const query = (q: Record<string, string | number | boolean | undefined>) => t.api.call(telemetryRoutes.timeseries, { params: { id: device.id }, query: q });
  const values = async (q: Record<string, string | number | boolean | undefined>): Promise<TimeseriesValues> => {
    const res = await query(q);
    if (res.statusCode !== 200) throw new Error(`timeseries answered ${res.statusCode}: ${res.body}`);
    return res.json() as TimeseriesValues;
  };
  return { ...t, device, token, query, values };
}

/** t = 0, 1000, …, 9000 ms with v = 1 … 10, plus a text and a boolean key. */
const tenSeconds: Item[] = Array.from({ length: 10 }, (_, i) => ({ ts: i * 1000, values: { v: i + 1, label: `n${i}`, on: i % 2 === 0 } }));

describe('telemetry reads', () => {
  it('answers the latest value of every key without startTs, or of the keys asked for', async () => {
    const { values } = await deviceWithHistory(tenSeconds);
    expect(await values({})).toEqual({
      label: [{ ts: 9000, value: 'n9' }],
      on: [{ ts: 9000, value: false }],
      v: [{ ts: 9000, value: 10 }],
    });
    expect(await values({ keys: 'v, missing' })).toEqual({ v: [{ ts: 9000, value: 10 }] });
  });

  it('keeps as latest value the one with the greatest ts, whatever order values arrive in; an equal ts overwrites', async () => {
    const { app, token, values } = await deviceWithHistory([{ ts: 5000, values: { v: 5 } }, { ts: 9000, values: { v: 9 } }, { ts: 7000, values: { v: 7 } }]);
    expect(await values({ keys: 'v' })).toEqual({ v: [{ ts: 9000, value: 9 }] });
    await report(app, token, [{ ts: 8000, values: { v: 8 } }]);
    expect(await values({ keys: 'v' })).toEqual({ v: [{ ts: 9000, value: 9 }] });
    await report(app, token, [{ ts: 9000, values: { v: 90 } }, { ts: 6000, values: { v: 6 } }]);
    expect(await values({ keys: 'v' })).toEqual({ v: [{ ts: 9000, value: 90 }] });
    expect((await values({ keys: 'v', startTs: 0, orderBy: 'ASC' })).v?.map((p) => p.value)).toEqual([5, 6, 7, 8, 90]);
  });

  it('answers raw history in [startTs, endTs), newest first by default, within the limit', async () => {
    const { values } = await deviceWithHistory(tenSeconds);
    const desc = await values({ keys: 'v,label', startTs: 2000, endTs: 5000 });
    expect(desc.v).toEqual([{ ts: 4000, value: 5 }, { ts: 3000, value: 4 }, { ts: 2000, value: 3 }]);
    expect(desc.label?.map((p) => p.value)).toEqual(['n4', 'n3', 'n2']);
    expect((await values({ keys: 'v', startTs: 0, endTs: 10_000, orderBy: 'ASC', limit: 2 })).v).toEqual([{ ts: 0, value: 1 }, { ts: 1000, value: 2 }]);
    expect(await values({ keys: 'nothing', startTs: 0 })).toEqual({ nothing: [] });
  });

  it('aggregates numbers in interval buckets stamped at their middle, for MIN, MAX, AVG, SUM and COUNT', async () => {
    const { values } = await deviceWithHistory(tenSeconds);
    const agg = async (agg: string, keys = 'v') =>
      (await values({ keys, startTs: 0, endTs: 10_000, interval: 5000, agg }))[keys];
    expect(await agg('MIN')).toEqual([{ ts: 2500, value: 1 }, { ts: 7500, value: 6 }]);
    expect(await agg('MAX')).toEqual([{ ts: 2500, value: 5 }, { ts: 7500, value: 10 }]);
    expect(await agg('AVG')).toEqual([{ ts: 2500, value: 3 }, { ts: 7500, value: 8 }]);
    expect(await agg('SUM')).toEqual([{ ts: 2500, value: 15 }, { ts: 7500, value: 40 }]);
    expect(await agg('COUNT')).toEqual([{ ts: 2500, value: 5 }, { ts: 7500, value: 5 }]);
    // COUNT counts any value; the numeric aggregations read booleans as 1/0 and skip text.
    expect(await agg('COUNT', 'label')).toEqual([{ ts: 2500, value: 5 }, { ts: 7500, value: 5 }]);
    expect(await agg('SUM', 'on')).toEqual([{ ts: 2500, value: 3 }, { ts: 7500, value: 2 }]);
    expect(await agg('MAX', 'label')).toEqual([]);
    // NONE is the raw series.
    expect(await agg('NONE')).toHaveLength(10);
  });

  it('stamps a last, shorter bucket at its own middle and leaves empty buckets out', async () => {
    const { values } = await deviceWithHistory([
      { ts: 0, values: { v: 1 } },
      { ts: 11_000, values: { v: 7 } },
    ]);
    const sums = await values({ keys: 'v', startTs: 0, endTs: 12_000, interval: 5000, agg: 'SUM', orderBy: 'DESC' });
    expect(sums.v).toEqual([{ ts: 11_000, value: 7 }, { ts: 2500, value: 1 }]);
  });

  it('answers values as strings with useStrictDataTypes=false, and flags nothing without a thing model', async () => {
    const { values } = await deviceWithHistory([{ ts: 1, values: { v: 1.5, on: true, obj: { a: [1] } } }]);
    expect(await values({ useStrictDataTypes: false })).toEqual({
      obj: [{ ts: 1, value: '{"a":[1]}' }],
      on: [{ ts: 1, value: 'true' }],
      v: [{ ts: 1, value: '1.5' }],
    });
  });

  it('returns at most 50,000 records and refuses a larger limit with a clear key', async () => {
    const items = Array.from({ length: HISTORY_LIMIT_MAX + 10 }, (_, i) => ({ ts: i + 1, values: { n: i } }));
    const { values, query } = await deviceWithHistory(items);
    expect((await values({ keys: 'n', startTs: 0, limit: HISTORY_LIMIT_MAX })).n).toHaveLength(HISTORY_LIMIT_MAX);
    const body = expectError(await query({ keys: 'n', startTs: 0, limit: HISTORY_LIMIT_MAX + 1 }), 400, 31, 'error.telemetry.limitTooLarge');
    expect(body.details?.[0]?.field).toBe('querystring.limit');
  });

  it('refuses a history query without keys, an aggregation without interval, too many buckets and a reversed range', async () => {
    const { query } = await deviceWithHistory(tenSeconds);
    const keys = expectError(await query({ startTs: 0 }), 400, 31, 'error.telemetry.keysRequired');
    expect(keys.details?.[0]?.field).toBe('querystring.keys');
    expectError(await query({ keys: 'v', startTs: 0, agg: 'AVG' }), 400, 31, 'error.telemetry.intervalRequired');
    expectError(await query({ keys: 'v', startTs: 0, endTs: 1_000_000, interval: 10, agg: 'AVG' }), 400, 31, 'error.telemetry.tooManyIntervals');
    expectError(await query({ keys: 'v', startTs: 5000, endTs: 1000 }), 400, 31, 'error.telemetry.rangeInvalid');
    expectError(await query({ keys: 'v', startTs: 0, agg: 'MEDIAN' }), 400, 31, 'error.field.choice');
  });

  it('lists the keys a device reported and its client attributes; unknown devices are 404, anonymous calls 401', async () => {
    const { api, anonymous, device, app, token } = await deviceWithHistory(tenSeconds);
    expect(await api.ok(telemetryRoutes.timeseriesKeys, { params: { id: device.id } })).toEqual(['label', 'on', 'v']);
    await app.inject({ method: 'POST', url: `/api/v1/${token}/attributes`, payload: { fw: '1.2' } });
    expect(await api.ok(telemetryRoutes.attributes, { params: { id: device.id } })).toEqual([{ key: 'fw', value: '1.2', lastUpdateTs: expect.any(Number) as number }]);
    for (const route of [telemetryRoutes.timeseries, telemetryRoutes.timeseriesKeys, telemetryRoutes.attributes]) {
      expectError(await api.call(route, { params: { id: 'no-such-device' } }), 404, 32, 'error.notFound');
      expectError(await anonymous.call(route, { params: { id: device.id } }), 401, 10, 'error.auth.required');
    }
  });
});

function countRows(dataDir: string, table: 'ts_history' | 'ts_latest' | 'event_record', deviceId: string): number {
  const db = openDatabase(join(dataDir, 'edge.db'), migrations);
  try {
    // History values name their series (the device's ts_latest row), not the device; they are
    // staged first, then moved.
    if (table === 'ts_history') return storedValueCount(db, deviceId);
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE device_id = ?`).get(deviceId) as { n: number }).n;
  } finally {
    db.close();
  }
}

async function settingsOf(api: DeviceApi): Promise<number> {
  return (await api.ok(telemetryRoutes.getSettings)).telemetryRetentionDays;
}

describe('telemetry retention', () => {
  it('keeps 30 days by default and takes 1 to 3650', async () => {
    const { api } = await makeDeviceApp();
    expect(await settingsOf(api)).toBe(30);
    expect(await api.ok(telemetryRoutes.updateSettings, { body: { telemetryRetentionDays: 3650 } })).toEqual({ telemetryRetentionDays: 3650 });
    for (const days of [0, 3651, 1.5]) {
      const body = expectError(await api.call(telemetryRoutes.updateSettings, { body: { telemetryRetentionDays: days } }), 400, 31, 'error.telemetry.retentionDays');
      expect(body.details?.[0]?.field).toBe('body.telemetryRetentionDays');
    }
    expect(await settingsOf(api)).toBe(3650);
  });

  it('deletes history and event records older than the retention, keeping newer ones and latest values', async () => {
    const now = Date.now();
    const day = 86_400_000;
    const { app, api, device, token, values, dataDir } = await deviceWithHistory([
      { ts: now - 3 * day, values: { v: 1 } },
      { ts: now - 2 * day - 1000, values: { v: 2 } },
      { ts: now - day, values: { v: 3 } },
    ]);
    await app.inject({ method: 'POST', url: `/api/v1/${token}/telemetry`, payload: { ts: now - 3 * day, values: { old: 'only' } } });
    const events = [{ identifier: 'old', ts: now - 3 * day }, { identifier: 'new', ts: now - day }];
    const client = await connectDevice(app, { username: token });
    await client.publishAsync('v1/devices/me/events', JSON.stringify(events), { qos: 1 });
    await api.ok(telemetryRoutes.updateSettings, { body: { telemetryRetentionDays: 2 } });

    expect(await app.services!.telemetry!.runRetention(now)).toEqual({ history: 3, events: 1 });
    expect((await values({ keys: 'v,old', startTs: 0 }))).toEqual({ v: [{ ts: now - day, value: 3 }], old: [] });
    // The latest value stays even when its history is gone.
    expect((await values({ keys: 'old' })).old?.[0]?.value).toBe('only');
    expect(countRows(dataDir, 'event_record', device.id)).toBe(1);
  });

  it('purges what a deleted device stored', async () => {
    const { api, device, dataDir } = await deviceWithHistory(tenSeconds);
    expect(countRows(dataDir, 'ts_history', device.id)).toBe(30);
    await api.ok(deviceRoutes.delete, { body: { ids: [device.id] } });
    await eventually(() => countRows(dataDir, 'ts_history', device.id) + countRows(dataDir, 'ts_latest', device.id), (n) => n === 0);
  });
});
