/**
 * The embedded edge core's shared services, built once per app and handed to every module as one
 * context object (no 8-argument constructors). Proxy mode builds none of this.
 */
import type { Config } from './config.ts';
import type { Db } from './db/sqlite.ts';
import type { DatabaseFileWatch } from './lib/database-file-watch.ts';
import type { EventBus } from './lib/event-bus.ts';
import type { Secrets } from './lib/secrets.ts';
import type { FactoryResetRequest } from './lib/factory-reset.ts';
import type { LicenseStatus } from './contract/license.ts';
import type { Role } from './contract/user.ts';
import type { DeviceScope, ProductScope } from './lib/device-scope.ts';

/** Who is calling, resolved from the bearer token by the access hook. */
export interface AuthUser {
  id: string;
  username: string;
  role: Role;
  /**
   * Set by an administrator's password reset until the user chose their own: the access hook and
   * the websocket refuse everything but the calls marked `passwordChangeFree` (server/contract/route.ts).
   */
  mustChangePassword?: boolean;
}

/** What the access hook needs from the session and licence modules. */
export interface AccessServices {
  /** Verifies an access token; null when invalid, expired or revoked. Throws nothing. */
  verifyAccessToken(token: string): AuthUser | null | 'expired';
  licenseStatus(): LicenseStatus;
  adminExists(): boolean;
  /** Which devices the user may see (server/lib/device-scope.ts). */
  deviceScopeOf(user: AuthUser): DeviceScope;
  /** Whether a device named by a route is within the scope (a missing device counts as visible). */
  deviceVisible(scope: DeviceScope, deviceId: string): boolean;
  /** The products a caller of `scope` may see (server/lib/device-scope.ts). */
  productScopeOf(scope: DeviceScope): ProductScope;
  /**
   * The Node-RED instance a palette credential header names, when it is right, the instance runs
   * and the call came over loopback; else null (server/modules/node-red/node-red-palette.ts).
   */
  nodeRedInstanceOf(header: string, addresses: readonly string[]): string | null;
}

export interface Core {
  config: Config;
  db: Db;
  /** Whether the database file is still there under its name: writes stop once it is not. */
  databaseFile: DatabaseFileWatch;
  bus: EventBus;
  secrets: Secrets;
  version: string;
  /** Licence public keys (PEM) embedded at build time, before `--license-public-key` files. */
  embeddedLicenseKeys: string[];
  /** Firmware signing public keys (PEM) embedded at build time, before `--firmware-public-key` files. */
  embeddedFirmwareKeys: string[];
  /** The factory reset this start carried out (server/lib/factory-reset.ts), else null. */
  factoryReset: FactoryResetRequest | null;
  /** Closes the app and opens the data dir again (a recorded factory reset is carried out then). */
  restart: () => void;
}
