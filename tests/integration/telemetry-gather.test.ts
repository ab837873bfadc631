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

describe('gathering batches at saturation', () => {
  it('commits messages that arrive apart within the wait together, and each alone without it', async () => {
    const gathered = await batchesOfSpacedMessages(2000);
    expect(gathered.batches).toEqual([[100, 101, 102]]);
    expect(gathered.stored).toEqual([0, 100, 101, 102]);

    const alone = await batchesOfSpacedMessages(0);
    expect(alone.batches).toEqual([[100], [101], [102]]);
    expect(alone.stored).toEqual([0, 100, 101, 102]);
  });
});
