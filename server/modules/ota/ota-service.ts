/**
 * Device firmware per product (server/contract/ota.ts): upload with its checksum, assignment to
 * devices under the rate limit (ota-queue.ts), the shared attributes that tell a device, the
 * package the transport serves it, and the `fw_state` devices report. Every change of a device's
 * progress is announced as `ota.deviceChanged` (the console follows it live).
 */
import type { Readable } from 'node:stream';
import { ErrorCode } from '../../contract/errors.ts';
import {
  OTA_DEVICES_PER_MINUTE_DEFAULT,
  otaStates,
  type OtaAssignBody,
  type OtaDevice,
  type OtaPackage,
  type OtaSettings,
  type OtaState,
  type OtaUploadFields,
} from '../../contract/ota.ts';
import type { TelemetryEntry } from '../../contract/telemetry.ts';
import type { Db } from '../../db/sqlite.ts';
import { readSetting, writeSetting } from '../../db/setting-store.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Announce } from '../../lib/event-bus.ts';
import type { Services } from '../../module.ts';
import type { DevicePackage } from '../transport/package-chunks.ts';
import type { OtaFiles } from './ota-files.ts';
import { OtaQueue } from './ota-queue.ts';
import { OtaRepository } from './ota-repository.ts';

/** The shared attributes ThingsBoard sets on a device for its firmware. */
export const FW_ATTRIBUTE_KEYS = ['fw_title', 'fw_version', 'fw_size', 'fw_checksum', 'fw_checksum_algorithm'];
const SETTINGS_ID = 'ota';
/** States a device reports itself; QUEUED and INITIATED are the server's. */
const reportedStates = new Set<string>(otaStates.filter((s) => s !== 'QUEUED' && s !== 'INITIATED'));

export interface OtaServiceDeps extends Pick<Services, 'devices' | 'products' | 'sharedAttributes'> {
  db: Db;
  announce: Announce;
  files: OtaFiles;
  /** How often the queue is checked against the rate limit. */
  tickMs: number;
}

export interface OtaUpload {
  fields: OtaUploadFields;
  fileName: string;
  body: Readable;
  declaredBytes: number;
  wasTruncated: () => boolean;
}

function notFound(): AppError {
  return new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.ota.notFound', {}, { status: 404 });
}

export class OtaService {
  private readonly rows: OtaRepository;
  private readonly queue: OtaQueue;

  constructor(private readonly deps: OtaServiceDeps) {
    this.rows = new OtaRepository(deps.db);
    this.queue = new OtaQueue({
      perMinute: () => this.settings().devicesPerMinute,
      queued: (limit) => this.rows.queued(limit),
      notify: (device) => this.notify(device),
      tickMs: deps.tickMs,
    });
  }

  /** Starts notifying queued devices (those queued before a restart too). */
  start(): void {
    this.queue.start();
  }

  stop(): void {
    this.queue.stop();
  }

  list(productId: string): OtaPackage[] {
    this.deps.products.get(productId);
    return this.rows.packages(productId);
  }

  async upload(productId: string, upload: OtaUpload): Promise<OtaPackage> {
    const { fields } = upload;
    this.deps.products.get(productId);
    const duplicate = (): AppError => new AppError(ErrorCode.VERSION_CONFLICT, 'error.ota.duplicate', { title: fields.title, version: fields.version }, { status: 409 });
    if (this.rows.hasPackage(productId, fields.title, fields.version)) {
      upload.body.resume();
      throw duplicate();
    }
    const file = await this.deps.files.receive(upload.body, fields.checksumAlgorithm, upload.declaredBytes, upload.wasTruncated);
    const expected = fields.checksum?.toLowerCase();
    if (expected && expected !== file.checksum) {
      this.deps.files.remove(file.id);
      throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.ota.checksumMismatch', { algorithm: fields.checksumAlgorithm, expected, actual: file.checksum });
    }
    // Checked again: another upload of the same version may have finished while this one streamed.
    if (this.rows.hasPackage(productId, fields.title, fields.version)) {
      this.deps.files.remove(file.id);
      throw duplicate();
    }
    this.rows.insertPackage({
      id: file.id,
      productId,
      title: fields.title,
      version: fields.version,
      fileName: upload.fileName.slice(0, 255) || 'firmware.bin',
      size: file.size,
      checksumAlgorithm: fields.checksumAlgorithm,
      checksum: file.checksum,
      createdTime: Date.now(),
    });
    return this.get(file.id);
  }

  get(id: string): OtaPackage {
    const pkg = this.rows.findPackage(id);
    if (!pkg) throw notFound();
    return pkg;
  }

  exists(id: string): boolean {
    return this.rows.findPackage(id) !== null;
  }

