/**
 * First-boot provisioning (DESIGN.md section 6): where the gateway stands, the cloud platform
 * configuration, and the one-time creation of the administrator with the platform name.
 */
import { ErrorCode } from '../../contract/errors.ts';
import type { CloudConfig, CloudConfigView, SetupAdminBody, SetupState } from '../../contract/license.ts';
import type { Db } from '../../db/sqlite.ts';
import { durably } from '../../db/sqlite.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashPassword, meetsPasswordPolicy } from '../auth/password.ts';
import type { LicenseService } from '../license/license-service.ts';
import { PlatformRepository } from '../platform/platform-repository.ts';
import type { UserRepository } from '../user/user-repository.ts';
import { CloudRepository } from './cloud-repository.ts';

export interface SetupServiceDeps {
  db: Db;
  users: UserRepository;
  license: LicenseService;
}

export class SetupService {
  private readonly cloud: CloudRepository;
  private readonly platform: PlatformRepository;

  constructor(private readonly deps: SetupServiceDeps) {
    this.cloud = new CloudRepository(deps.db);
    this.platform = new PlatformRepository(deps.db);
  }

  state(): SetupState {
    const status = this.deps.license.status();
    return {
      // Installed at all: an expired licence still counts, the console then asks for a new one.
      licensed: status !== 'MISSING',
      licenseExpired: status === 'EXPIRED',
      cloudConfigured: this.cloud.get() !== null,
      adminCreated: this.deps.users.adminExists(),
      deviceSn: this.deps.license.deviceSn,
    };
  }

  /** The stored configuration without its secret, or null when the gateway runs standalone. */
  cloudView(): CloudConfigView {
    const row = this.cloud.get();
    if (!row) return null;
    return {
      platformAddress: row.value.platformAddress,
      platformPort: row.value.platformPort,
      platformKey: row.value.platformKey,
      platformSecretSet: row.value.platformSecret !== '',
      updatedTime: row.updatedTime,
    };
  }

  saveCloud(config: CloudConfig): CloudConfigView {
    this.cloud.save(config);
    return this.cloudView();
  }

  /**
   * Creates the TENANT_ADMIN account and stores the platform name, in one durable transaction.
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
      if (this.deps.users.adminExists()) {
        throw new AppError(ErrorCode.VERSION_CONFLICT, 'error.setup.adminExists', {}, { status: 409 });
      }
      this.deps.users.create({ username: body.username, passwordHash, role: 'TENANT_ADMIN', realName: body.username });
      if (platformName) this.platform.setName(platformName);
    });
  }
}
