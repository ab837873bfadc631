/**
 * Applies the visual settings to the document: Arco's dark/light switch on <body>, the primary
 * palette (#7E55D8 by default) as Arco's `--arcoblue-*`/`--primary-*` variables, the colour preset
 * (#7635DC) used for the brand accent, and the gray / colour-weak filters on <html>.
 * `themeVariables` and `documentFilter` are pure so they can be tested without a DOM.
 */
import { generate, getRgbStr } from '@arco-design/color';
import { defaultSettings, type Settings } from '../stores/settings.ts';

export type ThemeSettings = Pick<Settings, 'themeMode' | 'primaryColor' | 'colorPreset' | 'grayMode' | 'colorWeak'>;

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * CSS variables for the palette: Arco components read `--primary-N` (which Arco defines as
 * `--arcoblue-N`), each a comma-separated RGB triple. Dark mode uses Arco's dark palette, which
 * is lighter at the same index so text stays readable on dark backgrounds.
 */
export function themeVariables(settings: Pick<ThemeSettings, 'themeMode' | 'primaryColor' | 'colorPreset'>): Record<string, string> {
  const dark = settings.themeMode === 'dark';
  const primary = HEX.test(settings.primaryColor) ? settings.primaryColor : defaultSettings.primaryColor;
  const preset = HEX.test(settings.colorPreset) ? settings.colorPreset : defaultSettings.colorPreset;
  const vars: Record<string, string> = {};
  generate(primary, { list: true, dark }).forEach((color, i) => {
    const rgb = getRgbStr(color);
    vars[`--arcoblue-${i + 1}`] = rgb;
    vars[`--primary-${i + 1}`] = rgb;
  });
  const accent = generate(preset, { list: true, dark });
  vars['--brand-6'] = getRgbStr(accent[5] as string);
  vars['--brand-1'] = getRgbStr(accent[0] as string);
  return vars;
}

/** Gray and colour-weak modes combine as one filter list; '' when neither is on. */
export function documentFilter(grayMode: boolean, colorWeak: boolean): string {
  return [grayMode ? 'grayscale(100%)' : '', colorWeak ? 'invert(80%)' : ''].filter(Boolean).join(' ');
}

/** Applies the settings live; call before the first render and whenever they change. */
export function applyTheme(settings: ThemeSettings): void {
  const { body, documentElement: html } = document;
  if (settings.themeMode === 'dark') body.setAttribute('arco-theme', 'dark');
  else body.removeAttribute('arco-theme');
  html.style.colorScheme = settings.themeMode === 'dark' ? 'dark' : 'light';
  for (const [name, value] of Object.entries(themeVariables(settings))) body.style.setProperty(name, value);
  const filter = documentFilter(settings.grayMode, settings.colorWeak);
  if (filter) html.style.filter = filter;
  else html.style.removeProperty('filter');
}