  /** Refused while devices are updating to it, unless `force`: their update is then abandoned. */
  remove(id: string, force: boolean): void {
    const pkg = this.get(id);
    if (pkg.inProgress > 0 && !force) throw new AppError(ErrorCode.VERSION_CONFLICT, 'error.ota.inProgress', { count: pkg.inProgress }, { status: 409 });
    const devices = this.rows.devices(id);
    this.rows.deletePackage(id);
    this.deps.files.remove(id);
    // A device told of this package and not done with it must not go on asking for it.
    for (const d of devices) if (d.state !== 'QUEUED' && d.state !== 'UPDATED') this.deps.sharedAttributes.delete(d.deviceId, FW_ATTRIBUTE_KEYS);
    for (const d of devices) this.deps.announce('ota.deviceChanged', { packageId: id, deviceId: d.deviceId });
  }

  /** Queues the product's devices (or the chosen ones of it) for package `id`. */
  assign(id: string, body: OtaAssignBody): number {
    const pkg = this.get(id);
    const ofProduct = this.productDevices(pkg.productId);
    const chosen = body.deviceIds ? [...new Set(body.deviceIds)] : [...ofProduct.keys()];
    const stranger = chosen.find((d) => !ofProduct.has(d));
    if (stranger !== undefined) throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.ota.deviceNotInProduct', { id: stranger });
    this.rows.assign(id, chosen, Date.now());
    for (const deviceId of chosen) this.deps.announce('ota.deviceChanged', { packageId: id, deviceId });
    this.queue.tick();
    return chosen.length;
  }

  /** The package's devices that `visible` lets the caller see (a customer sees its organization's). */
  devices(id: string, visible: (deviceId: string) => boolean): OtaDevice[] {
    const names = this.productDevices(this.get(id).productId);
    return this.rows
      .devices(id)
      .filter((d) => names.has(d.deviceId) && visible(d.deviceId))
      .map((d) => ({ ...d, deviceName: names.get(d.deviceId)! }))
      .sort((a, b) => a.deviceName.localeCompare(b.deviceName));
  }

  settings(): OtaSettings {
    return readSetting<OtaSettings>(this.deps.db, SETTINGS_ID)?.value ?? { devicesPerMinute: OTA_DEVICES_PER_MINUTE_DEFAULT };
  }

  saveSettings(settings: OtaSettings): OtaSettings {
    const saved = writeSetting(this.deps.db, SETTINGS_ID, settings).value;
    this.queue.tick();
    return saved;
  }

  /** Tells a queued device of its package, as ThingsBoard does: the shared attributes, state INITIATED. */
  notify({ deviceId, packageId }: { deviceId: string; packageId: string }): void {
    const pkg = this.rows.findPackage(packageId);
    if (!pkg) return;
    this.rows.setState(deviceId, 'INITIATED', null, Date.now());
    this.deps.sharedAttributes.save(deviceId, {
      fw_title: pkg.title,
      fw_version: pkg.version,
      fw_size: pkg.size,
      fw_checksum: pkg.checksum,
      fw_checksum_algorithm: pkg.checksumAlgorithm,
    });
    this.deps.announce('ota.deviceChanged', { packageId, deviceId });
  }

  /** The package a notified device may download (none while it waits in the queue). */
  packageFor(deviceId: string): DevicePackage | null {
    const assigned = this.rows.assignment(deviceId);
    if (!assigned || assigned.state === 'QUEUED') return null;
    const pkg = this.rows.findPackage(assigned.packageId);
    if (!pkg) return null;
    const { files } = this.deps;
    return { title: pkg.title, version: pkg.version, size: pkg.size, fileName: pkg.fileName, read: (offset, length) => files.read(pkg.id, offset, length) };
  }

  /** `fw_state` (and `fw_error`) in a device's telemetry or client attributes: its progress. */
  reported(deviceId: string, entries: readonly Pick<TelemetryEntry, 'key' | 'value'>[]): void {
    const state = entries.findLast((e) => e.key === 'fw_state')?.value;
    if (typeof state !== 'string' || !reportedStates.has(state)) return;
    const assigned = this.rows.assignment(deviceId);
    // A device still queued has not been told of this package: what it reports is about another.
    if (!assigned || assigned.state === 'QUEUED') return;
    const reason = entries.findLast((e) => e.key === 'fw_error')?.value;
    const text = typeof reason === 'string' ? reason : reason === undefined ? '' : JSON.stringify(reason);
    const error = state === 'FAILED' ? text || null : null;
    this.rows.setState(deviceId, state as OtaState, error, Date.now());
    this.deps.announce('ota.deviceChanged', { packageId: assigned.packageId, deviceId });
  }

  /** Files of packages whose product was deleted (its rows went with it). */
  pruneFiles(): void {
    this.deps.files.prune(this.rows.packageIds());
  }

  /** The product's devices by id, with their names, through the device module's public reads. */
  private productDevices(productId: string): Map<string, string> {
    const names = new Map<string, string>();
    for (let page = 1; ; page++) {
      const { items, total } = this.deps.devices.page({ page, pageSize: 100, deviceProfileId: productId });
      for (const d of items) names.set(d.id, d.name);
      if (items.length === 0 || names.size >= total) return names;
    }
  }
}
