/**
 * History blocks (migration 0012, history-compactor.ts): older history rows move into compressed
 * blocks and every history query answers exactly as before: raw values with their flags, in
 * either order, within limits, and MIN/MAX/AVG/SUM/COUNT over intervals that straddle the
 * row/block boundary and the blocks' own edges. Two gateways receive the same values; one
 * compacts, the other never does, and both must answer alike, also after late values overwrite or
 * fall inside compacted spans. The one that never compacts never moves its staged values either
 * (migration 0014); the compacting one moves them often, into many small blocks made straight from
 * staged values, which compaction then merges; a third moves them into blocks in larger moves:
 * staged values and blocks answer alike, before and after the merge, a staged value overwriting a
 * block value or another staged value. Rows of ts_history (history from before staged values
 * became blocks) are covered by the compaction crash test and the raw-row cases of this file's
 * last test.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/app.ts';
import { HISTORY_LIMIT_MAX, telemetryRoutes, type TimeseriesValues } from '../../server/contract/telemetry.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { eventually, tokenOf } from '../helpers/mqtt.ts';
import { makeThingModelApp, propertyOf } from '../helpers/thing-model.ts';
import { stagedCount } from '../helpers/stored-history.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = Date.UTC(2025, 0, 6);
/** 20 s apart from 6 h before BASE to 3 days and 2 h after it. */
const STEP = 20_000;
const FIRST = BASE - 6 * HOUR;
const LAST = BASE + 3 * DAY + 2 * HOUR;
/** The compactor's "now": rows older than an hour before it (the default recent window) become blocks. */
const NOW = BASE + 3 * DAY + HOUR;
const KEYS = 'temperature,humidity,running,mixed';

type Item = { ts: number; values: Record<string, unknown> };

/** A seeded generator, so both gateways get the same values. */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

/**
 * temperature and humidity are one-decimal DOUBLE properties (temperature sometimes out of
 * range, so flagged), running a BOOL property, mixed a key the model lacks (every value flagged)
 * whose type changes: numbers, strings, booleans, objects.
 */
function series(): Item[] {
  const rnd = random(7);
  let t = 20;
  const items: Item[] = [];
  for (let ts = FIRST, i = 0; ts <= LAST; ts += STEP, i++) {
    t = Math.round((t + (rnd() - 0.5) * 3) * 10) / 10;
    if (t > 60 || t < -30) t = 20;
    const kind = i % 13;
    const mixed = kind < 8 ? Math.round(rnd() * 10_000) / 100 : kind < 10 ? ['idle', 'busy'][i % 2] : kind === 10 ? i % 3 === 0 : { n: i, tags: ['a'] };
    // Humidity skips some stamps, so blocks of different keys do not line up.
    const values: Record<string, unknown> = { temperature: i % 97 === 5 ? 130.5 : t, running: Math.floor(i / 500) % 2 === 0, mixed };
    if (i % 7 !== 3) values.humidity = Math.round(rnd() * 1000) / 10;
    items.push({ ts, values });
  }
  return items;
}

/** Values arriving late: overwriting compacted ones, falling between them, flagged or not. */
function lateValues(): Item[] {
  return [
    { ts: BASE + 2 * HOUR, values: { temperature: 200, humidity: 55.5, mixed: 'late' } },
    { ts: BASE + 2 * HOUR + 7, values: { temperature: 21.25, running: true } },
    { ts: BASE + DAY + 5 * HOUR + 40_000, values: { humidity: 0.1, mixed: 7 } },
    { ts: FIRST, values: { temperature: -99, humidity: 100 } },
  ];
}

