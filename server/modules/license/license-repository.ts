/**
 * The installed licence, kept as `.lic` text (its signed payload untouched) in the `setting` row
 * id='license' so it can be verified again at every start against the keys trusted then.
 */
import type { Db } from '../../db/sqlite.ts';
import { readSetting, writeSetting } from '../../db/setting-store.ts';

const SETTING_ID = 'license';

export interface StoredLicense {
  /** The `.lic` file's own fields as JSON (format, payload, signature, keyId). */
  file: string;
  installedTime: number;
}

export class LicenseRepository {
  constructor(private readonly db: Db) {}

  get(): StoredLicense | null {
    const row = readSetting<{ file?: unknown }>(this.db, SETTING_ID);
    if (!row || typeof row.value.file !== 'string') return null;
    return { file: row.value.file, installedTime: row.updatedTime };
  }

  /** Replaces the licence durably: an activation must survive a power cut. */
  save(file: string): StoredLicense {
    const row = writeSetting(this.db, SETTING_ID, { file });
    return { file, installedTime: row.updatedTime };
  }
}
