/**
 * The device-event backlog's durable cursor against a bare broker (Debian's mosquitto): events
 * stored after the newest ones were deleted (their device deleted) still reach the cloud, and a
 * kill -9 in the middle of the event backlog loses nothing and repeats only what was in flight.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { deviceRoutes } from '../../server/contract/device.ts';
import { makeApp } from '../helpers/app.ts';
import { killMidDrain } from '../helpers/cloud-link-kill.ts';
import { edgeState, linkedEdge, sensor, telemetryOf } from '../helpers/cloud-subscriber.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

const FAST = { cloudLink: { backoffMinMs: 100, backoffMaxMs: 400 } };
/** Stops a broker, stores a backlog, restarts twice: more than the suite's 20 s default on two busy cores. */
const BACKLOG_TEST_MS = 60_000;

/** Event records of a device still stored, read beside the running gateway (WAL: readers do not block it). */
function storedEvents(dataDir: string, deviceId: string): number {
  const db = new DatabaseSync(join(dataDir, 'edge.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM event_record WHERE device_id = ?').get(deviceId) as { n: number }).n;
  } finally {
    db.close();
  }
}

function event(n: number, ts = Date.now()): { identifier: string; type: string; ts: number; params: { n: number } } {
  return { identifier: 'opened', type: 'INFO', ts, params: { n } };
}

describe('cloud link: the device-event cursor', () => {
  it('sends the events stored after the newest acknowledged ones were deleted with their device', async () => {
    const { cloud, t } = await linkedEdge(FAST);
    const early = await sensor(t, 'Door_early');
    await early.publishAsync('v1/devices/me/events', JSON.stringify(event(0)), { qos: 1 });
    const goneDevice = await t.api.createDevice({ name: 'Door_gone' });
    const gone = await connectDevice(t.app, { username: await tokenOf(t.api, goneDevice.id) });
    await gone.publishAsync('v1/devices/me/events', JSON.stringify([1, 2, 3].map((n) => event(n))), { qos: 1 });
    await eventually(() => telemetryOf(cloud.seen, 'Door_gone'), (p) => p.length === 3);
    await eventually(() => edgeState(t), (s) => s.backlog.messages === 0);
    gone.end(true);

    // The newest records go with their device: SQLite would hand their row ids to the next ones.
    await t.api.ok(deviceRoutes.delete, { body: { ids: [goneDevice.id] } });
    await eventually(() => storedEvents(t.dataDir, goneDevice.id), (n) => n === 0);

    await early.publishAsync('v1/devices/me/events', JSON.stringify([4, 5, 6].map((n) => event(n))), { qos: 1 });
    const points = await eventually(() => telemetryOf(cloud.seen, 'Door_early'), (p) => p.length >= 4).catch(async (err: Error) => {
      throw new Error(`${err.message}; edge state: ${JSON.stringify(await edgeState(t))}`);
    });
    expect(points.map((p) => p.values.opened)).toEqual([0, 4, 5, 6].map((n) => ({ n })));
    early.end(true);
  });

  it('delivers the whole event backlog after a kill -9 in the middle of the drain: in order, only the event in flight twice', async () => {
    const { broker, cloud, t: first } = await linkedEdge(FAST);
    const device = await sensor(first, 'Door_9');
    await broker.stop();
    const N = 3000;
    const base = Date.now() - 3_600_000;
    for (let i = 0; i < N; i += 100) {
      await device.publishAsync('v1/devices/me/events', JSON.stringify(Array.from({ length: 100 }, (_, k) => event(i + k, base + i + k))), { qos: 1 });
    }
    device.end(true);
    await eventually(() => edgeState(first), (s) => s.backlog.messages === N);
    // The child sends one message at a time (tests/helpers/cloud-link-child.ts): one event in flight.
    await killMidDrain({ first, broker, cloud, drainStarted: () => telemetryOf(cloud.seen, 'Door_9').length > 0 });
    const beforeRestart = telemetryOf(cloud.seen, 'Door_9').length;
    expect(beforeRestart).toBeLessThan(N);

    const restarted = await makeApp({ tuning: FAST, dataDir: first.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] });
    expect(restarted.app.services?.cloudLink).toBeDefined();
    const points = await eventually(() => telemetryOf(cloud.seen, 'Door_9'), (p) => new Set(p.map((x) => (x.values.opened as { n: number }).n)).size >= N, 20_000).catch((err: Error) => {
      const seen = new Set(telemetryOf(cloud.seen, 'Door_9').map((x) => (x.values.opened as { n: number }).n));
      const missing = Array.from({ length: N }, (_, i) => i).filter((i) => !seen.has(i));
      throw new Error(`${err.message.slice(0, 60)}; ${missing.length} events never reached the cloud: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}; before the kill ${beforeRestart}`);
    });
    const order = points.map((p) => (p.values.opened as { n: number }).n);
    // Oldest first; the one event in flight at the kill may come again right after the restart.
    expect([...new Set(order)]).toEqual(Array.from({ length: N }, (_, i) => i));
    expect(points.length - N).toBeLessThanOrEqual(1);
    expect(points.map((p) => p.ts)).toEqual(order.map((n) => base + n));
  }, BACKLOG_TEST_MS);
});
