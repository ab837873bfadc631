/**
 * The settings drawer's choices kept per user on the server (`/api/yt/user/me/settings`), so they
 * follow the user to another browser; local storage (web/stores/settings.ts) stays the cache that
 * paints the first screen before the server answers.
 *
 * After sign-in the server's copy wins over the cache. Every later change is sent back, a moment
 * after the last one so that dragging through choices sends one request.
 */
import { userSettingsRoutes, type UserSettings } from '../../server/contract/user-settings.ts';
import { changeLanguage } from '../i18n/i18n.ts';
import { api } from '../lib/api-client.ts';
import { useSession } from './session.ts';
import { useSettings, updateSettings, type Settings } from './settings.ts';

const SAVE_DELAY_MS = 400;

/** The fields the server keeps; `menuCollapsed` and the rest are the contract's, nothing else. */
const keptFields = [
  'themeMode', 'colorPreset', 'primaryColor', 'navMode', 'pageWidth', 'showBreadcrumb',
  'grayMode', 'colorWeak', 'language', 'menuCollapsed', 'menuMode',
] as const satisfies readonly (keyof Settings & keyof UserSettings)[];

function toServer(settings: Settings): UserSettings {
  return Object.fromEntries(keptFields.map((k) => [k, settings[k]])) as UserSettings;
}

/** False while the server's copy is being applied, so applying it does not send it back. */
let syncing = false;
let loadedForSession = false;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Applies the signed-in user's saved settings (nothing saved yet: saves the cache as theirs). */
export async function loadServerSettings(): Promise<void> {
  const saved = await api(userSettingsRoutes.get, { silent: true });
  loadedForSession = true;
  if (Object.keys(saved).length === 0) {
    scheduleSave();
    return;
  }
  syncing = true;
  try {
    const layout = Object.fromEntries(keptFields.filter((k) => saved[k] !== undefined).map((k) => [k, saved[k]])) as Partial<Settings>;
    if (layout.language && layout.language !== useSettings.getState().language) await changeLanguage(layout.language);
    updateSettings(layout);
  } finally {
    syncing = false;
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
  if (!syncing && loadedForSession && useSession.getState().token) scheduleSave();
});

useSession.subscribe((state) => {
  if (!state.token) {
    loadedForSession = false;
    clearTimeout(timer);
  }
});
