/**
 * The cloud platform configuration: stored as given, answered without its secret. Absent means the
 * gateway runs standalone.
 */
import type { CloudConfig, CloudConfigView } from '../../contract/cloud.ts';
import type { Db } from '../../db/sqlite.ts';
import { CloudRepository } from './cloud-repository.ts';

export class CloudService {
  private readonly rows: CloudRepository;

  /** `changed` hears every save, so the cloud link reconnects without a restart. */
  constructor(db: Db, private readonly changed: (config: CloudConfig) => void = () => {}) {
    this.rows = new CloudRepository(db);
  }

  /** The stored configuration with its secret, for the cloud link only; null when standalone. */
  stored(): CloudConfig | null {
    return this.rows.get()?.value ?? null;
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

  save(config: CloudConfig): CloudConfigView {
    const saved = this.rows.save(config);
    this.changed(saved.value);
    return this.view();
  }
}
