/** The cloud platform configuration, in the `setting` row id='cloud' (absent = standalone). */
import type { Db } from '../../db/sqlite.ts';
import { readSetting, writeSetting, type SettingRow } from '../../db/setting-store.ts';
import type { CloudConfig } from '../../contract/cloud.ts';

const SETTING_ID = 'cloud';

export class CloudRepository {
  constructor(private readonly db: Db) {}

  get(): SettingRow<CloudConfig> | null {
    return readSetting<CloudConfig>(this.db, SETTING_ID);
  }

  save(config: CloudConfig): SettingRow<CloudConfig> {
    // Only the known fields: the stored row never carries whatever else a caller passed along.
    const { platformAddress, platformPort, platformKey, platformSecret, platformTls, platformHttpUrl, platformCaPem } = config;
    return writeSetting(this.db, SETTING_ID, { platformAddress, platformPort, platformKey, platformSecret, platformTls, platformHttpUrl, platformCaPem });
  }
}
