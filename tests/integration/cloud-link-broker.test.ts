/**
 * The cloud link against a bare broker (Debian's mosquitto) with an `mqtt` subscriber standing in
 * for the cloud: sub-devices and telemetry on ThingsBoard's gateway topics, store-and-forward
 * through an outage and a restart, the connection test, cloud events and a poison event.
 */
import { describe, expect, it } from 'vitest';
import { cloudLinkRoutes, type EdgeState } from '../../server/contract/cloud-link.ts';
import { makeApp } from '../helpers/app.ts';
import { killMidDrain } from '../helpers/cloud-link-kill.ts';
import { DeviceApi, makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { signIn } from '../helpers/session.ts';
import { DEFAULT_ADMIN } from '../helpers/setup.ts';
import { LiveClient, makeLiveApp } from '../helpers/live.ts';
import { startMosquitto } from '../helpers/mosquitto.ts';
import { eventually } from '../helpers/mqtt.ts';
import { configureCloud, edgeState, linkedEdge, sensor, telemetryOf } from '../helpers/cloud-subscriber.ts';

/**
 * An outage test stops and restarts the broker and waits for reconnect backoff and the drain: in a
 * full parallel run on two cores that took more than the suite's 20 s default.
 */
const OUTAGE_TEST_MS = 60_000;

const FAST = { cloudLink: { backoffMinMs: 100, backoffMaxMs: 400 } };
/**
 * After a broker restart the subscriber (reconnecting every 200 ms, resubscribing) must be back
 * before the edge: mosquitto forgot its subscription, and what the edge sends first would be lost
 * to the test, not to the edge.
 */
const AFTER_SUBSCRIBER = { cloudLink: { backoffMinMs: 1500, backoffMaxMs: 3000 } };

describe('cloud link to a bare broker', () => {
  it('connects, announces local devices as sub-devices and forwards their telemetry with each value\'s ts', async () => {
    const { cloud, t } = await linkedEdge(FAST);

    const device = await sensor(t, 'Boiler_1');
    await device.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_700_000_000_000 + Date.now() % 1000, values: { temperature: 21.5 } }), { qos: 1 });
    await device.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 22, pressure: 1.1 }), { qos: 1 });

    await eventually(() => telemetryOf(cloud.seen, 'Boiler_1'), (points) => points.length >= 1);
    const connect = cloud.seen.find((m) => m.topic === 'v1/gateway/connect' && m.body.device === 'Boiler_1');
    expect(connect?.body).toMatchObject({ device: 'Boiler_1', type: expect.any(String) });
    const points = await eventually(() => telemetryOf(cloud.seen, 'Boiler_1'), (p) => p.some((x) => x.values.pressure === 1.1));
    expect(points.find((p) => p.values.pressure === 1.1)).toMatchObject({ values: { temperature: 22, pressure: 1.1 } });
    const state = await edgeState(t);
    expect(state).toMatchObject({ status: 'CONNECTED', edgeName: 'TEST-SN-0001', edgeKey: 'edge-key' });
    expect(state.sentToday).toBeGreaterThan(0);
    expect(state.lastConnectTime).toBeGreaterThan(0);
  });

  it('delivers every message stored during a cloud outage, in order, after the broker returns', async () => {
    const { broker, cloud, t } = await linkedEdge(AFTER_SUBSCRIBER);
    const device = await sensor(t, 'Meter_7');

    await broker.stop();
    await eventually(() => edgeState(t), (s) => s.status !== 'CONNECTED');
    const N = 300;
    const base = Date.now() - 60_000;
    for (let i = 0; i < N; i++) await device.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: base + i, values: { n: i } }), { qos: 1 });
    // The state reads the backlog at most once a second.
    const waiting = await eventually(() => edgeState(t), (s) => s.backlog.messages === N);
    expect(waiting.backlog.oldestTs).toBe(base);
    expect(waiting.lastDisconnectTime).toBeGreaterThan(0);

    await broker.resume();
    const points = await eventually(() => telemetryOf(cloud.seen, 'Meter_7'), (p) => p.length >= N, 15_000);
    expect(points.map((p) => p.values.n)).toEqual(Array.from({ length: N }, (_, i) => i));
    expect(points.map((p) => p.ts)).toEqual(Array.from({ length: N }, (_, i) => base + i));
    await eventually(() => edgeState(t), (s) => s.backlog.messages === 0);
  }, OUTAGE_TEST_MS);

  it('resumes from its durable cursor after a restart: the backlog arrives, nothing acknowledged is sent again', async () => {
    const { broker, cloud, t: first } = await linkedEdge(FAST);
    const device = await sensor(first, 'Pump_3');
    const base = Date.now() - 60_000;
    await device.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: base, values: { n: -1 } }), { qos: 1 });
    await eventually(() => telemetryOf(cloud.seen, 'Pump_3'), (p) => p.length === 1);

    await broker.stop();
    for (let i = 0; i < 50; i++) await device.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: base + 1 + i, values: { n: i } }), { qos: 1 });
    device.end(true);
    await first.app.close();
    await broker.resume();

    await eventually(() => cloud.client.connected, (up) => up);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const restarted = await makeApp({ tuning: AFTER_SUBSCRIBER, dataDir: first.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] });
    const { token } = await signIn(restarted.app, DEFAULT_ADMIN.username, DEFAULT_ADMIN.password);
    const second = { ...restarted, api: new DeviceApi(restarted.app, token) } as unknown as DeviceTestApp;
    await eventually(() => edgeState(second), (s) => s.status === 'CONNECTED', 10_000);
    const points = await eventually(() => telemetryOf(cloud.seen, 'Pump_3'), (p) => p.length >= 51, 15_000);
    expect(points.map((p) => p.values.n)).toEqual([-1, ...Array.from({ length: 50 }, (_, i) => i)]);
  }, OUTAGE_TEST_MS);

  it('delivers the whole backlog after a kill -9 in the middle of the drain: in order, only the message in flight twice', async () => {
    const { broker, cloud, t: first } = await linkedEdge(FAST);
    const device = await sensor(first, 'Tank_5');
    await broker.stop();
    const N = 20_000;
    const base = Date.now() - 3_600_000;
    for (let batch = 0; batch < N / 500; batch++) {
      const points = Array.from({ length: 500 }, (_, i) => ({ ts: base + batch * 500 + i, values: { n: batch * 500 + i } }));
      await device.publishAsync('v1/devices/me/telemetry', JSON.stringify(points), { qos: 1 });
    }
    device.end(true);
    await killMidDrain({ first, broker, cloud, drainStarted: () => telemetryOf(cloud.seen, 'Tank_5').length > 0 });
    const beforeRestart = telemetryOf(cloud.seen, 'Tank_5').length;
    expect(beforeRestart).toBeLessThan(N);

    const restarted = await makeApp({ tuning: FAST, dataDir: first.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] });
    expect(restarted.app.services?.cloudLink).toBeDefined();
    const points = await eventually(() => telemetryOf(cloud.seen, 'Tank_5'), (p) => new Set(p.map((x) => x.values.n)).size >= N, 20_000);
    const unique = [...new Map(points.map((p) => [p.values.n as number, p])).keys()];
    expect(unique).toEqual(Array.from({ length: N }, (_, i) => i));
    // A message holds at most 500 values, and one was in flight at the kill.
    expect(points.length - N).toBeLessThanOrEqual(500);
  });

  it('answers an RPC for an unknown device with an error and shrugs off a malformed one, staying connected', async () => {
    const { cloud, t } = await linkedEdge(FAST);

    await cloud.client.publishAsync('v1/gateway/rpc', 'not json {', { qos: 1 });
    await cloud.client.publishAsync('v1/gateway/rpc', JSON.stringify({ device: 'Nobody_1', data: { id: 5, method: 'reboot' } }), { qos: 1 });
    await cloud.client.publishAsync('v1/gateway/attributes', JSON.stringify({ device: 'Nobody_1', data: { a: 1 } }), { qos: 1 });
    const reply = await eventually(() => cloud.seen.find((m) => m.topic === 'v1/gateway/rpc' && m.body.id === 5 && 'error' in (m.body.data as object)), (m) => m !== undefined);
    expect(reply!.body).toMatchObject({ device: 'Nobody_1', id: 5, data: { error: expect.stringContaining('Nobody_1') } });
    expect((await edgeState(t)).status).toBe('CONNECTED');
  });

  it('pushes the edge state over /api/ws (EDGE_STATE) as the link goes from NOT_CONFIGURED to CONNECTED', async () => {
    const broker = await startMosquitto();
    const t = await makeLiveApp({ listen: true, tuning: FAST });
    const live = await LiveClient.open(t, { token: t.token, lang: 'en-US' });
    live.send({ cmds: [{ type: 'EDGE_STATE', cmdId: 7 }] });
    const first = await live.answer<{ cmdUpdateType: string; data: EdgeState }>(7);
    expect(first).toMatchObject({ cmdUpdateType: 'EDGE_STATE', data: { status: 'NOT_CONFIGURED' } });

    await configureCloud(t, broker);
    const connected = await live.next<{ data: EdgeState }>((m) => m.cmdId === 7 && (m.data as EdgeState).status === 'CONNECTED');
    expect(connected.data).toMatchObject({ edgeKey: 'edge-key', backlog: { messages: 0 } });
    await broker.stop();
    const lost = await live.next<{ data: EdgeState }>((m) => m.cmdId === 7 && (m.data as EdgeState).status === 'DISCONNECTED');
    expect(lost.data.lastError).toBeTruthy();
  });

  it('answers the connection test with the outcome in words within 10 s', async () => {
    const broker = await startMosquitto();
    const t = await makeDeviceApp();
    const ok = await t.api.ok(cloudLinkRoutes.test, { body: { platformAddress: '127.0.0.1', platformPort: broker.port, platformKey: 'k', platformSecret: 's' } });
    expect(ok).toMatchObject({ ok: true, code: 0 });
    await broker.stop();
    const refused = await t.api.ok(cloudLinkRoutes.test, {
      lang: 'en-US',
      body: { platformAddress: '127.0.0.1', platformPort: broker.port, platformKey: 'k', platformSecret: 's' },
    });
    expect(refused).toMatchObject({ ok: false, code: -1, message: expect.stringContaining('Cannot reach the cloud server') });
  });

  it('records cloud events PENDING until the PUBACK, then DEPLOYED; a poison event is FAILED and the ones after it still go', async () => {
    const { cloud, t } = await linkedEdge({ cloudLink: { ...FAST.cloudLink, maxPacketBytes: 2000 } });
    const device = await sensor(t, 'Valve_9');
    await device.publishAsync('v1/devices/me/attributes', JSON.stringify({ blob: 'x'.repeat(3000) }), { qos: 1 });
    await device.publishAsync('v1/devices/me/attributes', JSON.stringify({ firmware: '1.2.3' }), { qos: 1 });

    await eventually(() => cloud.seen, (seen) => seen.some((m) => m.topic === 'v1/gateway/attributes' && (m.body['Valve_9'] as Record<string, unknown>)?.firmware === '1.2.3'));
    const failed = await eventually(() => t.api.ok(cloudLinkRoutes.events, { query: { status: 'FAILED' } }), (p) => p.total === 1);
    expect(failed.items[0]).toMatchObject({ entityName: 'Valve_9', entityType: 'ATTRIBUTE', event: 'ATTRIBUTES_UPDATED', status: 'FAILED', reason: expect.any(String) });
    const deployed = await eventually(() => t.api.ok(cloudLinkRoutes.events, { query: { status: 'DEPLOYED' } }), (p) => p.items.some((e) => e.event === 'CREATED'));
    expect(deployed.items.find((e) => e.event === 'CREATED')).toMatchObject({ entityName: 'Valve_9', entityType: 'DEVICE', deployedTime: expect.any(Number) });
    expect(deployed.counts.FAILED).toBe(1);

    const retried = await t.api.ok(cloudLinkRoutes.retry, { params: { id: failed.items[0]!.id } });
    expect(retried.status).toBe('PENDING');
    await eventually(() => t.api.ok(cloudLinkRoutes.events, { query: { status: 'FAILED' } }), (p) => p.total === 1);
  });
});
