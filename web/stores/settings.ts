/**
 * Project settings of the settings drawer, persisted under PROJECT_SETTINGS.
 * Defaults: light theme, colour preset #7635DC, primary colour #7E55D8.
 */
import { create } from 'zustand';
import { StorageKey, storage } from '../lib/storage.ts';
import { DEFAULT_LANGUAGE, type Language } from '../../server/contract/languages.ts';

export const DEFAULT_COLOR_PRESET = '#7635DC';
export const DEFAULT_PRIMARY_COLOR = '#7E55D8';

export type ThemeMode = 'light' | 'dark';
export type NavMode = 'sidebar' | 'top' | 'mix';
export type PageWidth = 'fluid' | 'fixed';

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
}

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
