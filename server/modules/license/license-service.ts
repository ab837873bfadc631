/**
 * The gateway's licence: which keys are trusted, which serial number this gateway has, the
 * installed licence and its status. `status()` runs on every gated request, so it only compares
 * the cached expiry with the clock.
 */
import type { KeyObject } from 'node:crypto';
import type { Core } from '../../core.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type { LicenseInfo, LicensePayload, LicenseStatus } from '../../contract/license.ts';
import { AppError } from '../../lib/app-error.ts';
import { resolveDeviceSn } from '../../lib/device-sn.ts';
import { trustedKeyMap } from './license-keys.ts';
import { LicenseRepository } from './license-repository.ts';
import { verifyLicense, verifyLicenseFile } from './license-verify.ts';

export class LicenseService {
  readonly deviceSn: string;
  private readonly trustedKeys: Map<string, KeyObject>;
  private readonly repository: LicenseRepository;
  private payload: LicensePayload | null = null;

  constructor(private readonly core: Core) {
    this.deviceSn = resolveDeviceSn({ configured: core.config.deviceSn, dataDir: core.config.dataDir });
    this.trustedKeys = trustedKeyMap(core.embeddedLicenseKeys);
    this.repository = new LicenseRepository(core.db);
    this.payload = this.loadStored();
  }

  /**
   * The stored licence counts only if it still verifies with today's keys and serial number: a
   * key withdrawn from the binary, or a data dir moved to another gateway, leaves it unlicensed.
   * Its term is not checked here: an expired licence is EXPIRED, not MISSING.
   */
  private loadStored(): LicensePayload | null {
    const stored = this.repository.get();
    if (!stored) return null;
    const checked = verifyLicenseFile(stored.file, this.trustedKeys, this.deviceSn);
    return checked.ok ? checked.payload : null;
  }

  status(now = Date.now()): LicenseStatus {
    if (!this.payload) return 'MISSING';
    return this.payload.expiresAt <= now ? 'EXPIRED' : 'VALID';
  }

  info(): LicenseInfo {
    return { status: this.status(), deviceSn: this.deviceSn, license: this.payload };
  }

  /** Verifies an uploaded `.lic` file and, if it passes, replaces the installed licence. */
  install(fileBytes: Buffer): LicenseInfo {
    const checked = verifyLicense(fileBytes, this.trustedKeys, this.deviceSn, Date.now());
    if (!checked.ok) throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, checked.key, checked.params, { status: 400 });
    this.repository.save(fileBytes.toString('utf8'));
    this.payload = checked.payload;
    const info = this.info();
    this.core.bus.emit('license.changed', { status: info.status });
    return info;
  }
}
