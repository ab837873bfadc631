/**
 * Project settings of the settings drawer, persisted under PROJECT_SETTINGS.
 * Defaults: light theme, colour preset #7635DC, primary colour #7E55D8.
 */
import { create } from 'zustand';
import { StorageKey, storage } from '../lib/storage.ts';
import { DEFAULT_LANGUAGE, type Language } from '../../server/contract/languages.ts';

export const DEFAULT_COLOR_PRESET = '#7635DC';
export const DEFAULT_PRIMARY_COLOR = '#7E55D8';

/**
 * The settings drawer's colour presets: each sets the accent (`colorPreset`) and the primary colour.
 * The first is the spec's default pair; the others are Arco's standard hues, which keep readable
 * contrast on white and on the dark theme's background.
 */
export const colorPresets = [
  { name: 'violet', preset: DEFAULT_COLOR_PRESET, primary: DEFAULT_PRIMARY_COLOR },
  { name: 'blue', preset: '#165DFF', primary: '#165DFF' },
  { name: 'cyan', preset: '#0FC6C2', primary: '#0FC6C2' },
  { name: 'green', preset: '#00B42A', primary: '#00B42A' },
  { name: 'orange', preset: '#FF7D00', primary: '#FF7D00' },
  { name: 'red', preset: '#F53F3F', primary: '#F53F3F' },
  { name: 'magenta', preset: '#D91AD9', primary: '#D91AD9' },
] as const;

export type ThemeMode = 'light' | 'dark';
export type NavMode = 'sidebar' | 'top' | 'mix';
export type PageWidth = 'fluid' | 'fixed';
/** Where the menu comes from: the console's route table, or the server's menu call (the spec's permission modes). */
export type MenuMode = 'front' | 'back';

export interface Settings {
  themeMode: ThemeMode;
  colorPreset: string;
  primaryColor: string;
  navMode: NavMode;
  pageWidth: PageWidth;
  showBreadcrumb: boolean;
  grayMode: boolean;
  colorWeak: boolean;
  language: Language;
  menuCollapsed: boolean;
  menuMode: MenuMode;
  /** The alarm popup's polling interval (spec: alarmNotifyPollingIntervalTime). */
  alarmPollIntervalMs: number;
  /** How long the alarm popup stays, in seconds (spec: alarmNotifyDuration). */
  alarmPopupDurationS: number;
}

export const DEFAULT_ALARM_POLL_INTERVAL_MS = 60_000;
export const DEFAULT_ALARM_POPUP_DURATION_S = 5;
/** Bounds of the settings drawer's inputs: polling faster than 5 s only loads the gateway. */
export const ALARM_POLL_INTERVAL_MIN_S = 5;
export const ALARM_POLL_INTERVAL_MAX_S = 3600;
export const ALARM_POPUP_DURATION_MIN_S = 1;
export const ALARM_POPUP_DURATION_MAX_S = 60;

export const defaultSettings: Settings = {
  themeMode: 'light',
  colorPreset: DEFAULT_COLOR_PRESET,
  primaryColor: DEFAULT_PRIMARY_COLOR,
  navMode: 'sidebar',
  pageWidth: 'fluid',
  showBreadcrumb: true,
  grayMode: false,
  colorWeak: false,
  language: DEFAULT_LANGUAGE,
  menuCollapsed: false,
  menuMode: 'front',
  alarmPollIntervalMs: DEFAULT_ALARM_POLL_INTERVAL_MS,
  alarmPopupDurationS: DEFAULT_ALARM_POPUP_DURATION_S,
};

export const useSettings = create<Settings>(() => ({
  ...defaultSettings,
  ...storage.get<Partial<Settings>>(StorageKey.PROJECT_SETTINGS),
}));

/** Settings are a preference, not a cache: they do not expire. */
export function updateSettings(patch: Partial<Settings>): void {
  useSettings.setState(patch);
  storage.set(StorageKey.PROJECT_SETTINGS, useSettings.getState(), { ttlMs: null });
}
