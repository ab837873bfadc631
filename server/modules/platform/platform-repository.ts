/**
 * Branding (platform name, logo, icon, slogan) stored as JSON in the `setting` row id='platform'.
 * Unset fields are stored as null; an unset name is answered with DEFAULT_PLATFORM_NAME so the
 * login page and sidebar always have something to show.
 */
import type { Db } from '../../db/sqlite.ts';
import { durably } from '../../db/sqlite.ts';
import { DEFAULT_PLATFORM_NAME, type PlatformInfo } from '../../contract/platform.ts';

const SETTING_ID = 'platform';

interface StoredPlatform {
  name: string | null;
  logo: string | null;
  icon: string | null;
  slogan: string | null;
}

const EMPTY: StoredPlatform = { name: null, logo: null, icon: null, slogan: null };

export class PlatformRepository {
  constructor(private readonly db: Db) {}

  get(): PlatformInfo {
    const stored = this.read();
    return { ...stored, name: stored.name ?? DEFAULT_PLATFORM_NAME };
  }

  setName(name: string): void {
    this.write({ ...this.read(), name });
  }

  update(patch: Partial<PlatformInfo>): PlatformInfo {
    const next: StoredPlatform = { ...this.read() };
    if (patch.name !== undefined) next.name = patch.name;
    if (patch.logo !== undefined) next.logo = patch.logo;
    if (patch.icon !== undefined) next.icon = patch.icon;
    if (patch.slogan !== undefined) next.slogan = patch.slogan;
    this.write(next);
    return this.get();
  }

  private read(): StoredPlatform {
    const row = this.db.prepare('SELECT value FROM setting WHERE id = ?').get(SETTING_ID) as { value: string } | undefined;
    if (!row) return { ...EMPTY };
    const value = JSON.parse(row.value) as Partial<StoredPlatform>;
    return {
      name: value.name ?? null,
      logo: value.logo ?? null,
      icon: value.icon ?? null,
      slogan: value.slogan ?? null,
    };
  }

  private write(value: StoredPlatform): void {
    const upsert = (): void => {
      this.db
        .prepare(
          `INSERT INTO setting (id, value, updated_time) VALUES (?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET value = excluded.value, updated_time = excluded.updated_time`,
        )
        .run(SETTING_ID, JSON.stringify(value), Date.now());
    };
    // Branding is a setting: written with synchronous=FULL so a power cut does not lose it. SQLite
    // refuses to change that pragma inside a transaction, so a caller's transaction (first-boot
    // setup) is simply joined and its owner decides durability.
    if (this.db.isTransaction) upsert();
    else durably(this.db, upsert);
  }
}
