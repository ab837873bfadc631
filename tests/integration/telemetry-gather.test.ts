/**
 * At saturation a small batch waits up to `gatherMs` for more before it is committed
 * (telemetry-writer.ts): fewer, larger commits write fewer bytes per message. The writer announces
 * `telemetry.stored` once per device and batch, so the announcements show how messages were
 * batched: after a batch of `workerFrom` messages, messages arriving apart within the wait share
 * one commit; without the wait each is committed alone. Every message is stored and acknowledged.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { telemetryRoutes, type TimeseriesValues } from '../../server/contract/telemetry.ts';
import { EventBus } from '../../server/lib/event-bus.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';

/** Batches (telemetry.stored announcements) that held the messages of seq ≥ 100, and what history holds. */
async function batchesOfSpacedMessages(gatherMs: number): Promise<{ batches: number[][]; stored: unknown[] }> {
  const bus = new EventBus();
  const batches: number[][] = [];
  bus.on('telemetry.stored', (e) => {
    const seqs = e.entries.map((v) => v.value as number).filter((v) => v >= 100);
    if (seqs.length) batches.push(seqs);
  });
  // Saturation from the first batch on (workerFrom 1); the wait is long enough to see, not timed.
  const t = await makeDeviceApp({ bus, tuning: { writer: { workerFrom: 1, gatherMs, gatherMessages: 10 } } });
  const device = await t.api.createDevice();
  const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
  try {
    await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1000, values: { seq: 0 } }), { qos: 1 });
    const acks: Promise<unknown>[] = [];
    for (let i = 0; i < 3; i++) {
      acks.push(client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 2000 + i, values: { seq: 100 + i } }), { qos: 1 }));
      await sleep(100);
    }
    await Promise.all(acks);
    const history = (await t.api.ok(telemetryRoutes.timeseries, {
      params: { id: device.id },
      query: { keys: 'seq', startTs: 0, limit: 100, orderBy: 'ASC' },
    })) as TimeseriesValues;
    return { batches, stored: history.seq!.map((p) => p.value) };
  } finally {
    client.end(true);
  }
}

/**
 * After one batch of `workerFrom` messages, a gathered batch that falls short of it (two spaced
 * messages) must not end saturation: the two messages after it share a commit too. Judged from the
 * previous batch alone they were committed one by one, and at the bench's ~80k msg/s such cascades
 * of tiny commits wrote 156 B per message instead of ~120 (telemetry-writer.ts, `saturatedMs`).
 */
async function batchesAfterAShortGatheredBatch(): Promise<number[][]> {
  const bus = new EventBus();
  const batches: number[][] = [];
  bus.on('telemetry.stored', (e) => batches.push(e.entries.map((v) => v.value as number)));
  const t = await makeDeviceApp({ bus, tuning: { writer: { workerFrom: 3, gatherMs: 1000, gatherMessages: 10, saturatedMs: 60_000 } } });
  const device = await t.api.createDevice();
  const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
  const publish = (seq: number): Promise<unknown> =>
    client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1000 + seq, values: { seq } }), { qos: 1 });
  try {
    // A burst sent in one go is normally read in one turn, one batch; sent again until it was.
    for (let burst = 0; !batches.some((b) => b.length >= 3); burst++) {
      if (burst === 20) throw new Error('no burst of 4 messages was committed as one batch');
      await Promise.all([0, 1, 2, 3].map((i) => publish(10 * burst + i)));
    }
    const short = [publish(100)];
    await sleep(100);
    short.push(publish(101));
    await Promise.all(short);
    const next = [publish(102)];
    await sleep(100);
    next.push(publish(103));
    await Promise.all(next);
    return batches.filter((b) => b.some((v) => v >= 100));
  } finally {
    client.end(true);
  }
}

describe('gathering batches at saturation', () => {
  it('stays saturated after a gathered batch that fell short of workerFrom', async () => {
    expect(await batchesAfterAShortGatheredBatch()).toEqual([
      [100, 101],
      [102, 103],
    ]);
  });

  it('commits messages that arrive apart within the wait together, and each alone without it', async () => {
    const gathered = await batchesOfSpacedMessages(2000);
    expect(gathered.batches).toEqual([[100, 101, 102]]);
    expect(gathered.stored).toEqual([0, 100, 101, 102]);

    const alone = await batchesOfSpacedMessages(0);
    expect(alone.batches).toEqual([[100], [101], [102]]);
    expect(alone.stored).toEqual([0, 100, 101, 102]);
  });
});
