import { describe, expect, it } from 'vitest';
import { alignSeries, isEmptySeries, toChartValue } from '../../web/components/chart-data.ts';
import { customRange, periodOf, periodsFor, presetRange, queryPeriods, refreshRange, suggestInterval } from '../../web/components/time-range.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('time ranges', () => {
  it.each([
    ['1h', HOUR, 5 * MINUTE],
    ['1d', DAY, 30 * MINUTE],
    ['7d', 7 * DAY, 2 * HOUR],
    ['30d', 30 * DAY, DAY],
  ] as const)('gives the %s quick range its bucket interval', (preset, span, interval) => {
    const value = presetRange(preset, 1_000_000_000_000);
    expect(value).toEqual({ range: preset, startTs: 1_000_000_000_000 - span, endTs: 1_000_000_000_000, interval });
  });

  it('offers query periods from 1 second to 30 days', () => {
    expect(queryPeriods[0]!.ms).toBe(1000);
    expect(queryPeriods.at(-1)!.ms).toBe(30 * DAY);
  });

  it('offers only periods that fit the span and stay within 50,000 buckets', () => {
    const hour = periodsFor(HOUR).map((p) => p.ms);
    expect(hour[0]).toBe(1000);
    expect(Math.max(...hour)).toBe(HOUR);
    const month = periodsFor(30 * DAY).map((p) => p.ms);
    expect(Math.min(...month)).toBeGreaterThanOrEqual((30 * DAY) / 50_000);
    expect(month).not.toContain(1000);
  });

  it('suggests an interval for a custom range and orders its ends', () => {
    const value = customRange(10 * DAY, 3 * DAY);
    expect(value.startTs).toBe(3 * DAY);
    expect(value.endTs).toBe(10 * DAY);
    expect((value.endTs - value.startTs) / value.interval).toBeLessThanOrEqual(200);
    expect(suggestInterval(HOUR)).toBe(30_000);
  });

  it('moves a quick range to now and keeps a custom one', () => {
    const quick = { ...presetRange('1h', 0), interval: MINUTE, agg: 'MAX' as const };
    expect(refreshRange(quick, 5 * HOUR)).toEqual({ range: '1h', startTs: 4 * HOUR, endTs: 5 * HOUR, interval: MINUTE, agg: 'MAX' });
    const custom = customRange(0, DAY);
    expect(refreshRange(custom, 5 * DAY)).toBe(custom);
  });

  it('names intervals the server chose in whole units', () => {
    expect(periodOf(2 * HOUR)).toEqual({ ms: 2 * HOUR, count: 2, unit: 'hour' });
    expect(periodOf(6 * HOUR)).toEqual({ ms: 6 * HOUR, count: 6, unit: 'hour' });
    expect(periodOf(2 * DAY)).toEqual({ ms: 2 * DAY, count: 2, unit: 'day' });
  });
});

describe('chart data', () => {
  it('reads numbers, numeric text and booleans as chart values', () => {
    expect([toChartValue(21.5), toChartValue('7'), toChartValue(true), toChartValue(false)]).toEqual([21.5, 7, 1, 0]);
    expect([toChartValue('on'), toChartValue({ a: 1 }), toChartValue(Number.NaN), toChartValue('')]).toEqual([null, null, null, null]);
  });

  it('keeps one series as it is, sorted by time', () => {
    const [xs, ys] = alignSeries([{ key: 't', label: 'T', points: [{ ts: 2, value: 20 }, { ts: 1, value: 10 }] }]);
    expect(xs).toEqual([1, 2]);
    expect(ys).toEqual([10, 20]);
  });

  it('merges several series on the union of their times, null where one has no point', () => {
    const aligned = alignSeries([
      { key: 'a', label: 'A', points: [{ ts: 1, value: 1 }, { ts: 3, value: 3 }] },
      { key: 'b', label: 'B', points: [{ ts: 2, value: 20 }, { ts: 3, value: 30 }] },
    ]);
    expect(aligned).toEqual([[1, 2, 3], [1, null, 3], [null, 20, 30]]);
  });

  it('aligns 50,000 points of one series', () => {
    const points = Array.from({ length: 50_000 }, (_, i) => ({ ts: i * 1000, value: i }));
    const [xs, ys] = alignSeries([{ key: 't', label: 'T', points }]);
    expect(xs).toHaveLength(50_000);
    expect(ys![49_999]).toBe(49_999);
  });

  it('calls a chart without points empty', () => {
    expect(isEmptySeries([])).toBe(true);
    expect(isEmptySeries([{ key: 'a', label: 'A', points: [] }])).toBe(true);
    expect(isEmptySeries([{ key: 'a', label: 'A', points: [{ ts: 1, value: null }] }])).toBe(false);
  });
});
