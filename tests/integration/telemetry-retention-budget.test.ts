/**
 * Retention and disk budget (README): a product's own history retention, the database size cap
 * (`--history-max-mb`) that prunes the oldest history first, the storage state the system
 * configuration page shows, and telemetry refused while free disk is low (`--min-free-disk-mb`):
 * free space comes from a statfs the test controls, since filling a real disk in CI is not an option.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IClientOptions } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { telemetryRoutes, type TimeseriesValues } from '../../server/contract/telemetry.ts';
import { telemetryStorageRoutes } from '../../server/contract/telemetry-storage.ts';
import { workbenchRoutes } from '../../server/contract/workbench.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { migrations } from '../../server/app.ts';
import { makeApp, tempDir } from '../helpers/app.ts';
import { DeviceApi, makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { capturedLog } from '../helpers/captured-log.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MB = 1024 * 1024;

async function deviceOf(t: DeviceTestApp, productId?: string) {
  const product = productId ? { id: productId } : await t.api.createProduct();
  const device = await t.api.createDevice({ deviceProfileId: product.id });
  return { product, device, token: await tokenOf(t.api, device.id) };
}

/** Posts `count` values of `temperature` and `humidity`, `step` ms apart from `from`, 400 a request. */
async function postSeries(t: DeviceTestApp, token: string, from: number, count: number, step: number): Promise<void> {
  for (let at = 0; at < count; at += 400) {
    const items = Array.from({ length: Math.min(400, count - at) }, (_, i) => ({ ts: from + (at + i) * step, values: { temperature: (at + i) % 97, humidity: (at + i) % 89 } }));
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/${token}/telemetry`, payload: items });
    expect(res.statusCode).toBe(200);
  }
}

/** Three keys of full-precision doubles a value: history that takes its size on disk. */
async function postNoisySeries(t: DeviceTestApp, token: string, from: number, count: number, step: number): Promise<void> {
  for (let at = 0; at < count; at += 400) {
    const items = Array.from({ length: Math.min(400, count - at) }, (_, i) => {
      const n = at + i;
      return { ts: from + n * step, values: { temperature: Math.sin(n) * 1000, humidity: Math.cos(n * 1.7) * 100, pressure: Math.sin(n * 0.31) * 1e5 } };
    });
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/${token}/telemetry`, payload: items });
    expect(res.statusCode).toBe(200);
  }
}

function history(t: DeviceTestApp, id: string, key = 'temperature'): Promise<TimeseriesValues> {
  return t.api.ok(telemetryRoutes.timeseries, { params: { id }, query: { keys: key, startTs: 0, endTs: Date.now() + DAY, orderBy: 'ASC', limit: 50_000 } });
}

function databaseBytes(dataDir: string): number {
  const size = (f: string): number => {
    try {
      return statSync(f).size;
    } catch {
      return 0;
    }
  };
  return size(join(dataDir, 'edge.db')) + size(join(dataDir, 'edge.db-wal'));
}

