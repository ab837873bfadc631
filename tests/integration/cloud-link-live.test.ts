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
});
