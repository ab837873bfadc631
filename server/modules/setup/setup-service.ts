/**
 * First-boot provisioning: where the gateway stands, and the one-time creation of the
 * administrator with the platform name.
 */
import { ErrorCode } from '../../contract/errors.ts';
import type { SetupAdminBody, SetupState } from '../../contract/license.ts';
import type { Db } from '../../db/sqlite.ts';
import { durably } from '../../db/sqlite.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashPassword, meetsPasswordPolicy } from '../../lib/password.ts';
import type { Services } from '../../module.ts';

export interface SetupServiceDeps extends Pick<Services, 'accounts' | 'license' | 'cloud' | 'platform'> {
  db: Db;
}

export class SetupService {
  constructor(private readonly deps: SetupServiceDeps) {}

  state(): SetupState {
    const status = this.deps.license.status();
    return {
      // Installed at all: an expired licence still counts, the console then asks for a new one.
      licensed: status !== 'MISSING',
      licenseExpired: status === 'EXPIRED',
      cloudConfigured: this.deps.cloud.configured(),
      adminCreated: this.deps.accounts.adminExists(),
      deviceSn: this.deps.license.deviceSn,
    };
  }

  /**
   * Creates the SYS_ADMIN account (the gateway's owner) and stores the platform name, in one durable transaction.
   * The access hook already answers 409 once an administrator exists; the check is repeated after
   * hashing because two first-boot requests can both pass the hook while the hash is computed.
   */
  async createAdmin(body: SetupAdminBody): Promise<void> {
    if (this.deps.license.status() !== 'VALID') {
      throw new AppError(ErrorCode.LICENSE, 'error.setup.licenseFirst', {}, { status: 403 });
    }
    if (!meetsPasswordPolicy(body.password)) throw new AppError(ErrorCode.PASSWORD_POLICY, 'error.password.policy');
    const passwordHash = await hashPassword(body.password);
    const platformName = body.platformName?.trim();
    durably(this.deps.db, () => {
      if (this.deps.accounts.adminExists()) {
        throw new AppError(ErrorCode.VERSION_CONFLICT, 'error.setup.adminExists', {}, { status: 409 });
      }
      this.deps.accounts.create({ username: body.username, passwordHash, role: 'SYS_ADMIN', realName: body.username });
      if (platformName) this.deps.platform.setName(platformName);
    });
  }
}
