/**
 * Branding (platform name, logo, icon, slogan) stored as JSON in the `setting` row id='platform'.
 * Unset fields are stored and answered as null; the console shows its localized default name for an
 * unset one (server/contract/platform.ts).
 */
import type { Db } from '../../db/sqlite.ts';
import { readSetting, writeSetting } from '../../db/setting-store.ts';
import type { PlatformInfo } from '../../contract/platform.ts';

const SETTING_ID = 'platform';

interface StoredPlatform {
  name: string | null;
  logo: string | null;
  icon: string | null;
  slogan: string | null;
}

export class PlatformService {
  constructor(private readonly db: Db) {}

  get(): PlatformInfo {
    return this.read();
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
    const value = readSetting<Partial<StoredPlatform>>(this.db, SETTING_ID)?.value ?? {};
    return {
      name: value.name ?? null,
      logo: value.logo ?? null,
      icon: value.icon ?? null,
      slogan: value.slogan ?? null,
    };
  }

  private write(value: StoredPlatform): void {
    writeSetting(this.db, SETTING_ID, value);
  }
}
