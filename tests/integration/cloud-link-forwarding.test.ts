/**
 * Live forwarding: the values of devices that are caught up go without reading the history back,
 * several devices' in one `v1/gateway/telemetry` message, each device's in order and once.
 */
import { describe, expect, it } from 'vitest';
import { edgeState, linkedEdge, sensor, telemetryOf } from '../helpers/cloud-subscriber.ts';
import { eventually } from '../helpers/mqtt.ts';

describe('cloud link: live forwarding', () => {
  it('sends the live values of several devices together, each device in order, none twice', async () => {
    const { cloud, t } = await linkedEdge({ cloudLink: { backoffMinMs: 100, backoffMaxMs: 400 } });
    const a = await sensor(t, 'Live_A');
    const b = await sensor(t, 'Live_B');
    const base = Date.now() - 10_000;
    // The first value of each is read from the history; from then on each is caught up.
    await a.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: base, values: { n: 0 } }), { qos: 1 });
    await b.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: base, values: { n: 0 } }), { qos: 1 });
    await eventually(() => telemetryOf(cloud.seen, 'Live_A').length + telemetryOf(cloud.seen, 'Live_B').length, (n) => n === 2);

    const N = 100;
    for (let i = 1; i <= N; i++) {
      await Promise.all([
        a.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: base + i, values: { n: i } }), { qos: 1 }),
        b.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: base + i, values: { n: i, m: -i } }), { qos: 1 }),
      ]);
    }
    const expected = Array.from({ length: N + 1 }, (_, i) => i);
    const pointsA = await eventually(() => telemetryOf(cloud.seen, 'Live_A'), (p) => p.length >= N + 1);
    const pointsB = await eventually(() => telemetryOf(cloud.seen, 'Live_B'), (p) => p.length >= N + 1);
    expect(pointsA.map((p) => p.values.n)).toEqual(expected);
    expect(pointsB.map((p) => p.values.n)).toEqual(expected);
    expect(pointsB.map((p) => p.ts)).toEqual(expected.map((i) => base + i));
    expect(pointsB[N]!.values).toEqual({ n: N, m: -N });
    const together = cloud.seen.filter((m) => m.topic === 'v1/gateway/telemetry' && 'Live_A' in m.body && 'Live_B' in m.body);
    expect(together.length).toBeGreaterThan(0);
    await eventually(() => edgeState(t), (s) => s.sentToday >= 2 * (N + 1) && s.backlog.messages === 0);
  });

  it('sends a caught-up device\'s values that arrive out of order, or split over entries of one ts, once each and in ts order', async () => {
    const { cloud, t } = await linkedEdge({ cloudLink: { backoffMinMs: 100, backoffMaxMs: 400 } });
    const d = await sensor(t, 'Unordered');
    const base = Date.now() - 10_000;
    await d.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: base, values: { n: 0 } }), { qos: 1 });
    await eventually(() => telemetryOf(cloud.seen, 'Unordered').length, (n) => n === 1);

    // Live from here: a newer ts first, then older ones (the history sorts them), then one ts in two entries.
    await d.publishAsync('v1/devices/me/telemetry', JSON.stringify([{ ts: base + 5, values: { n: 5 } }, { ts: base + 3, values: { n: 3 } }]), { qos: 1 });
    await d.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: base + 4, values: { n: 4 } }), { qos: 1 });
    await d.publishAsync('v1/devices/me/telemetry', JSON.stringify([{ ts: base + 6, values: { n: 6 } }, { ts: base + 6, values: { m: -6 } }]), { qos: 1 });
    await eventually(() => telemetryOf(cloud.seen, 'Unordered'), (p) => p.some((x) => x.ts === base + 6 && 'm' in x.values));
    await eventually(() => edgeState(t), (s) => s.backlog.messages === 0);
    const points = telemetryOf(cloud.seen, 'Unordered');
    expect(points.map((p) => p.ts)).toEqual([0, 3, 4, 5, 6].map((i) => base + i));
    expect(points.at(-1)!.values).toEqual({ n: 6, m: -6 });
  });

  it('splits live values that outgrow one message into several, devices sharing them, each within the cloud limit, in order, once', async () => {
    // 600 bytes: one device's six values (~240 B) fit twice in a message, three times not.
    const MAX = 600;
    const { cloud, t } = await linkedEdge({ cloudLink: { backoffMinMs: 100, backoffMaxMs: 400, maxPacketBytes: MAX } });
    const names = ['Split_A', 'Split_B', 'Split_C'];
    const devices = await Promise.all(names.map((name) => sensor(t, name)));
    const base = Date.now() - 10_000;
    await Promise.all(devices.map((d) => d.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: base, values: { n: 0 } }), { qos: 1 })));
    await eventually(() => names.map((n) => telemetryOf(cloud.seen, n).length), (counts) => counts.every((c) => c === 1));
    const seenBefore = cloud.seen.length;

    const BURSTS = 5;
    for (let burst = 0; burst < BURSTS; burst++) {
      const points = Array.from({ length: 6 }, (_, i) => ({ ts: base + 1 + burst * 6 + i, values: { n: 1 + burst * 6 + i } }));
      await Promise.all(devices.map((d) => d.publishAsync('v1/devices/me/telemetry', JSON.stringify(points), { qos: 1 })));
      // One burst per gathering: several would make one device's share too large on its own.
      await eventually(() => names.map((n) => telemetryOf(cloud.seen, n).length), (counts) => counts.every((c) => c >= 1 + (burst + 1) * 6));
    }
    const expected = Array.from({ length: 1 + BURSTS * 6 }, (_, i) => i);
    for (const name of names) {
      const points = await eventually(() => telemetryOf(cloud.seen, name), (p) => p.length >= expected.length);
      expect(points.map((p) => p.values.n)).toEqual(expected);
    }
    const sent = cloud.seen.slice(seenBefore).filter((m) => m.topic === 'v1/gateway/telemetry');
    for (const m of sent) expect(JSON.stringify(m.body).length + 30).toBeLessThanOrEqual(MAX);
    // Live, not read back from the history one device per message: two devices share a message.
    expect(sent.some((m) => Object.keys(m.body).length >= 2)).toBe(true);
  });
});
