/** Setting changes offered in several places (header, user popover, settings drawer). */
import { changeLanguage } from '../i18n/i18n.ts';
import type { Language } from '../../server/contract/languages.ts';
import { defaultSettings, updateSettings, type ThemeMode } from '../stores/settings.ts';

export async function switchLanguage(language: Language): Promise<void> {
  await changeLanguage(language);
  updateSettings({ language });
}

export function switchTheme(themeMode: ThemeMode): void {
  updateSettings({ themeMode });
}

/** Back to the defaults: light theme, default preset and primary colour, zh_CN. */
export async function resetSettings(): Promise<void> {
  await changeLanguage(defaultSettings.language);
  updateSettings({ ...defaultSettings });
}