describe('per-product history retention', () => {
  it("deletes a product's history older than its own retention and leaves other products' history to the global one", async () => {
    const t = await makeDeviceApp();
    const short = await deviceOf(t);
    const global = await deviceOf(t);
    const now = Date.now();
    for (const d of [short, global]) await postSeries(t, d.token, now - 3 * DAY, 2, 3 * DAY - HOUR);
    expect(await t.api.ok(telemetryStorageRoutes.setProductRetention, { params: { id: short.product.id }, body: { retentionDays: 1 } })).toEqual({ retentionDays: 1 });

    await t.app.services!.telemetry!.runRetention(now);

    expect((await history(t, short.device.id)).temperature!.map((p) => p.ts)).toEqual([now - HOUR]);
    expect((await history(t, global.device.id)).temperature!.map((p) => p.ts)).toEqual([now - 3 * DAY, now - HOUR]);
    const state = await t.api.ok(telemetryStorageRoutes.storage);
    // Retention moved the staged values first: into blocks (staging-mover.ts).
    expect(state.products.find((p) => p.productId === short.product.id)).toMatchObject({ retentionDays: 1, rows: 0, blockValues: 2 });
    expect(state.products.find((p) => p.productId === global.product.id)).toMatchObject({ retentionDays: null, rows: 0, blockValues: 4 });
    // A fresh gateway has one size sample: no growth to measure, so no time left to show.
    expect(state).toMatchObject({ historyMaxBytes: null, minFreeDiskBytes: 64 * MB, telemetryRefused: false, growthBytesPerHour: null, timeLeftMs: null, telemetryRetentionDays: 30 });
    expect(state.databaseBytes).toBeGreaterThan(state.usedBytes / 2);
  });

  it('refuses a retention outside 1-3650 days with the retention key and an unknown product with 404', async () => {
    const t = await makeDeviceApp();
    const { product } = await deviceOf(t);
    const bad = await t.api.call(telemetryStorageRoutes.setProductRetention, { params: { id: product.id }, body: { retentionDays: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 31, details: [{ field: 'body.retentionDays', key: 'error.telemetry.retentionDays' }] });
    const unknown = await t.api.call(telemetryStorageRoutes.setProductRetention, { params: { id: 'no-such-product' }, body: { retentionDays: 5 } });
    expect(unknown.statusCode).toBe(404);
    expect(await t.api.ok(telemetryStorageRoutes.setProductRetention, { params: { id: product.id }, body: { retentionDays: null } })).toEqual({ retentionDays: null });
  });
});

/** This process's /proc/self/io write_bytes: the kernel's count, which the gateway must report as its own. */
function ownWriteBytes(): number {
  return Number(/^write_bytes:\s*(\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
}

describe('bytes written to storage', () => {
  it("reports the process's own write_bytes since it started and per acknowledged message", { timeout: 60_000 }, async () => {
    const before = ownWriteBytes();
    // The flash commit budget of a gateway's defaults: the figures count acknowledged messages however they share commits.
    const t = await makeDeviceApp({ commitIntervalMs: 400, commitBurst: 4 });
    const { token } = await deviceOf(t);
    const client = await connectDevice(t.app, { username: token, clientId: 'written-bytes' });
    for (let i = 0; i < 20; i++) await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_000 + i, values: { temperature: i } }), { qos: 1 });
    await postSeries(t, token, 5_000, 1, 1);
    // 4 MB this process writes and syncs: only the kernel's count of the process can know of them.
    const file = join(t.dataDir, 'ballast.bin');
    writeFileSync(file, Buffer.alloc(4 * MB, 1));
    execFileSync('sync', [file]);
    const state = await t.api.ok(telemetryStorageRoutes.storage);
    const after = ownWriteBytes();
    client.end(true);

    expect(state.written.messages).toBe(21);
    expect(state.written.bytes).toBeGreaterThanOrEqual(4 * MB);
    expect(state.written.bytes).toBeLessThanOrEqual(after - before);
    expect(state.written.bytesPerMessage).toBe(state.written.bytes! / 21);
    expect(state.written).toMatchObject({ sinceStart: true });
    expect(state.written.sinceTs).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('database size cap', () => {
  it('prunes the oldest history across devices until the database file and its WAL are under the cap', { timeout: 120_000 }, async () => {
    // The cap must leave room for history beside the empty schema (every module's tables and
    // indexes, about half a megabyte and growing with each module): 2 MB, and history well over
    // it (values that do not compress: see postNoisySeries).
    const CAP_MB = 2;
    const OLDER = 48_000;
    const NEWER = 8_000;
    const STEP_MS = 5_000;
    const t = await makeDeviceApp({ historyMaxMb: CAP_MB, tuning: { budget: { checkMs: HOUR }, compactor: { everyMs: 0 } } });
    const older = await deviceOf(t);
    const newer = await deviceOf(t);
    const now = Date.now();
    await postNoisySeries(t, older.token, now - 10 * DAY, OLDER, STEP_MS);
    await postNoisySeries(t, newer.token, now - 2 * DAY, NEWER, STEP_MS);
    expect(databaseBytes(t.dataDir)).toBeGreaterThan(CAP_MB * MB);

    const deleted = await t.app.services!.telemetryStorage!.enforceSizeCap();

    expect(deleted).toBeGreaterThan(0);
    expect(databaseBytes(t.dataDir)).toBeLessThanOrEqual(CAP_MB * MB);
    // The newer device's history is younger than anything the older one kept: untouched.
    expect((await history(t, newer.device.id)).temperature).toHaveLength(NEWER);
    const kept = (await history(t, older.device.id)).temperature!.map((p) => p.ts);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(OLDER);
    // What is left of the older device is its newest values, with nothing missing in between.
    expect(kept.at(-1)).toBe(now - 10 * DAY + (OLDER - 1) * STEP_MS);
    expect(kept[0]).toBe(kept.at(-1)! - (kept.length - 1) * STEP_MS);
    const db = openDatabase(join(t.dataDir, 'edge.db'), migrations);
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    expect(db.prepare('PRAGMA auto_vacuum').get()).toEqual({ auto_vacuum: 2 });
    db.close();
  });
});

describe('incremental auto-vacuum', () => {
  it('switches a database made without incremental auto-vacuum once at start, keeping its history', async () => {
    const t = await makeDeviceApp();
    const { device, token } = await deviceOf(t);
    await postSeries(t, token, Date.now() - HOUR, 10, 1000);
    await t.app.close();
    const old = openDatabase(join(t.dataDir, 'edge.db'), migrations);
    old.exec('PRAGMA auto_vacuum = NONE; VACUUM;');
    expect(old.prepare('PRAGMA auto_vacuum').get()).toEqual({ auto_vacuum: 0 });
    old.close();

    const again = await makeApp({ dataDir: t.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] });
    const api = new DeviceApi(again.app, t.api.token);
    const kept = await api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'temperature', startTs: 0, endTs: Date.now(), limit: 100 } });
    expect(kept.temperature).toHaveLength(10);
    await again.app.close();
    const db = openDatabase(join(t.dataDir, 'edge.db'), migrations);
    expect(db.prepare('PRAGMA auto_vacuum').get()).toEqual({ auto_vacuum: 2 });
    db.close();
  });
});

