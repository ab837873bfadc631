/** SQL for `ota_package` and `ota_device`; camelCase in, snake_case columns out. */
import type { OtaChecksumAlgorithm, OtaDevice, OtaPackage, OtaState } from '../../contract/ota.ts';
import type { Db } from '../../db/sqlite.ts';

interface PackageRecord {
  id: string;
  product_id: string;
  title: string;
  version: string;
  file_name: string;
  size: number;
  checksum_algorithm: OtaChecksumAlgorithm;
  checksum: string;
  created_time: number;
  assigned: number;
  in_progress: number;
}

interface DeviceRecord {
  device_id: string;
  package_id: string;
  state: OtaState;
  error: string | null;
  updated_time: number;
}

/** A package as stored, before the device counts are added. */
export type NewOtaPackage = Omit<OtaPackage, 'assigned' | 'inProgress'>;

function toPackage(r: PackageRecord): OtaPackage {
  return {
    id: r.id,
    productId: r.product_id,
    title: r.title,
    version: r.version,
    fileName: r.file_name,
    size: r.size,
    checksumAlgorithm: r.checksum_algorithm,
    checksum: r.checksum,
    createdTime: r.created_time,
    assigned: r.assigned,
    inProgress: r.in_progress,
  };
}

/** The device's name is not ours (the device module owns it): the service fills it in. */
function toDevice(r: DeviceRecord): Omit<OtaDevice, 'deviceName'> {
  return { deviceId: r.device_id, packageId: r.package_id, state: r.state, error: r.error, updatedTime: r.updated_time };
}

const PACKAGE_COLUMNS = `p.*,
  (SELECT COUNT(*) FROM ota_device d WHERE d.package_id = p.id) AS assigned,
  (SELECT COUNT(*) FROM ota_device d WHERE d.package_id = p.id AND d.state NOT IN ('UPDATED', 'FAILED')) AS in_progress`;

export class OtaRepository {
  constructor(private readonly db: Db) {}

  insertPackage(p: NewOtaPackage): void {
    this.db
      .prepare('INSERT INTO ota_package (id, product_id, title, version, file_name, size, checksum_algorithm, checksum, created_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(p.id, p.productId, p.title, p.version, p.fileName, p.size, p.checksumAlgorithm, p.checksum, p.createdTime);
  }

  packages(productId: string): OtaPackage[] {
    const rows = this.db.prepare(`SELECT ${PACKAGE_COLUMNS} FROM ota_package p WHERE p.product_id = ? ORDER BY p.created_time DESC, p.rowid DESC`).all(productId);
    return (rows as unknown as PackageRecord[]).map(toPackage);
  }

  findPackage(id: string): OtaPackage | null {
    const row = this.db.prepare(`SELECT ${PACKAGE_COLUMNS} FROM ota_package p WHERE p.id = ?`).get(id) as PackageRecord | undefined;
    return row ? toPackage(row) : null;
  }

  hasPackage(productId: string, title: string, version: string): boolean {
    return this.db.prepare('SELECT 1 FROM ota_package WHERE product_id = ? AND title = ? AND version = ?').get(productId, title, version) !== undefined;
  }

  packageIds(): Set<string> {
    return new Set((this.db.prepare('SELECT id FROM ota_package').all() as { id: string }[]).map((r) => r.id));
  }

  deletePackage(id: string): void {
    this.db.prepare('DELETE FROM ota_package WHERE id = ?').run(id);
  }

  /** Queues `deviceIds` for package `packageId`, replacing any earlier assignment. */
  assign(packageId: string, deviceIds: readonly string[], now: number): void {
    const upsert = this.db.prepare(
      `INSERT INTO ota_device (id, device_id, package_id, state, error, queued_time, updated_time) VALUES (?, ?, ?, 'QUEUED', NULL, ?, ?)
       ON CONFLICT(device_id) DO UPDATE SET package_id = excluded.package_id, state = 'QUEUED', error = NULL,
         queued_time = excluded.queued_time, updated_time = excluded.updated_time`,
    );
    for (const id of deviceIds) upsert.run(id, id, packageId, now, now);
  }

  devices(packageId: string): Omit<OtaDevice, 'deviceName'>[] {
    const rows = this.db.prepare('SELECT device_id, package_id, state, error, updated_time FROM ota_device WHERE package_id = ?').all(packageId);
    return (rows as unknown as DeviceRecord[]).map(toDevice);
  }

  /** The device's assignment: its package and state, or null. */
  assignment(deviceId: string): { packageId: string; state: OtaState } | null {
    const row = this.db.prepare('SELECT package_id, state FROM ota_device WHERE device_id = ?').get(deviceId) as { package_id: string; state: OtaState } | undefined;
    return row ? { packageId: row.package_id, state: row.state } : null;
  }

  setState(deviceId: string, state: OtaState, error: string | null, now: number): void {
    this.db.prepare('UPDATE ota_device SET state = ?, error = ?, updated_time = ? WHERE device_id = ?').run(state, error, now, deviceId);
  }

  /** The oldest `limit` queued devices, in the order they were queued. */
  queued(limit: number): { deviceId: string; packageId: string }[] {
    const rows = this.db
      .prepare(`SELECT device_id, package_id FROM ota_device WHERE state = 'QUEUED' ORDER BY queued_time, rowid LIMIT ?`)
      .all(limit) as { device_id: string; package_id: string }[];
    return rows.map((r) => ({ deviceId: r.device_id, packageId: r.package_id }));
  }
}
