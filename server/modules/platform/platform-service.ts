/**
 * Branding (platform name, logo, icon, slogan) stored as JSON in the `setting` row id='platform'.
 * Unset fields are stored as null; an unset name is answered with DEFAULT_PLATFORM_NAME so the
 * login page and sidebar always have something to show.
 */
import type { Db } from '../../db/sqlite.ts';
import { readSetting, writeSetting } from '../../db/setting-store.ts';
import { DEFAULT_PLATFORM_NAME, type PlatformInfo } from '../../contract/platform.ts';

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
