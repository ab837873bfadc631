/**
 * The settings drawer's choices kept per user on the server (`/api/yt/user/me/settings`), so they
 * follow the user to another browser; local storage (web/stores/settings.ts) stays the cache that
 * paints the first screen before the server answers.
 *
 * Which copy wins depends on whose the cache is: a browser whose cache already belongs to the
 * signed-in user (a reload, a new tab) keeps it and sends it to the server; a browser meeting the
 * user for the first time, or after another user, takes the server's copy. Every later change is
 * sent, a moment after the last one, so that clicking through choices sends one request.
 */
import { userSettingsRoutes, type UserSettings } from '../../server/contract/user-settings.ts';
import { changeLanguage } from '../i18n/i18n.ts';
import { api } from '../lib/api-client.ts';
import { StorageKey, storage } from '../lib/storage.ts';
import { useSession } from './session.ts';
import { useSettings, updateSettings, type Settings } from './settings.ts';

const SAVE_DELAY_MS = 400;

/** The fields the server keeps (the contract's layout settings). */
const keptFields = [
  'themeMode', 'colorPreset', 'primaryColor', 'navMode', 'pageWidth', 'showBreadcrumb',
  'grayMode', 'colorWeak', 'language', 'menuCollapsed', 'menuMode',
] as const satisfies readonly (keyof Settings & keyof UserSettings)[];

function toServer(settings: Settings): UserSettings {
  return Object.fromEntries(keptFields.map((k) => [k, settings[k]])) as UserSettings;
}

/** True while the server's copy is applied, so applying it does not send it back. */
let applying = false;
let synced = false;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Brings cache and server together for `userId` once per page load (see above for which wins). */
export async function syncServerSettings(userId: string): Promise<void> {
  const ownCache = storage.get<string>(StorageKey.SETTINGS_OWNER) === userId;
  const saved = ownCache ? {} : await api(userSettingsRoutes.get, { silent: true });
  storage.set(StorageKey.SETTINGS_OWNER, userId, { ttlMs: null });
  synced = true;
  if (Object.keys(saved).length === 0) {
    scheduleSave();
    return;
  }
  applying = true;
  try {
    const layout = Object.fromEntries(keptFields.filter((k) => saved[k] !== undefined).map((k) => [k, saved[k]])) as Partial<Settings>;
    if (layout.language && layout.language !== useSettings.getState().language) await changeLanguage(layout.language);
    updateSettings(layout);
  } finally {
    applying = false;
  }
}

function scheduleSave(): void {
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (!useSession.getState().token) return;
    void api(userSettingsRoutes.put, { body: toServer(useSettings.getState()), silent: true }).catch(() => undefined);
  }, SAVE_DELAY_MS);
}

useSettings.subscribe(() => {
  if (!applying && synced && useSession.getState().token) scheduleSave();
});

useSession.subscribe((state) => {
  if (!state.token) {
    synced = false;
    clearTimeout(timer);
  }
});
