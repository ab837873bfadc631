/**
 * Browser storage: the console's keys and their cache lifetime (7 days).
 * `persistent` picks localStorage (survives the browser) over sessionStorage (this tab only):
 * "remember password" signs the user in for 7 days instead of storing the password itself.
 */
export const StorageKey = {
  TOKEN: 'TOKEN__',
  REFRESH_TOKEN: 'REFRESH_TOKEN__',
  MENU_LIST: 'MENU_LIST__',
  TENANT_INFO: 'TENANT_INFO__',
  /** The signed-in user's role and permission strings (spec section 6's permission cache). */
  PERMISSIONS: 'PERMISSIONS__',
  PROJECT_SETTINGS: 'PROJECT_CFG_KEY__',
  PLATFORM_INFO: 'PLATFORM_INFO__',
  REMEMBER_ME: 'REMEMBER_ME__',
  LAST_USERNAME: 'LAST_USERNAME__',
  /** Columns the user hid, per list table (web/components/column-choice.ts). */
  TABLE_COLUMNS: 'TABLE_COLUMNS__',
  /** Whose settings PROJECT_SETTINGS holds (web/stores/settings-server.ts). */
  SETTINGS_OWNER: 'SETTINGS_OWNER__',
} as const;
export type StorageKey = (typeof StorageKey)[keyof typeof StorageKey];

export const CACHE_TTL_MS = 7 * 24 * 3600 * 1000;

interface Envelope<T> {
  value: T;
  expires: number | null;
}

function areas(): Storage[] {
  try {
    return [window.sessionStorage, window.localStorage];
  } catch {
    return [];
  }
}

export const storage = {
  get<T>(key: StorageKey): T | null {
    for (const area of areas()) {
      const raw = area.getItem(key);
      if (raw === null) continue;
      try {
        const env = JSON.parse(raw) as Envelope<T>;
        if (env.expires !== null && env.expires < Date.now()) {
          area.removeItem(key);
          continue;
        }
        return env.value;
      } catch {
        area.removeItem(key);
      }
    }
    return null;
  },
  set<T>(key: StorageKey, value: T, opts: { persistent?: boolean; ttlMs?: number | null } = {}): void {
    const persistent = opts.persistent ?? true;
    const env: Envelope<T> = { value, expires: opts.ttlMs === null ? null : Date.now() + (opts.ttlMs ?? CACHE_TTL_MS) };
    const [session, local] = areas();
    (persistent ? session : local)?.removeItem(key);
    (persistent ? local : session)?.setItem(key, JSON.stringify(env));
  },
  remove(key: StorageKey): void {
    for (const area of areas()) area.removeItem(key);
  },
};
