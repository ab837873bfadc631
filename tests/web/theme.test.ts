import { describe, expect, it } from 'vitest';
import {
  computePalette,
  documentFilter,
  knownPalette,
  paletteVariables,
  precomputedPalettes,
} from '../../web/lib/theme.ts';
import { DEFAULT_COLOR_PRESET, DEFAULT_PRIMARY_COLOR } from '../../web/stores/settings.ts';

describe('theme', () => {
  it('ships the default palettes exactly as Arco’s palette algorithm makes them', async () => {
    for (const [color, palettes] of Object.entries(precomputedPalettes)) {
      expect(palettes.light).toEqual(await computePalette(color, false));
      expect(palettes.dark).toEqual(await computePalette(color, true));
    }
  });

  it('knows the default primary colour #7E55D8 and colour preset #7635DC without loading anything', () => {
    expect(knownPalette(DEFAULT_PRIMARY_COLOR, false)?.[5]).toBe('126,85,216');
    expect(knownPalette(DEFAULT_COLOR_PRESET.toLowerCase(), false)?.[5]).toBe('118,53,220');
    expect(knownPalette('#123456', false)).toBeUndefined();
  });

  it('sets Arco’s primary variables as comma-separated RGB and the preset as the brand colour', async () => {
    const vars = paletteVariables(await computePalette('#7E55D8', false), await computePalette('#7635DC', false));
    expect(vars['--primary-6']).toBe('126,85,216');
    expect(vars['--arcoblue-6']).toBe('126,85,216');
    expect(vars['--brand-6']).toBe('118,53,220');
    expect(Object.keys(vars).filter((k) => k.startsWith('--primary-'))).toHaveLength(10);
  });

  it('writes the avatar initials in white on the default preset and in dark ink on a green preset too light for white', async () => {
    const violet = paletteVariables(await computePalette('#7E55D8', false), await computePalette('#7635DC', true));
    expect(violet['--brand-on-5']).toBe('255,255,255');
    const green = paletteVariables(await computePalette('#7E55D8', false), await computePalette('#00B42A', true));
    expect(green['--brand-on-5']).toBe('29,33,41');
    expect(green['--brand-on-6']).toBe('29,33,41');
  });

  it('combines gray and colour-weak modes into one filter', () => {
    expect(documentFilter(false, false)).toBe('');
    expect(documentFilter(true, false)).toBe('grayscale(100%)');
    expect(documentFilter(false, true)).toBe('invert(80%)');
    expect(documentFilter(true, true)).toBe('grayscale(100%) invert(80%)');
  });
});
