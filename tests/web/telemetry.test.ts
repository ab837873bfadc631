import { describe, expect, it } from 'vitest';
import type { DataType } from '../../server/contract/thing-model.ts';
import { presetRange } from '../../web/components/time-range.ts';
import { historyBlocker, historyQuery, historyRows } from '../../web/features/telemetry/historyQuery.ts';
import { formatValue, isChartable, shownText } from '../../web/features/telemetry/valueFormat.ts';

const double: DataType = { type: 'DOUBLE', specs: { min: -40, max: 125, unit: '°C' } };
const bool: DataType = { type: 'BOOL', specs: { '0': '关', '1': '开' } };
const mode: DataType = { type: 'ENUM', specs: [{ value: 0, description: '自动' }, { value: 1, description: '手动' }] };
const position: DataType = {
  type: 'STRUCT',
  specs: [
    { identifier: 'x', functionName: '横坐标', dataType: { type: 'INT', specs: { min: 0, max: 100, unit: 'm' } } },
    { identifier: 'on', functionName: '启用', dataType: bool },
  ],
};

describe('telemetry values shown through the thing model', () => {
  it('shows numbers with their unit and BOOL and ENUM values by name', () => {
    expect(shownText(formatValue(23.456, double))).toBe('23.456 °C');
    expect(formatValue(true, bool)).toEqual({ text: 'true', label: '开' });
    expect(shownText(formatValue(0, bool))).toBe('关 (0)');
    expect(shownText(formatValue(1, mode))).toBe('手动 (1)');
  });

  it('shows STRUCT members by name and keeps what does not fit as it came', () => {
    expect(formatValue({ x: 3, on: false, extra: 'y' }, position).text).toBe('横坐标: 3 m, 启用: 关 (false), extra: y');
    expect(formatValue('hot', double)).toEqual({ text: 'hot' });
    expect(formatValue(7, mode)).toEqual({ text: '7' });
    expect(formatValue({ a: 1 }, undefined)).toEqual({ text: '{"a":1}' });
  });

  it('charts numbers, booleans and enums but not text or structs', () => {
    expect([double, bool, mode].every(isChartable)).toBe(true);
    expect(isChartable(position)).toBe(false);
    expect(isChartable({ type: 'TEXT', specs: { length: 8 } })).toBe(false);
  });
});

describe('history trend query', () => {
  const range = { ...presetRange('1h', 3_600_000), agg: 'NONE' as const };

  it('stays disabled until a property is chosen, and for a limit above 50,000', () => {
    expect(historyBlocker([], range, 100)).toBe('history.needKeys');
    expect(historyBlocker(['temperature'], range, 50_001)).toBe('history.limitRange');
    expect(historyBlocker(['temperature'], range, 50_000)).toBeNull();
  });

  it('asks for raw points oldest first with a limit, or aggregated buckets with the interval', () => {
    expect(historyQuery(['temperature', 'humidity'], range, 500)).toEqual({
      keys: 'temperature,humidity',
      startTs: 0,
      endTs: 3_600_000,
      agg: 'NONE',
      limit: 500,
      orderBy: 'ASC',
      useStrictDataTypes: true,
    });
    expect(historyQuery(['temperature'], { ...range, agg: 'AVG' }, 500)).toMatchObject({ agg: 'AVG', interval: range.interval });
  });

  it('lists the answer newest first with flags kept', () => {
    const rows = historyRows({ t: [{ ts: 1, value: 2 }, { ts: 3, value: 200, flag: 'above the maximum' }], h: [{ ts: 2, value: 50 }] });
    expect(rows.map((r) => [r.ts, r.key, r.flag ?? null])).toEqual([
      [3, 't', 'above the maximum'],
      [2, 'h', null],
      [1, 't', null],
    ]);
  });
});