describe('low free disk', () => {
  it('refuses telemetry while free space is under the floor (MQTT 5 0x97, MQTT 3.1.1 unacknowledged, HTTP 507) and accepts it again once space returns', { timeout: 30_000 }, async () => {
    let free = 10_000 * MB;
    const statfs = async () => ({ bavail: free / 4096, bsize: 4096 });
    const log = capturedLog('info');
    const t = await makeDeviceApp({ minFreeDiskMb: 64, tuning: { disk: { statfs, checkMs: HOUR } }, logger: log.logger });
    const storage = t.app.services!.telemetryStorage!;
    const v5 = await deviceOf(t);
    const v3 = await deviceOf(t);
    const http = await deviceOf(t);
    const v5Client = await connectDevice(t.app, { protocolVersion: 5, username: v5.token, clientId: 'disk-v5' } satisfies IClientOptions);
    const v3Client = await connectDevice(t.app, { protocolVersion: 4, username: v3.token, clientId: 'disk-v3', reconnectPeriod: 100 } satisfies IClientOptions);
    const post = (ts: number) => t.app.inject({ method: 'POST', url: `/api/v1/${http.token}/telemetry`, payload: { ts, values: { temperature: 1 } } });

    free = 10 * MB;
    await storage.checkDisk();
    await storage.checkDisk();

    const refused = await v5Client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_000, values: { temperature: 5 } }), { qos: 1 }).then(
      () => 0,
      (err: { code?: number }) => err.code,
    );
    expect(refused).toBe(0x97);
    const res = await post(1_000);
    expect(res.statusCode).toBe(507);
    expect(res.json()).toMatchObject({ code: 41, key: 'error.telemetry.diskFull' });
    const closed = new Promise<void>((resolve) => v3Client.once('close', () => resolve()));
    const resent = v3Client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 2_000, values: { temperature: 3 } }), { qos: 1 });
    await closed;
    expect((await t.api.ok(workbenchRoutes.summary)).storage).toEqual({ telemetryRefused: true });
    expect((await t.api.ok(telemetryStorageRoutes.storage)).telemetryRefused).toBe(true);
    expect((await history(t, v3.device.id)).temperature ?? []).toEqual([]);

    free = 10_000 * MB;
    await storage.checkDisk();

    // The 3.1.1 device kept its unacknowledged message and sent it again after reconnecting.
    await resent;
    expect((await history(t, v3.device.id)).temperature).toEqual([{ ts: 2_000, value: 3 }]);
    await v5Client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 3_000, values: { temperature: 6 } }), { qos: 1 });
    expect((await history(t, v5.device.id)).temperature).toEqual([{ ts: 3_000, value: 6 }]);
    expect((await post(4_000)).statusCode).toBe(200);
    expect((await t.api.ok(workbenchRoutes.summary)).storage).toEqual({ telemetryRefused: false });
    expect((await history(t, http.device.id)).temperature).toEqual([{ ts: 4_000, value: 1 }]);
    // One warning for the episode however many checks and refusals, one line when it ends.
    const said = (msg: string) => log.lines().filter((l) => l.msg === msg);
    expect(said('disk almost full: telemetry is refused')).toMatchObject([{ level: 40, freeBytes: 10 * MB, minFreeBytes: 64 * MB }]);
    expect(said('disk space returned: telemetry is accepted again')).toHaveLength(1);
    v5Client.end(true);
    v3Client.end(true);
  });
});

