/**
 * The map tile URL, stored as JSON in the `setting` row id='map'. The origin of the stored URL is
 * read on every console page the static plugin serves (its CSP `img-src`), so it is kept in memory
 * and re-read only when saved.
 */
import type { Db } from '../../db/sqlite.ts';
import { readSetting, writeSetting } from '../../db/setting-store.ts';
import type { MapSettings } from '../../contract/map.ts';
import { tileOrigin, tileUrlProblem } from '../../contract/rules/tile-url.ts';
import { assertNoViolations } from '../../lib/field-errors.ts';

const SETTING_ID = 'map';

export class MapService {
  private settings: MapSettings;

  constructor(private readonly db: Db) {
    const stored = readSetting<Partial<MapSettings>>(db, SETTING_ID)?.value ?? {};
    this.settings = { tileUrl: typeof stored.tileUrl === 'string' && tileOrigin(stored.tileUrl) ? stored.tileUrl : null };
  }

  get(): MapSettings {
    return this.settings;
  }

  save(body: MapSettings): MapSettings {
    const found = tileUrlProblem(body.tileUrl);
    assertNoViolations(found ? [{ field: 'tileUrl', ...found }] : []);
    const tileUrl = body.tileUrl?.trim() || null;
    this.settings = { tileUrl };
    writeSetting(this.db, SETTING_ID, this.settings);
    return this.settings;
  }

  /** Where the console may load images from besides itself: the tile server's origin, if any. */
  imageOrigins(): string[] {
    const origin = this.settings.tileUrl ? tileOrigin(this.settings.tileUrl) : null;
    return origin ? [origin] : [];
  }
}
