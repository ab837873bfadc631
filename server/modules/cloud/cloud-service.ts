/**
 * The cloud platform configuration: stored as given, answered without its secret. Absent means the
 * gateway runs standalone.
 */
import type { CloudConfig, CloudConfigView, CloudTestResult } from '../../contract/cloud.ts';
import type { Db } from '../../db/sqlite.ts';
import { testCloudConnection } from './cloud-connection-test.ts';
import { CloudRepository } from './cloud-repository.ts';

export class CloudService {
  private readonly rows: CloudRepository;

  /** `clientId` is the gateway's serial: the client id it connects to the cloud with. */
  constructor(db: Db, private readonly clientId: string) {
    this.rows = new CloudRepository(db);
  }

  configured(): boolean {
    return this.rows.get() !== null;
  }

  /** The cloud's REST base for cloud-account sign-in, or null when none is configured. */
  httpUrl(): string | null {
    return this.rows.get()?.value.platformHttpUrl || null;
  }

  /** The stored configuration without its secret, or null when the gateway runs standalone. */
  view(): CloudConfigView {
    const row = this.rows.get();
    if (!row) return null;
    return {
      platformAddress: row.value.platformAddress,
      platformPort: row.value.platformPort,
      platformKey: row.value.platformKey,
      platformSecretSet: row.value.platformSecret !== '',
      // Rows stored before these fields existed have neither: no TLS, no cloud sign-in.
      platformTls: row.value.platformTls ?? false,
      platformHttpUrl: row.value.platformHttpUrl || null,
      updatedTime: row.updatedTime,
    };
  }

  /** Tries `config` without storing it. */
  test(config: CloudConfig): Promise<CloudTestResult> {
    return testCloudConnection(config, this.clientId);
  }

  save(config: CloudConfig): CloudConfigView {
    this.rows.save(config);
    return this.view();
  }
}