/** A 5 MB tmpfs (the staging ring takes 2 MB of it) on a fresh directory (mounting needs root); unmounted by the test. */
function smallFileSystem(): string {
  const dir = tempDir('edge-tmpfs-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=5m', 'tmpfs', dir], { stdio: 'ignore' });
  return dir;
}

describe('a data directory that really fills up', () => {
  it.skipIf(process.getuid?.() !== 0)('answers devices 507 and keeps serving the console when the disk is full, and the database is intact and readable after a restart', { timeout: 120_000 }, async () => {
    const dir = smallFileSystem();
    try {
      // No free-space floor: the writes themselves meet the full disk (5 MB).
      const t = await makeDeviceApp({ dataDir: dir, minFreeDiskMb: 0, tuning: { compactor: { everyMs: 0 } } });
      const { device, token } = await deviceOf(t);
      let res = { statusCode: 200, body: '' };
      let sent = 0;
      for (let i = 0; res.statusCode === 200 && i < 500; i++) {
        const items = Array.from({ length: 400 }, (_, j) => ({ ts: (i * 400 + j) * 1000, values: { a: i + j, b: j * 1.5, c: `value ${i}-${j}` } }));
        res = await t.app.inject({ method: 'POST', url: `/api/v1/${token}/telemetry`, payload: items });
        if (res.statusCode === 200) sent += 400;
      }
      expect(res.statusCode).toBe(507);
      expect(JSON.parse(res.body)).toMatchObject({ code: 41, key: 'error.telemetry.diskFull' });
      expect(sent).toBeGreaterThan(0);

      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      expect((await history(t, device.id, 'a')).a).toHaveLength(Math.min(sent, 50_000));
      expect((await t.api.call(telemetryRoutes.getSettings)).statusCode).toBe(200);
      expect((await t.api.call(workbenchRoutes.summary)).statusCode).toBe(200);
      expect((await t.api.call(telemetryStorageRoutes.storage)).statusCode).toBe(200);
      await t.app.close();

      const db = openDatabase(join(dir, 'edge.db'), migrations);
      expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      db.close();

      // Restarted on the still full disk: the console reads, with the session it had.
      const again = await makeApp({ dataDir: dir, minFreeDiskMb: 0, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] });
      const api = new DeviceApi(again.app, t.api.token);
      const kept = await api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'a', startTs: 0, endTs: Date.now(), limit: 50_000 } });
      expect(kept.a).toHaveLength(Math.min(sent, 50_000));
      // Staged values become blocks at a move: the view counts them as rows or block values.
      const usage = (await api.ok(telemetryStorageRoutes.storage)).products.find((p) => p.productId === device.deviceProfileId);
      expect(usage!.rows + usage!.blockValues).toBe(sent * 3);
      await again.app.close();
      const after = openDatabase(join(dir, 'edge.db'), migrations);
      expect(after.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      after.close();
    } finally {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    }
  });
});
