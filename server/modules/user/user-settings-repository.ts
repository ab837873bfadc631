/** SQL for `user_setting`: each user's console settings as one JSON value. */
import type { UserSettings } from '../../contract/user-settings.ts';
import type { Db } from '../../db/sqlite.ts';

export class UserSettingsRepository {
  constructor(private readonly db: Db) {}

  /** The saved settings, or {} when the user never saved any. */
  get(userId: string): UserSettings {
    const r = this.db.prepare('SELECT value FROM user_setting WHERE id = ?').get(userId) as { value: string } | undefined;
    return r ? (JSON.parse(r.value) as UserSettings) : {};
  }

  /** Saves the fields of `settings`; fields it leaves out keep their saved values. Answers the result. */
  put(userId: string, patch: UserSettings): UserSettings {
    const settings = { ...this.get(userId), ...patch };
    this.db
      .prepare('INSERT INTO user_setting (id, value, update_time) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value, update_time = excluded.update_time')
      .run(userId, JSON.stringify(settings), Date.now());
    return settings;
  }
}
