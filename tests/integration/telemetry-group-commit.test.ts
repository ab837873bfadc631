/**
 * Group commit end to end: devices publishing at once over MQTT, batches bounded to a few rows so
 * that many commits run while messages keep arriving, on the main thread and on the history worker.
 * Every acknowledged message is in history afterwards, and the latest value is each device's last.
 */
import { describe, expect, it } from 'vitest';
import { telemetryRoutes, type TimeseriesValues } from '../../server/contract/telemetry.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';

const DEVICES = 5;
const MESSAGES = 200;

describe.each([
  ['on the main thread', { maxRows: 8, workerFrom: 0 }],
  ['on the history worker', { maxRows: 8, workerFrom: 1 }],
])('telemetry group commit %s', (_, writer) => {
  it('stores every message of devices bursting at once, those that arrived during a commit included', async () => {
    const t = await makeDeviceApp({ tuning: { writer } });
    const devices = await Promise.all(Array.from({ length: DEVICES }, () => t.api.createDevice()));
    const clients = await Promise.all(devices.map(async (d) => connectDevice(t.app, { username: await tokenOf(t.api, d.id) })));
    await Promise.all(
      clients.flatMap((client) =>
        Array.from({ length: MESSAGES }, (_, i) =>
          client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_000_000 + i, values: { seq: i, twice: i * 2 } }), { qos: 1 }),
        ),
      ),
    );
    for (const device of devices) {
      const history = (await t.api.ok(telemetryRoutes.timeseries, {
        params: { id: device.id },
        query: { keys: 'seq,twice', startTs: 0, limit: 50_000, orderBy: 'ASC' },
      })) as TimeseriesValues;
      expect(history.seq?.map((p) => p.value)).toEqual(Array.from({ length: MESSAGES }, (_, i) => i));
      expect(history.twice?.map((p) => p.value)).toEqual(Array.from({ length: MESSAGES }, (_, i) => i * 2));
      const latest = await t.api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'seq' } });
      expect(latest).toEqual({ seq: [{ ts: 1_000_000 + MESSAGES - 1, value: MESSAGES - 1 }] });
    }
  });
});
