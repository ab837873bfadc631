import { describe, expect, it } from 'vitest';
import { findSceneCycle, sceneValueProblem, sceneViolations, type SceneCheckContext } from '../../server/contract/rules/scene-linkage.ts';
import type { SceneCreateBody } from '../../server/contract/scene-linkage.ts';
import { cronNextRuns } from '../../server/lib/cron-runs.ts';
import { inSchedule, localClock, withinWindow } from '../../server/modules/rule-engine/schedule-window.ts';

const intType = { type: 'INT' as const, specs: { min: 0, max: 200 } };

function context(scenes: Record<string, string[]> = {}): SceneCheckContext {
  return {
    modelOf: (id) =>
      id === 'boiler'
        ? [
            { identifier: 'temperature', functionType: 'properties', dataType: intType },
            { identifier: 'mode', functionType: 'properties', dataType: { type: 'ENUM', specs: [{ value: 1, description: 'eco' }] } },
          ]
        : undefined,
    productOfDevice: (id) => (id === 'b1' ? 'boiler' : undefined),
    sceneTriggersOf: (id) => scenes[id],
    cronNextRuns,
  };
}

function scene(overrides: Partial<SceneCreateBody> = {}): SceneCreateBody {
  return {
    name: 's',
    enabled: true,
    triggers: [{ type: 'DEVICE_TRIGGER', deviceTriggerType: 'TIME_SERIES', deviceProfileId: 'boiler', deviceIds: ['b1'], key: 'temperature', operation: 'GREATER', valueType: 'NUMERIC', value: 80, conditionType: 'SIMPLE' }],
    conditions: [],
    actions: [],
    clearRules: [null],
    ...overrides,
  };
}

describe('scene checks shared by the server and the editor', () => {
  it('passes a good scene', () => {
    expect(sceneViolations(scene(), context())).toEqual([]);
  });

  it('checks values against the value type and the item: range, enum items, kinds', () => {
    expect(sceneValueProblem('NUMERIC', 201, intType)?.key).toBe('error.scene.valueOutOfRange');
    expect(sceneValueProblem('NUMERIC', 200, intType)).toBeNull();
    expect(sceneValueProblem('NUMERIC', 2, { type: 'ENUM', specs: [{ value: 1, description: 'eco' }] })?.key).toBe('error.scene.valueNotInEnum');
    expect(sceneValueProblem('STRING', 'x', intType)?.key).toBe('error.scene.valueTypeMismatch');
    expect(sceneValueProblem('DATE_TIME', '2024-01-01T00:00:00Z', intType)).toBeNull();
    expect(sceneValueProblem('DATE_TIME', 'soon')?.key).toBe('error.scene.valueInvalid');
    expect(sceneValueProblem('BOOLEAN', 'true')?.key).toBe('error.scene.valueInvalid');
    expect(sceneValueProblem('NUMERIC', undefined)?.key).toBe('error.field.required');
  });

  it('finds cycles through chains of scene triggers', () => {
    const ctx = context({ a: [], b: ['a'], c: ['b'] });
    expect(findSceneCycle('a', ['c'], ctx)).toEqual(['a', 'c', 'b', 'a']);
    expect(findSceneCycle('a', ['b'], context({ b: [] }))).toBeNull();
    expect(findSceneCycle(undefined, ['c'], ctx)).toBeNull();
  });

  it('gives next cron runs in a time zone, with seconds', () => {
    const from = new Date('2024-01-01T00:00:00Z');
    // 08:00 in Shanghai is 00:00 UTC; runs come strictly after `from`.
    expect(cronNextRuns('0 8 * * *', 'Asia/Shanghai', 2, from)).toEqual([Date.parse('2024-01-02T00:00:00Z'), Date.parse('2024-01-03T00:00:00Z')]);
    expect(cronNextRuns('*/10 * * * * *', 'UTC', 1, from)).toEqual([Date.parse('2024-01-01T00:00:10Z')]);
    expect(cronNextRuns('not cron', 'UTC', 1, from)).toBeNull();
  });
});

describe('schedule windows', () => {
  // 2024-01-01 was a Monday.
  const mondayNoonUtc = Date.parse('2024-01-01T12:00:00Z');

  it('reads weekday and clock time in the schedule time zone', () => {
    expect(localClock(mondayNoonUtc, 'UTC')).toEqual({ weekday: 1, minutes: 720 });
    expect(localClock(Date.parse('2024-01-01T20:30:00Z'), 'Asia/Shanghai')).toEqual({ weekday: 2, minutes: 270 });
  });

  it('runs windows past midnight and takes equal ends as the whole day', () => {
    expect(withinWindow(23 * 60, '22:00', '06:00')).toBe(true);
    expect(withinWindow(5 * 60, '22:00', '06:00')).toBe(true);
    expect(withinWindow(12 * 60, '22:00', '06:00')).toBe(false);
    expect(withinWindow(12 * 60, '00:00', '00:00')).toBe(true);
    expect(withinWindow(18 * 60, '08:00', '18:00')).toBe(false);
  });

  it('is in force as ANY_TIME, SPECIFIC_TIME and CUSTOM say', () => {
    expect(inSchedule({ scheduleType: 'ANY_TIME' }, mondayNoonUtc)).toBe(true);
    const specific = { scheduleType: 'SPECIFIC_TIME' as const, timeZone: 'UTC', weekdays: [1, 2], startTime: '08:00', endTime: '18:00' };
    expect(inSchedule(specific, mondayNoonUtc)).toBe(true);
    expect(inSchedule({ ...specific, weekdays: [3] }, mondayNoonUtc)).toBe(false);
    expect(inSchedule({ ...specific, timeZone: 'Asia/Shanghai' }, mondayNoonUtc)).toBe(false); // 20:00 there
    const custom = { scheduleType: 'CUSTOM' as const, timeZone: 'UTC', items: [{ weekday: 1, enabled: true, startTime: '11:00', endTime: '13:00' }] };
    expect(inSchedule(custom, mondayNoonUtc)).toBe(true);
    expect(inSchedule({ ...custom, items: [{ ...custom.items[0]!, enabled: false }] }, mondayNoonUtc)).toBe(false);
  });
});
