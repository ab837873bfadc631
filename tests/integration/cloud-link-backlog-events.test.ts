/**
 * The cloud link's device events and counters, against a bare broker (Debian's mosquitto): events
 * stored while the cloud was away go after it returns, oldest first, as telemetry of their
 * identifiers (read from the stored event records, resumed from a durable cursor), and the edge
 * state's counters and times survive a restart.
 */
import { describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app.ts';
import { edgeState, linkedEdge, sensor, telemetryOf } from '../helpers/cloud-subscriber.ts';
import { DeviceApi, type DeviceTestApp } from '../helpers/devices.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { eventually } from '../helpers/mqtt.ts';
import { signIn } from '../helpers/session.ts';
import { DEFAULT_ADMIN } from '../helpers/setup.ts';

/**
 * An outage test stops and restarts the broker and waits for reconnect backoff and the drain: in a
 * full parallel run on two cores that took more than the suite's 20 s default.
 */
const OUTAGE_TEST_MS = 60_000;

/** The subscriber (reconnecting every 200 ms) is back on a restarted broker before the edge. */
const AFTER_SUBSCRIBER = { cloudLink: { backoffMinMs: 1500, backoffMaxMs: 3000 } };

async function restart(first: DeviceTestApp): Promise<DeviceTestApp> {
  await first.app.close();
  const restarted = await makeApp({ tuning: AFTER_SUBSCRIBER, dataDir: first.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] });
  const { token } = await signIn(restarted.app, DEFAULT_ADMIN.username, DEFAULT_ADMIN.password);
  return { ...restarted, api: new DeviceApi(restarted.app, token) } as unknown as DeviceTestApp;
}

describe('cloud link: device events in the backlog, counters across a restart', () => {
  it('sends the N events stored during an outage after the broker returns, in order, as telemetry of their identifiers, once', async () => {
    const { broker, cloud, t: first } = await linkedEdge(AFTER_SUBSCRIBER);
    const device = await sensor(first, 'Door_4');
    // One event while connected goes live.
    const base = Date.now() - 60_000;
    await device.publishAsync('v1/devices/me/events', JSON.stringify({ identifier: 'opened', type: 'INFO', ts: base - 1, params: { n: -1 } }), { qos: 1 });
    await eventually(() => telemetryOf(cloud.seen, 'Door_4'), (p) => p.length === 1);

    await broker.stop();
    await eventually(() => edgeState(first), (s) => s.status !== 'CONNECTED');
    const N = 120;
    for (let i = 0; i < N; i += 10) {
      const batch = Array.from({ length: 10 }, (_, k) => ({ identifier: (i + k) % 2 ? 'closed' : 'opened', type: 'INFO', ts: base + i + k, params: { n: i + k } }));
      await device.publishAsync('v1/devices/me/events', JSON.stringify(batch), { qos: 1 });
    }
    const waiting = await eventually(() => edgeState(first), (s) => s.backlog.messages === N);
    expect(waiting.backlog.oldestTs).toBe(base);

    await broker.resume();
    // Seen once in a full parallel run and not reproduced since: the edge's state goes into the
    // failure message, so a next occurrence says whether the link or the drain was stuck.
    const points = await eventually(() => telemetryOf(cloud.seen, 'Door_4'), (p) => p.length >= N + 1, 30_000).catch(async (err: Error) => {
      throw new Error(`${err.message}; edge state: ${JSON.stringify(await edgeState(first))}; subscriber connected: ${cloud.client.connected}`);
    });
    expect(points.map((p) => p.values.opened ?? p.values.closed)).toEqual([{ n: -1 }, ...Array.from({ length: N }, (_, i) => ({ n: i }))]);
    expect(points.slice(1).map((p) => Object.keys(p.values)[0])).toEqual(Array.from({ length: N }, (_, i) => (i % 2 ? 'closed' : 'opened')));
    expect(points.map((p) => p.ts)).toEqual([base - 1, ...Array.from({ length: N }, (_, i) => base + i)]);
    await eventually(() => edgeState(first), (s) => s.backlog.messages === 0);
    device.end(true);

    // The event cursor is durable: after a restart, nothing acknowledged goes again.
    const second = await restart(first);
    await eventually(() => edgeState(second), (s) => s.status === 'CONNECTED', 10_000);
    const more = await sensor(second, 'Door_5');
    await more.publishAsync('v1/devices/me/events', JSON.stringify({ identifier: 'opened', type: 'INFO', params: { n: 1 } }), { qos: 1 });
    await eventually(() => telemetryOf(cloud.seen, 'Door_5'), (p) => p.length === 1);
    more.end(true);
    expect(telemetryOf(cloud.seen, 'Door_4')).toHaveLength(N + 1);
  }, OUTAGE_TEST_MS);

  it('keeps the messages sent today, the dropped count and the connect and disconnect times across a restart', async () => {
    const { broker, cloud, t: first } = await linkedEdge(AFTER_SUBSCRIBER);
    const device = await sensor(first, 'Gauge_2');
    // Values and an event older than any retention are dropped, never sent; the rest is sent.
    await device.publishAsync('v1/devices/me/telemetry', JSON.stringify([{ ts: 1000, values: { v: 0 } }, { ts: Date.now(), values: { v: 1 } }]), { qos: 1 });
    await device.publishAsync('v1/devices/me/events', JSON.stringify({ identifier: 'old', type: 'INFO', ts: 2000, params: {} }), { qos: 1 });
    await device.publishAsync('v1/devices/me/events', JSON.stringify({ identifier: 'new', type: 'INFO', params: {} }), { qos: 1 });
    await eventually(() => telemetryOf(cloud.seen, 'Gauge_2'), (p) => p.some((x) => 'new' in x.values) && p.some((x) => x.values.v === 1));
    device.end(true);
    const before = await eventually(() => edgeState(first), (s) => s.dropped === 2 && s.backlog.messages === 0 && s.sentToday >= 3);
    expect(telemetryOf(cloud.seen, 'Gauge_2').some((p) => p.ts < 10_000)).toBe(false);
    // Away from the cloud, nothing more is sent: the restarted gateway shows exactly what it had.
    await broker.stop();
    const away = await eventually(() => edgeState(first), (s) => s.status === 'DISCONNECTED');

    const second = await restart(first);
    const after = await edgeState(second);
    expect(away.sentToday).toBeGreaterThanOrEqual(before.sentToday);
    expect(after).toMatchObject({ sentToday: away.sentToday, dropped: 2, lastConnectTime: before.lastConnectTime, lastDisconnectTime: away.lastDisconnectTime });
    expect(after.lastDisconnectTime).toBeGreaterThan(0);
  }, OUTAGE_TEST_MS);
});
