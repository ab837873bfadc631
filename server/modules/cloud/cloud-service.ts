/**
 * The cloud platform configuration: stored as given, answered without its secret. Absent means the
 * gateway runs standalone.
 */
import type { CloudConfig, CloudConfigView } from '../../contract/cloud.ts';
import type { Db } from '../../db/sqlite.ts';
import { checkCloudCa } from './cloud-ca.ts';
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
      platformCa: row.value.platformCaPem ? checkCloudCa(row.value.platformCaPem) : null,
      updatedTime: row.updatedTime,
    };
  }

  /**
   * `config` as the connection uses it: a CA left out is the stored one (a form that did not touch
   * it), an empty one none. A new CA must parse (400 naming the field otherwise).
   */
  withCa(config: CloudConfig): CloudConfig {
    const ca = config.platformCaPem ?? this.stored()?.platformCaPem ?? '';
    if (ca) checkCloudCa(ca);
    const { platformCaPem: _given, ...rest } = config;
    return ca ? { ...rest, platformCaPem: ca } : rest;
  }

  save(config: CloudConfig): CloudConfigView {
    const saved = this.rows.save(this.withCa(config));
    this.changed(saved.value);
    return this.view();
  }
}
