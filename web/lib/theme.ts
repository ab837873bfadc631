/**
 * Applies the visual settings to the document: Arco's dark/light switch on <body>, the primary
 * palette (#7E55D8 by default) as Arco's `--arcoblue-*`/`--primary-*` variables, the colour preset
 * (#7635DC) as `--brand-*` (brand name, avatar, selected menu mark), and the gray / colour-weak
 * filters on <html>.
 */
import { DEFAULT_COLOR_PRESET, DEFAULT_PRIMARY_COLOR, type Settings } from '../stores/settings.ts';

export type ThemeSettings = Pick<Settings, 'themeMode' | 'primaryColor' | 'colorPreset' | 'grayMode' | 'colorWeak'>;

/** Ten 'r,g,b' steps, light to dark (dark mode: Arco's dark palette, which runs the other way). */
export type Palette = string[];

/**
 * `generate(color, { list: true, dark })` of @arco-design/color for the default colours, as 'r,g,b'.
 * Precomputed so the first paint needs no colour library in the entry chunk; the library is loaded
 * only for other colours. tests/web/theme.test.ts keeps these equal to the library's output.
 */
export const precomputedPalettes: Record<string, { light: Palette; dark: Palette }> = {
  [DEFAULT_PRIMARY_COLOR]: {
    light: ['243,232,255', '221,199,247', '198,168,239', '174,139,232', '151,111,224', '126,85,216', '90,53,181', '58,29,146', '33,11,111', '14,0,77'],
    dark: ['14,0,77', '33,11,111', '60,31,146', '94,59,181', '132,94,216', '158,122,224', '180,149,232', '204,178,239', '226,208,247', '247,241,255'],
  },
  [DEFAULT_COLOR_PRESET]: {
    light: ['245,232,255', '221,192,248', '196,155,241', '171,119,234', '144,85,227', '118,53,220', '86,33,184', '59,18,148', '37,7,112', '19,0,77'],
    dark: ['19,0,77', '38,8,112', '62,22,148', '92,42,184', '127,68,220', '146,89,227', '173,122,234', '197,157,241', '222,194,248', '245,232,255'],
  },
};

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

function normalColor(color: string, fallback: string): string {
  return HEX.test(color) ? color.toUpperCase() : fallback;
}

/** The palette without loading anything, when the colour is one of the defaults. */
export function knownPalette(color: string, dark: boolean): Palette | undefined {
  const palettes = precomputedPalettes[color.toUpperCase()];
  return palettes ? (dark ? palettes.dark : palettes.light) : undefined;
}

/** Arco's palette algorithm for any colour (loads @arco-design/color on first use). */
export async function computePalette(color: string, dark: boolean): Promise<Palette> {
  const mod = await import('@arco-design/color');
  // A CommonJS package: the console's bundle exposes it only as the default export (Node adds named ones).
  const { generate, getRgbStr } = mod.default ?? mod;
  return generate(color, { list: true, dark }).map((c) => getRgbStr(c));
}

/** WCAG relative luminance of an 'r,g,b' colour. */
function luminance(rgb: string): number {
  const [r = 0, g = 0, b = 0] = rgb.split(',').map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const WHITE = '255,255,255';
const INK = '29,33,41';

/**
 * The text colour for a background: white where it reaches 4.5:1, else Arco's darkest gray. A
 * preset such as green leaves white initials on the avatar unreadable (2.7:1).
 */
export function textOn(background: string): string {
  return 1.05 / (luminance(background) + 0.05) >= 4.5 ? WHITE : INK;
}

/**
 * CSS variables for a primary palette and a colour-preset palette, and `--brand-on-5`/`-6`: the
 * text colour on those preset steps (web/styles/contrast.css).
 */
export function paletteVariables(primary: Palette, accent: Palette): Record<string, string> {
  const vars: Record<string, string> = {};
  primary.forEach((rgb, i) => {
    vars[`--arcoblue-${i + 1}`] = rgb;
    vars[`--primary-${i + 1}`] = rgb;
  });
  accent.forEach((rgb, i) => {
    vars[`--brand-${i + 1}`] = rgb;
  });
  for (const step of [5, 6]) vars[`--brand-on-${step}`] = textOn(accent[step - 1] ?? INK);
  return vars;
}

/** Gray and colour-weak modes combine as one filter list; '' when neither is on. */
export function documentFilter(grayMode: boolean, colorWeak: boolean): string {
  return [grayMode ? 'grayscale(100%)' : '', colorWeak ? 'invert(80%)' : ''].filter(Boolean).join(' ');
}

let applied = 0;

/**
 * Applies the settings live: call before the first render and whenever they change. Default
 * colours apply synchronously; another colour applies once its palette is computed (a later
 * call wins over an earlier one still computing).
 */
export function applyTheme(settings: ThemeSettings): void {
  const { body, documentElement: html } = document;
  const dark = settings.themeMode === 'dark';
  if (dark) body.setAttribute('arco-theme', 'dark');
  else body.removeAttribute('arco-theme');
  html.style.colorScheme = dark ? 'dark' : 'light';
  const filter = documentFilter(settings.grayMode, settings.colorWeak);
  if (filter) html.style.filter = filter;
  else html.style.removeProperty('filter');

  const primary = normalColor(settings.primaryColor, DEFAULT_PRIMARY_COLOR);
  const preset = normalColor(settings.colorPreset, DEFAULT_COLOR_PRESET);
  const call = ++applied;
  const set = (p: Palette, a: Palette): void => {
    if (call !== applied) return;
    for (const [name, value] of Object.entries(paletteVariables(p, a))) body.style.setProperty(name, value);
  };
  const p = knownPalette(primary, dark);
  const a = knownPalette(preset, dark);
  if (p && a) set(p, a);
  else {
    void Promise.all([p ?? computePalette(primary, dark), a ?? computePalette(preset, dark)]).then(([pp, aa]) => set(pp, aa));
  }
}
