/**
 * What the system configuration page shows of history storage (server/contract/telemetry-storage.ts)
 * and products' own retention. Per product usage is counted per device and summed: rows exactly
 * (they are the recent, not yet compacted ones), blocks from their summary columns; bytes are an
 * estimate, rows at ~28 bytes each (docs/PERFORMANCE-FINDINGS.md, "History blocks") plus the blocks' bytes.
 */
import type { ProductRetention, ProductHistoryUsage, StorageState, WrittenBytes } from '../../contract/telemetry-storage.ts';
import type { DeviceService } from '../device/device-service.ts';
import type { ProductService } from '../product/product-service.ts';
import type { DiskGuard } from './disk-guard.ts';
import type { HistoryBudget } from './history-budget.ts';
import type { ProductRetentionStore } from './product-retention.ts';
import type { TelemetryRepository } from './telemetry-repository.ts';
import type { WriteMeter } from './write-meter.ts';

const ROW_BYTES = 28;
const HOUR_MS = 3_600_000;

export interface TelemetryStorageDeps {
  rows: TelemetryRepository;
  budget: HistoryBudget;
  disk: DiskGuard;
  productRetention: ProductRetentionStore;
  products: Pick<ProductService, 'get' | 'options'>;
  devices: Pick<DeviceService, 'get' | 'refs'>;
  retentionDays: () => number;
  writes: WriteMeter;
}

export class TelemetryStorage {
  constructor(private readonly deps: TelemetryStorageDeps) {}

  /** What the process wrote to storage over the last 24 h (the system's basic info shows it too). */
  written(): WrittenBytes {
    return this.deps.writes.written();
  }

  /** True while free disk space is below the floor and telemetry is refused. */
  get telemetryRefused(): boolean {
    return this.deps.disk.low;
  }

  /** Looks at free disk space now instead of at the next tick. */
  checkDisk(): Promise<boolean> {
    return this.deps.disk.check();
  }

  /** Prunes to the size cap now instead of at the next tick; the values deleted. */
  enforceSizeCap(): Promise<number> {
    return this.deps.budget.enforce();
  }

  setProductRetention(productId: string, body: ProductRetention): ProductRetention {
    this.deps.products.get(productId);
    this.deps.productRetention.set(productId, body.retentionDays);
    return { retentionDays: body.retentionDays };
  }

  forgetProduct(productId: string): void {
    this.deps.productRetention.set(productId, null);
  }

  state(): StorageState {
    const { budget, disk, devices } = this.deps;
    const own = this.deps.productRetention.all();
    const products = new Map<string, ProductHistoryUsage>();
    for (const p of this.deps.products.options()) {
      products.set(p.id, { productId: p.id, productName: p.name, retentionDays: own.get(p.id) ?? null, rows: 0, blocks: 0, blockValues: 0, estimatedBytes: 0 });
    }
    for (const u of this.deps.rows.historyUsage()) {
      if (devices.refs().deviceType(u.deviceId) === undefined) continue;
      const usage = products.get(devices.get(u.deviceId).deviceProfileId);
      if (!usage) continue;
      usage.rows += u.rows;
      usage.blocks += u.blocks;
      usage.blockValues += u.blockValues;
      usage.estimatedBytes += u.rows * ROW_BYTES + u.blockBytes;
    }
    const databaseBytes = budget.fileBytes();
    const growth = budget.growthPerHour();
    let timeLeftMs: number | null = null;
    if (growth !== null && growth > 0) {
      const room = [disk.freeBytes - disk.minFreeBytes];
      if (budget.maxBytes !== null) room.push(budget.maxBytes - databaseBytes);
      timeLeftMs = Math.round((Math.max(0, Math.min(...room)) / growth) * HOUR_MS);
    }
    return {
      databaseBytes,
      usedBytes: budget.usedBytes(),
      historyMaxBytes: budget.maxBytes,
      freeDiskBytes: disk.freeBytes,
      minFreeDiskBytes: disk.minFreeBytes,
      telemetryRefused: disk.low,
      growthBytesPerHour: growth,
      timeLeftMs,
      telemetryRetentionDays: this.deps.retentionDays(),
      products: [...products.values()],
      written: this.deps.writes.written(),
    };
  }
}
