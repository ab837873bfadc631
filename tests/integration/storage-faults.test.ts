/**
 * Faults of the storage under a running gateway: the database file deleted (an `rm` in the data
 * dir) and a hard kill while history is being pruned. In both, what the gateway acknowledged is
 * there after a restart, the database passes PRAGMA integrity_check, and the console keeps reading.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IClientOptions } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { deviceRoutes } from '../../server/contract/device.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { migrations } from '../../server/app.ts';
import { openDatabase, transaction } from '../../server/db/sqlite.ts';
import { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';
import { makeApp, tempDir } from '../helpers/app.ts';
import { DeviceApi, makeDeviceApp } from '../helpers/devices.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { runStorageChild } from '../helpers/storage-child.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

function integrity(file: string): string {
  const db = openDatabase(file, migrations);
  try {
    return (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;
  } finally {
    db.close();
  }
}

describe('the database file deleted while the gateway runs', () => {
  it('refuses writes with code 46, keeps the console reading, and has every acknowledged value after a restart', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const t = await makeDeviceApp({ dataDir: dir, minFreeDiskMb: 0, tuning: { databaseFile: { checkMs: 50, settleMs: 200 } } });
    const product = await t.api.createProduct();
    const device = await t.api.createDevice({ deviceProfileId: product.id });
    const token = await tokenOf(t.api, device.id);
    const mqtt = await connectDevice(t.app, { protocolVersion: 5, username: token, clientId: 'db-lost' } satisfies IClientOptions);
    for (let i = 0; i < 50; i++) {
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/${token}/telemetry`, payload: { ts: 1_000 + i, values: { temperature: i } } });
      expect(res.statusCode).toBe(200);
      await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 2_000 + i, values: { temperature: 100 + i } }), { qos: 1 });
    }

    for (const f of ['edge.db', 'edge.db-wal', 'edge.db-shm']) rmSync(join(dir, f), { force: true });

    // Acknowledged until the watch sees the loss (a stat every 50 ms here): those must survive too.
    const acknowledged: number[] = [];
    const refused = await eventually(
      async () => {
        const ts = 5_000 + acknowledged.length;
        const res = await t.app.inject({ method: 'POST', url: `/api/v1/${token}/telemetry`, payload: { ts, values: { temperature: -1 } } });
        if (res.statusCode === 200) acknowledged.push(ts);
        return res;
      },
      (res) => res.statusCode !== 200,
    );
    expect(refused.statusCode).toBe(503);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 46, key: 'error.storage.databaseLost' });
    const reason = await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 9_001, values: { temperature: -1 } }), { qos: 1 }).then(
      () => 0,
      (err: { code?: number }) => err.code,
    );
    expect(reason).toBe(0x83);

    // The console reads on; a change is refused with the reason, not lost.
    expect((await t.api.call(deviceRoutes.list, { query: { page: 1, pageSize: 10 } })).statusCode).toBe(200);
    const rename = await t.api.call(deviceRoutes.update, { body: { ...device, name: 'renamed while lost' } });
    expect(rename.statusCode).toBe(503);
    expect(JSON.parse(rename.body)).toMatchObject({ code: 46, key: 'error.storage.databaseLost' });
    // The copy is written back under its name once the writes in flight have committed.
    // (Looked for, not opened: opening would create an empty database under the name.)
    await eventually(() => existsSync(join(dir, 'edge.db')), (there) => there, 10_000);
    await mqtt.endAsync();
    await t.app.close();

    expect(integrity(join(dir, 'edge.db'))).toBe('ok');
    const again = await makeApp({ dataDir: dir, minFreeDiskMb: 0, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] });
    const api = new DeviceApi(again.app, t.api.token);
    const kept = await api.ok(telemetryRoutes.timeseries, { params: { id: device.id }, query: { keys: 'temperature', startTs: 0, endTs: 10_000, orderBy: 'ASC', limit: 1000 } });
    expect(kept.temperature!.map((p) => p.ts)).toEqual([...Array.from({ length: 50 }, (_, i) => 1_000 + i), ...Array.from({ length: 50 }, (_, i) => 2_000 + i), ...acknowledged]);
    expect((await api.ok(deviceRoutes.get, { params: { id: device.id } })).name).toBe(device.name);
    await again.app.close();
  });
});

const SERIES = 6;
const PER_SERIES = 30_000;
const CUT = 20_000;


/** Per series: how many values are left, and whether every one at or after the cut is. */
function remaining(file: string): { integrity: string; counts: number[]; keptAfterCut: boolean[] } {
  const db = openDatabase(file, migrations);
  try {
    const rows = new TelemetryRepository(db);
    const series = Array.from({ length: SERIES }, (_, s) => rows.history(`dev-${s}`, 'temperature', 0, Number.MAX_SAFE_INTEGER, 100_000, 'ASC'));
    return {
      integrity: (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check,
      counts: series.map((points) => points.length),
      keptAfterCut: series.map((points) => points.filter((p) => p.ts >= CUT).length === PER_SERIES - CUT),
    };
  } finally {
    db.close();
  }
}

describe('history pruning and a hard kill', () => {
  it('keeps every value after the cut and a sound database when the pruning process is killed mid-way, and finishes on the next run', { timeout: 120_000 }, async () => {
    const file = join(tempDir(), 'edge.db');
    const db = openDatabase(file, migrations);
    const repository = new TelemetryRepository(db);
    transaction(db, () => {
      for (let s = 0; s < SERIES; s++) {
        repository.insertTelemetry([{ deviceId: `dev-${s}`, telemetry: Array.from({ length: PER_SERIES }, (_, i) => ({ ts: i, key: 'temperature', value: (i % 300) / 10 })) }]);
      }
    });
    db.close();

    const killed = await runStorageChild('prune-child.ts', [file, String(CUT)], 'pruning');
    expect(killed).not.toContain('done');
    const afterKill = remaining(file);
    expect(afterKill.integrity).toBe('ok');
    expect(afterKill.keptAfterCut).toEqual(Array(SERIES).fill(true));
    // Killed part-way: some values before the cut went, not all of them.
    const total = afterKill.counts.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThan(SERIES * PER_SERIES);
    expect(total).toBeGreaterThan(SERIES * (PER_SERIES - CUT));

    expect(await runStorageChild('prune-child.ts', [file, String(CUT)], null)).toContain('done');
    const finished = remaining(file);
    expect(finished.integrity).toBe('ok');
    expect(finished.counts).toEqual(Array(SERIES).fill(PER_SERIES - CUT));
  });
});
