/**
 * At high rates the history worker commits batches on its own connection (here from the first
 * batch on). The guarantees stay: a PUBACK leaves only once its message is committed, the latest
 * value is the one with the greatest ts, attributes and events are stored, a deleted device's data
 * goes, and live updates follow.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deviceRoutes } from '../../server/contract/device.ts';
import { eventRecordRoutes } from '../../server/contract/event-record.ts';
import { telemetryRoutes, type TimeseriesValues } from '../../server/contract/telemetry.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';
import { migrations } from '../../server/app.ts';
import { stagedCount, storedValueCount } from '../helpers/stored-history.ts';

const MESSAGES = 600;

async function workerApp(moveRows?: number) {
  const t = await makeDeviceApp({ tuning: { writer: { workerFrom: 1, ...(moveRows ? { moveRows } : {}) } } });
  const device = await t.api.createDevice();
  const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
  // A second connection, as a reader after a crash would see the file.
  const db = openDatabase(join(t.dataDir, 'edge.db'), migrations);
  // History values are staged first (migration 0014), then moved into blocks: a value counted
  // here is one still staged (none is moved while the test below looks, moveRows being large).
  const count = (key: string, ts: number): number => storedValueCount(db, device.id, { key, ts });
  return { ...t, device, client, db, count };
}

describe('telemetry through the history worker', () => {
  it('sends each PUBACK only once its message is committed, and keeps the value with the greatest ts as latest', async () => {
    const { api, device, client, db, count } = await workerApp();
    try {
      const missing: number[] = [];
      // Newest first, so arrival order and ts order disagree.
      await Promise.all(
        Array.from({ length: MESSAGES }, (_, i) => {
          const ts = 1_000_000 + MESSAGES - i;
          return client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts, values: { seq: i } }), { qos: 1 }).then(() => {
            if (count('seq', ts) !== 1) missing.push(i);
          });
        }),
      );
      expect(missing).toEqual([]);
      const latest = await api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'seq' } });
      expect(latest).toEqual({ seq: [{ ts: 1_000_000 + MESSAGES, value: 0 }] });
      const history = (await api.ok(telemetryRoutes.timeseries, {
        params: { id: device.id },
        query: { keys: 'seq', startTs: 0, limit: 50_000, orderBy: 'ASC' },
      })) as TimeseriesValues;
      expect(history.seq).toHaveLength(MESSAGES);
    } finally {
      client.end(true);
      db.close();
    }
  });

  it('moves staged values into history blocks between its batches, the latest value staying the one with the greatest ts', async () => {
    const { api, device, client, db } = await workerApp(50);
    try {
      // Newest first: the moves meet the greatest ts first, and older values after it.
      await Promise.all(
        Array.from({ length: MESSAGES }, (_, i) =>
          client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_000_000 + MESSAGES - i, values: { seq: i } }), { qos: 1 }),
        ),
      );
      // One more batch carries the move of what the last ones staged.
      await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1, values: { seq: -1 } }), { qos: 1 });
      const moved = (db.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM ts_block').get() as { n: number }).n;
      const staged = stagedCount(db);
      expect(moved).toBeGreaterThan(MESSAGES - 100);
      expect(moved + staged).toBe(MESSAGES + 1);
      expect(await api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'seq' } })).toEqual({
        seq: [{ ts: 1_000_000 + MESSAGES, value: 0 }],
      });
      const history = (await api.ok(telemetryRoutes.timeseries, {
        params: { id: device.id },
        query: { keys: 'seq', startTs: 0, limit: 50_000, orderBy: 'ASC' },
      })) as TimeseriesValues;
      expect(history.seq!.map((p) => p.value)).toEqual([-1, ...Array.from({ length: MESSAGES }, (_, i) => MESSAGES - 1 - i)]);
    } finally {
      client.end(true);
      db.close();
    }
  });

  it('stores text, JSON, attributes and events, and purges a deleted device', async () => {
    const { api, device, client, db, count } = await workerApp();
    try {
      await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 5000, values: { mode: 'eco', config: { a: [1, 2] }, on: true } }), { qos: 1 });
      await client.publishAsync('v1/devices/me/attributes', JSON.stringify({ fw: '1.2.3' }), { qos: 1 });
      await client.publishAsync('v1/devices/me/events', JSON.stringify({ identifier: 'overheat', params: { t: 90 } }), { qos: 1 });
      expect(await api.ok(telemetryRoutes.timeseries, { params: { id: device.id } })).toEqual({
        config: [{ ts: 5000, value: { a: [1, 2] } }],
        mode: [{ ts: 5000, value: 'eco' }],
        on: [{ ts: 5000, value: true }],
      });
      expect((await api.ok(telemetryRoutes.attributes, { params: { id: device.id } })).map((a) => [a.key, a.value])).toEqual([['fw', '1.2.3']]);
      const events = await api.ok(eventRecordRoutes.list, { params: { id: device.id }, query: { page: 1, pageSize: 10 } });
      expect(events.items.map((e) => [e.identifier, e.params])).toEqual([['overheat', { t: 90 }]]);

      client.end(true);
      await api.ok(deviceRoutes.delete, { body: { ids: [device.id] } });
      const left = db.prepare('SELECT (SELECT COUNT(*) FROM ts_latest WHERE device_id = ?) + (SELECT COUNT(*) FROM attribute_kv WHERE device_id = ?) AS n');
      await eventually(() => (left.get(device.id, device.id) as { n: number }).n + count('mode', 5000), (n) => n === 0);
    } finally {
      client.end(true);
      db.close();
    }
  });
});
