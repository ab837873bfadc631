/**
 * Chart colours from Arco's CSS variables, so canvases (which cannot use `var()`) follow the light
 * and dark themes and the chosen primary colour. `useChartTheme` re-reads them when web/lib/theme.ts
 * changes the body's theme attribute or palette variables.
 */
import { useEffect, useState } from 'react';

export interface ChartTheme {
  /** Axis labels and legend. */
  text: string;
  /** Grid lines and ticks. */
  grid: string;
  /** Series colours, the primary colour first. */
  series: string[];
  /** Marker series (values set apart, e.g. flagged). */
  danger: string;
  font: string;
}

/** Arco palette variables ('r,g,b') used for series after the primary colour. */
const seriesVariables = ['--primary-6', '--green-6', '--orangered-6', '--cyan-6', '--gold-6', '--pinkpurple-6', '--lime-6', '--magenta-6'];
const fallbackSeries = ['126,85,216', '0,180,42', '247,114,52', '20,201,201', '247,186,30', '217,26,217', '159,219,29', '245,49,157'];

export function readChartTheme(): ChartTheme {
  const css = getComputedStyle(document.body);
  const read = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  const dark = document.body.getAttribute('arco-theme') === 'dark';
  return {
    text: read('--color-text-3', dark ? 'rgba(255,255,255,0.5)' : '#86909c'),
    grid: read('--color-border-2', dark ? '#333335' : '#e5e6eb'),
    series: seriesVariables.map((name, i) => `rgb(${read(name, fallbackSeries[i]!)})`),
    danger: `rgb(${read('--red-6', '245,63,63')})`,
    font: `12px ${css.fontFamily || 'sans-serif'}`,
  };
}

function sameTheme(a: ChartTheme, b: ChartTheme): boolean {
  return a.text === b.text && a.grid === b.grid && a.font === b.font && a.danger === b.danger && a.series.join() === b.series.join();
}

/** The current chart colours, updated when the theme or primary colour changes. */
export function useChartTheme(): ChartTheme {
  const [theme, setTheme] = useState(readChartTheme);
  useEffect(() => {
    const observer = new MutationObserver(() => {
      const next = readChartTheme();
      setTheme((prev) => (sameTheme(prev, next) ? prev : next));
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ['arco-theme', 'style'] });
    return () => observer.disconnect();
  }, []);
  return theme;
}
