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

/** An instant as the refusal messages show it, the same in every language and time zone. */
function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export class LicenseService {
  readonly deviceSn: string;
  private readonly trustedKeys: Map<string, KeyObject>;
  private readonly repository: LicenseRepository;
  private payload: LicensePayload | null = null;
  private countDevices: () => number = () => 0;

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

  /**
   * How many devices may exist, or null for no limit: `maxDevices` 0 is unlimited (the licence
   * tool's default). Without a licence there is no limit here: the licence gate refuses every
   * device route then, and the transport creates no devices.
   */
  deviceLimit(): number | null {
    const max = this.payload?.maxDevices ?? 0;
    return max > 0 ? max : null;
  }

  /** The device module, built after this one, says how to count devices for `devicesUsed`. */
  countDevicesWith(count: () => number): void {
    this.countDevices = count;
  }

  info(now = Date.now()): LicenseInfo {
    const p = this.payload;
    return {
      status: this.status(now),
      deviceSn: this.deviceSn,
      license: p,
      devicesUsed: this.countDevices(),
      licenseId: p?.licenseId ?? null,
      customer: p?.customer ?? null,
      issuedAt: p?.issuedAt ?? null,
      expiresAt: p?.expiresAt ?? null,
      daysLeft: p ? Math.max(0, Math.ceil((p.expiresAt - now) / DAY_MS)) : null,
      maxDevices: p?.maxDevices ?? null,
      features: p?.features ?? [],
    };
  }

  /** The installed `.lic` text, for a factory reset that keeps the licence. */
  storedFile(): string | null {
    return this.repository.get()?.file ?? null;
  }

  /**
   * Installs again the licence a factory reset kept, as it was: no term check (an expired one
   * stays EXPIRED, and the console asks for a renewal), only the signature and serial at load.
   */
  restore(file: string): void {
    this.repository.save(file);
    this.payload = this.loadStored();
    this.core.bus.emit('license.changed', { status: this.status() });
  }

  /**
   * Verifies an uploaded `.lic` file and, if it passes, replaces the installed licence. A licence
   * that ends before the installed valid one is refused: installing it would only shorten the term
   * (an old file uploaded by mistake). Once the installed one has expired, any valid one may follow.
   * Only the file's own fields are stored.
   */
  install(fileBytes: Buffer): LicenseInfo {
    const now = Date.now();
    const checked = verifyLicense(fileBytes, this.trustedKeys, this.deviceSn, now);
    if (!checked.ok) throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, checked.key, checked.params, { status: 400 });
    const installed = this.payload;
    if (installed && this.status(now) === 'VALID' && checked.payload.expiresAt < installed.expiresAt) {
      throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.license.olderThanInstalled', { expiresAt: utcMinute(installed.expiresAt) }, { status: 400 });
    }
    this.repository.save(JSON.stringify(checked.file));
    this.payload = checked.payload;
    const info = this.info();
    this.core.bus.emit('license.changed', { status: info.status });
    return info;
  }
}