async function gateway(blockPoints: number, writer: { moveRows?: number; moveMs?: number } = {}) {
  const t = await makeThingModelApp({ compactor: { everyMs: 0, blockPoints }, writer });
  const product = await t.api.createProduct();
  const double = (min: number, max: number) => ({ type: 'DOUBLE', specs: { min, max, step: 0.1, unit: '%', unitName: 'percent' } });
  await t.api.createItem(propertyOf(product.id, double(-40, 125), { identifier: 'temperature' }));
  await t.api.createItem(propertyOf(product.id, double(0, 100), { identifier: 'humidity' }));
  await t.api.createItem(propertyOf(product.id, { type: 'BOOL', specs: { '0': 'off', '1': 'on' } }, { identifier: 'running' }));
  await t.api.publish(product.id);
  const device = await t.api.createDevice({ deviceProfileId: product.id });
  const token = await tokenOf(t.api, device.id);
  const send = async (items: Item[]): Promise<void> => {
    for (let at = 0; at < items.length; at += 400) {
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/${token}/telemetry`, payload: items.slice(at, at + 400) });
      expect(res.statusCode).toBe(200);
    }
  };
  const query = (q: Record<string, string | number | boolean>): Promise<TimeseriesValues> =>
    t.api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: KEYS, ...q } });
  return { ...t, device, send, query };
}

/** Every query shape whose answer must not change with compaction. */
function queries(): Record<string, string | number | boolean>[] {
  const list: Record<string, string | number | boolean>[] = [
    { startTs: 0, endTs: LAST + 1, limit: HISTORY_LIMIT_MAX, orderBy: 'ASC' },
    { startTs: 0, endTs: LAST + 1, limit: HISTORY_LIMIT_MAX },
    { startTs: BASE + 13 * HOUR + 7000, endTs: BASE + 2 * DAY + 5 * HOUR, limit: 5000, orderBy: 'ASC' },
    { startTs: BASE + 13 * HOUR + 7000, endTs: BASE + 2 * DAY + 5 * HOUR, limit: 777 },
    // Around the row/block boundary (NOW - 1 h) and inside one block.
    { startTs: NOW - 2 * HOUR, endTs: NOW - HOUR / 2, limit: 1000, orderBy: 'ASC' },
    { startTs: NOW - 2 * HOUR, endTs: NOW, limit: 100 },
    { startTs: BASE + 3 * HOUR + 1, endTs: BASE + 3 * HOUR + 120_001, orderBy: 'ASC' },
    { startTs: BASE + DAY, endTs: BASE + DAY, orderBy: 'ASC' },
    { startTs: 0, endTs: LAST + 1, limit: 50, orderBy: 'ASC', useStrictDataTypes: false },
  ];
  for (const agg of ['MIN', 'MAX', 'AVG', 'SUM', 'COUNT']) {
    for (const interval of [HOUR, 7 * HOUR + 13, DAY]) {
      list.push({ agg, interval, startTs: FIRST, endTs: LAST + 1 });
      list.push({ agg, interval, startTs: BASE + 17 * 60_000 + 3000, endTs: NOW - HOUR + 10 * 60_000, orderBy: 'DESC', limit: 5 });
    }
    list.push({ agg, interval: 4 * DAY, startTs: 0, endTs: LAST + 1 });
  }
  return list;
}

function tableCounts(dataDir: string): { rows: number; staged: number; blocks: number; blockValues: number; oldestRow: number } {
  const db = openDatabase(join(dataDir, 'edge.db'), migrations);
  try {
    const rows = db.prepare('SELECT COUNT(*) AS n, MIN(ts) AS oldest FROM ts_history').get() as { n: number; oldest: number };
    const blocks = db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(count), 0) AS v FROM ts_block').get() as { n: number; v: number };
    return { rows: rows.n, staged: stagedCount(db), blocks: blocks.n, blockValues: blocks.v, oldestRow: rows.oldest };
  } finally {
    db.close();
  }
}

async function answers(g: Awaited<ReturnType<typeof gateway>>): Promise<TimeseriesValues[]> {
  const out: TimeseriesValues[] = [];
  for (const q of queries()) out.push(await g.query(q));
  return out;
}

describe('history blocks', () => {
  it('answers every raw and aggregated history query the same before and after compaction, also once late values reach compacted spans', { timeout: 120_000 }, async () => {
    const items = series();
    const compacted = await gateway(1000, { moveRows: 300, moveMs: 0 });
    const plain = await gateway(1000, { moveRows: 0, moveMs: 0 });
    const moved = await gateway(1000, { moveRows: 1000, moveMs: 0 });
    await compacted.send(items);
    await plain.send(items);
    await moved.send(items);
    const plainCounts = tableCounts(plain.dataDir);
    expect(plainCounts.rows).toBe(0);
    expect(plainCounts.blocks).toBe(0);
    const movedCounts = tableCounts(moved.dataDir);
    expect(movedCounts.rows).toBe(0);
    expect(movedCounts.blockValues).toBeGreaterThan(plainCounts.staged - 2000);
    const smallBlocks = tableCounts(compacted.dataDir);
    expect(smallBlocks.rows).toBe(0);
    // One block per series and day at each move of a few hundred values.
    expect(smallBlocks.blockValues / smallBlocks.blocks).toBeLessThan(500);

    const before = await answers(compacted);
    expect(before).toEqual(await answers(plain));
    expect(await answers(moved)).toEqual(before);
    // The comparison has something to compare: flags, every type, full buckets.
    expect(before[0]!.temperature!.some((p) => p.flag?.includes('above the maximum'))).toBe(true);
    expect(new Set(before[0]!.mixed!.map((p) => typeof p.value))).toEqual(new Set(['number', 'string', 'boolean', 'object']));

    const result = await compacted.app.services!.telemetry!.compactHistory(NOW);
    expect(result.series).toBe(4);
    const counts = tableCounts(compacted.dataDir);
    expect(counts.blocks).toBeGreaterThan(4 * 3);
    // Small blocks merged: fewer, fuller blocks.
    expect(counts.blocks).toBeLessThan(smallBlocks.blocks / 2);
    expect(counts.rows).toBe(0);
    expect(counts.staged).toBe(0);
    expect(counts.rows + counts.blockValues).toBe(plainCounts.staged);
    expect(await answers(compacted)).toEqual(before);

    // Late values: a row now shares a ts with a block value, or falls inside a block's span.
    await compacted.send(lateValues());
    await plain.send(lateValues());
    await moved.send(lateValues());
    const late = await answers(plain);
    expect(late).not.toEqual(before);
    expect(await answers(compacted)).toEqual(late);
    expect(await answers(moved)).toEqual(late);
    await compacted.app.services!.telemetry!.compactHistory(NOW);
    expect(tableCounts(compacted.dataDir)).toMatchObject({ rows: 0, staged: 0 });
    expect(await answers(compacted)).toEqual(late);
    // The latest values are the live path's, untouched by compaction.
    expect(await compacted.query({})).toEqual(await plain.query({}));
  });

  it('deletes compacted history older than the retention, keeping the newer part of a block that straddles it', { timeout: 60_000 }, async () => {
    const g = await gateway(1000);
    const items = series().filter((i) => i.ts < BASE + DAY);
    await g.send(items);
    await g.app.services!.telemetry!.compactHistory(NOW);
    const blocksBefore = tableCounts(g.dataDir).blocks;
    await g.api.ok(telemetryRoutes.updateSettings, { body: { telemetryRetentionDays: 1 } });
    // Retention keeps one day back from "now": everything from BASE + 3 h 10 min on.
    const cutoff = BASE + 3 * HOUR + 10 * 60_000;
    const kept = items.filter((i) => i.ts >= cutoff);
    const result = await g.app.services!.telemetry!.runRetention(cutoff + DAY);
    const counts = tableCounts(g.dataDir);
    expect(counts.rows).toBe(0);
    expect(counts.blocks).toBeLessThan(blocksBefore);
    expect(counts.blockValues).toBe(kept.reduce((n, i) => n + Object.keys(i.values).length, 0));
    expect(result.history).toBe(items.reduce((n, i) => n + Object.keys(i.values).length, 0) - counts.blockValues);
    const left = await g.query({ startTs: 0, endTs: LAST, limit: HISTORY_LIMIT_MAX, orderBy: 'ASC' });
    expect(left.temperature!.map((p) => p.ts)).toEqual(kept.map((i) => i.ts));
    expect(left.temperature![0]!.value).toBe(kept[0]!.values.temperature);
  });

  it('purges the compacted history of a deleted device', { timeout: 60_000 }, async () => {
    const g = await gateway(1000);
    await g.send(series().filter((i) => i.ts < BASE));
    await g.app.services!.telemetry!.compactHistory(NOW);
    expect(tableCounts(g.dataDir).blocks).toBeGreaterThan(0);
    await g.api.ok(deviceRoutes.delete, { body: { ids: [g.device.id] } });
    await eventually(() => tableCounts(g.dataDir), (c) => c.blocks === 0 && c.rows === 0);
  });
});
