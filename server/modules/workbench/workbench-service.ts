/**
 * The workbench: counts from the device-management services, message volume from the counter,
 * gateway load from the OS. Buckets are aligned to the gateway's local time so a day bucket
 * starts at local midnight.
 */
import { ErrorCode } from '../../contract/errors.ts';
import {
  CUSTOM_INTERVALS_MS,
  CUSTOM_RANGE_MAX_MS,
  fixedRanges,
  MAX_BUCKETS,
  type MessageVolume,
  type MessageVolumeQuery,
  type WorkbenchSummary,
} from '../../contract/workbench.ts';
import type { DeviceState } from '../../contract/device.ts';
import type { DeviceScope, ProductScope } from '../../lib/device-scope.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Services } from '../../module.ts';
import type { MessageCounter } from './message-counter.ts';
import { CpuSampler, diskUsage, memoryUsage } from '../../lib/system-load.ts';

const DAY_MS = 24 * 3600_000;

/** Milliseconds to add to a UTC time to get the local wall clock at that moment. */
function localOffset(ts: number): number {
  return -new Date(ts).getTimezoneOffset() * 60_000;
}

/** Start of the local-time bucket holding `ts`. */
export function bucketStart(ts: number, intervalMs: number, offsetMs = localOffset(ts)): number {
  return Math.floor((ts + offsetMs) / intervalMs) * intervalMs - offsetMs;
}

export interface WorkbenchServiceDeps extends Pick<Services, 'devices' | 'products' | 'telemetryStorage' | 'alarms'> {
  messages: MessageCounter;
  dataDir: string;
  now?: () => number;
}

export class WorkbenchService {
  private readonly cpu = new CpuSampler();
  private readonly now: () => number;

  constructor(private readonly deps: WorkbenchServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Writes the message counts still held in memory. */
  close(): void {
    this.deps.messages.close();
  }

  /**
   * `scope`, `productScope`: a customer's counts take only the devices of their organizations, the
   * products those use and those devices' alarms (server/lib/device-scope.ts); the gateway-wide
   * figures (messages, load) are left out for them, so no whole-gateway number sits beside theirs.
   */
  async summary(scope: DeviceScope = null, productScope: ProductScope = null): Promise<WorkbenchSummary> {
    const { devices, products } = this.deps;
    const deviceCount = (deviceState?: DeviceState): number => devices.page({ page: 1, pageSize: 1, deviceState }, scope).total;
    const now = this.now();
    const midnight = bucketStart(now, DAY_MS);
    const wholeGateway = scope === null;
    return {
      products: products.page({ page: 1, pageSize: 1 }, productScope).total,
      devices: {
        total: deviceCount(),
        online: deviceCount('ONLINE'),
        offline: deviceCount('OFFLINE'),
        inactive: deviceCount('INACTIVE'),
      },
      messages: wholeGateway ? { today: this.deps.messages.countBetween(midnight, now + 1), total: this.deps.messages.total() } : null,
      alarmsAvailable: true,
      alarms: this.alarmCounts(scope),
      system: wholeGateway ? await this.systemLoad() : null,
      storage: { telemetryRefused: this.deps.telemetryStorage.telemetryRefused },
    };
  }

  private async systemLoad(): Promise<NonNullable<WorkbenchSummary['system']>> {
    const [cpu, disk] = await Promise.all([this.cpu.percent(), diskUsage(this.deps.dataDir)]);
    return { cpu, memory: memoryUsage(), disk };
  }

  /** Every alarm in scope, and the unacknowledged ones (the console follows changes with ALARM_COUNT on /api/ws). */
  private alarmCounts(scope: DeviceScope): WorkbenchSummary['alarms'] {
    const { total, unacknowledged } = this.deps.alarms.profileOf(scope ? { organizationIds: scope.organizationIds } : {});
    return { total, unacknowledged };
  }

  /** The gateway's message volume: a customer (`scope` set) is not shown whole-gateway figures. */
  assertWholeGateway(scope: DeviceScope): void {
    if (scope !== null) throw new AppError(ErrorCode.PERMISSION_DENIED, 'error.permissionDenied', {}, { status: 403 });
  }

  messageVolume(query: MessageVolumeQuery): MessageVolume {
    const now = this.now();
    const offset = localOffset(now);
    let from: number;
    let to: number;
    let intervalMs: number;
    if (query.range === 'custom') {
      const { startTs, endTs } = query;
      if (startTs === undefined || endTs === undefined) {
        throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.workbench.rangeRequired');
      }
      if (endTs <= startTs || endTs - startTs > CUSTOM_RANGE_MAX_MS) {
        throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.workbench.rangeInvalid', { days: CUSTOM_RANGE_MAX_MS / DAY_MS });
      }
      intervalMs =
        CUSTOM_INTERVALS_MS.find((i) => Math.ceil((endTs - bucketStart(startTs, i, offset)) / i) <= MAX_BUCKETS) ??
        CUSTOM_INTERVALS_MS[CUSTOM_INTERVALS_MS.length - 1]!;
      from = startTs;
      to = endTs;
    } else {
      const range = fixedRanges[query.range];
      intervalMs = range.intervalMs;
      // The current (partial) bucket last, and as many whole ones before it as the span holds.
      from = bucketStart(now, intervalMs, offset) - (range.spanMs / intervalMs - 1) * intervalMs;
      to = now + 1;
    }
    const counts = this.deps.messages.buckets(from, to, intervalMs, offset);
    const buckets: MessageVolume['buckets'] = [];
    for (let ts = bucketStart(from, intervalMs, offset); ts < to; ts += intervalMs) {
      buckets.push({ ts, count: counts.get(ts) ?? 0 });
    }
    return { intervalMs, startTs: from, endTs: to, buckets };
  }
}
