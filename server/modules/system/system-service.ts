/**
 * The gateway itself: what it reads about the machine, its clock settings through the time
 * applier, and the factory reset (recorded durably, carried out by a restart: server/lib/factory-reset.ts).
 */
import { ErrorCode } from '../../contract/errors.ts';
import { RESET_CONFIRM_WORD, systemRoutes, type FactoryResetBody, type SystemInfo, type SystemTime, type SystemTimeBody } from '../../contract/system.ts';
import type { AuthUser, Core } from '../../core.ts';
import { AppError } from '../../lib/app-error.ts';
import { violationError } from '../../lib/field-errors.ts';
import { forgetFactoryReset, requestFactoryReset } from '../../lib/factory-reset.ts';
import { operationIdOf } from '../../contract/route.ts';
import { CpuSampler, diskUsage, memoryUsage } from '../../lib/system-load.ts';
import type { Services } from '../../module.ts';
import { cpuDescription, directoryBytes, ipv4Addresses, machineUptimeS, splitVersion } from './system-info.ts';
import { TimeApplyError, type TimeApplier } from './time-applier.ts';

export interface SystemServiceDeps extends Pick<Services, 'license' | 'accounts' | 'telemetryStorage' | 'auditLog'> {
  core: Core;
  time: TimeApplier;
}

/** One refused field: the key's text names the field in the caller's language. */
function fieldError(field: string, key: 'error.system.timeZone' | 'error.system.timeWithNtp' | 'error.system.confirm' | 'error.system.password'): AppError {
  return violationError([{ field, key }]);
}

/** Whether the runtime's time-zone data knows `zone` (an IANA name such as Asia/Shanghai, or UTC). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export class SystemService {
  private readonly cpu = new CpuSampler();

  constructor(private readonly deps: SystemServiceDeps) {}

  async info(): Promise<SystemInfo> {
    const { config, version } = this.deps.core;
    const [percent, disk, dataBytes, time] = await Promise.all([
      this.cpu.percent(),
      diskUsage(config.dataDir),
      directoryBytes(config.dataDir),
      this.deps.time.read(),
    ]);
    return {
      deviceSn: this.deps.license.deviceSn,
      ...splitVersion(version),
      uptimeS: machineUptimeS(),
      systemTime: Date.now(),
      timeZone: time.timeZone,
      ntp: { enabled: time.ntpEnabled, servers: time.ntpServers, synced: time.ntpSynced },
      applier: config.networkApplier,
      cpu: { percent, ...cpuDescription() },
      memory: memoryUsage(),
      disk,
      dataDir: { path: config.dataDir, bytes: dataBytes },
      addresses: ipv4Addresses(),
      written: this.deps.telemetryStorage.written(),
    };
  }

  async setTime(body: SystemTimeBody): Promise<SystemTime> {
    if (!isTimeZone(body.timeZone)) throw fieldError('timeZone', 'error.system.timeZone');
    if (body.ntpEnabled && body.time !== undefined) throw fieldError('time', 'error.system.timeWithNtp');
    try {
      await this.deps.time.apply({ ...body, ntpServers: [...new Set(body.ntpServers)] });
    } catch (err) {
      if (!(err instanceof TimeApplyError)) throw err;
      throw new AppError(ErrorCode.GENERAL, 'error.system.applierFailed', { reason: err.message }, { status: 502, expected: true });
    }
    const time = await this.deps.time.read();
    return { timeZone: time.timeZone, ntp: { enabled: time.ntpEnabled, servers: time.ntpServers, synced: time.ntpSynced }, systemTime: Date.now() };
  }

  /**
   * Checks the caller's password (throttled like sign-in) and the typed confirmation, then records
   * the reset durably. The restart that carries it out follows the 202 (system-routes.ts).
   */
  async requestReset(caller: AuthUser, body: FactoryResetBody, ip: string): Promise<void> {
    if (body.confirm !== RESET_CONFIRM_WORD) throw fieldError('confirm', 'error.system.confirm');
    const user = this.deps.accounts.findById(caller.id);
    if (!user || !(await this.deps.accounts.checkPassword(user, body.password, ip))) throw fieldError('password', 'error.system.password');
    requestFactoryReset(this.deps.core.config.dataDir, {
      requestedAt: Date.now(),
      username: caller.username,
      sourceAddress: ip,
      license: body.keepLicense ? this.deps.license.storedFile() : null,
    });
  }

  /** Carries out a recorded reset: the process closes this app and opens the data dir again. */
  restart(): void {
    // Off this request's hooks: closing the app waits for them.
    setImmediate(() => this.deps.core.restart());
  }

  /**
   * At the start after a reset was carried out: the kept licence goes into the new database, the
   * new audit log's first entry says who reset the gateway, and the record is forgotten.
   */
  finishReset(): void {
    const request = this.deps.core.factoryReset;
    if (!request) return;
    if (request.license) this.deps.license.restore(request.license);
    const { method, url, schema } = systemRoutes.reset;
    this.deps.auditLog.record({
      userId: null,
      username: request.username || null,
      action: `${method} ${url}`,
      operation: operationIdOf(method, url),
      summary: schema.summary ?? null,
      entityId: null,
      statusCode: 202,
      sourceAddress: request.sourceAddress,
    });
    forgetFactoryReset(this.deps.core.config.dataDir);
  }
}
