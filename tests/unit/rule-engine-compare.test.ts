import { describe, expect, it } from 'vitest';
import { triggerOperations, triggerValueTypes, operationsByValueType, type SceneValue, type TriggerOperation, type TriggerValueType } from '../../server/contract/scene-linkage.ts';
import { compareValue } from '../../server/modules/rule-engine/compare.ts';

/** [valueType, threshold, reported value, operations true for it]. */
const cases: [TriggerValueType, SceneValue, unknown, TriggerOperation[]][] = [
  ['NUMERIC', 80, 85, ['NOT_EQUAL', 'GREATER', 'GREATER_OR_EQUAL']],
  ['NUMERIC', 80, 80, ['EQUAL', 'LESS_OR_EQUAL', 'GREATER_OR_EQUAL']],
  ['NUMERIC', 80, 79.5, ['NOT_EQUAL', 'LESS', 'LESS_OR_EQUAL']],
  ['NUMERIC', 80, '81', ['NOT_EQUAL', 'GREATER', 'GREATER_OR_EQUAL']],
  ['NUMERIC', 80, 'hot', []],
  ['NUMERIC', 80, null, []],
  ['DATE_TIME', 1_700_000_000_000, 1_700_000_000_001, ['NOT_EQUAL', 'GREATER', 'GREATER_OR_EQUAL']],
  ['DATE_TIME', '2023-11-14T22:13:20Z', 1_700_000_000_000, ['EQUAL', 'LESS_OR_EQUAL', 'GREATER_OR_EQUAL']],
  ['DATE_TIME', 1_700_000_000_000, '2023-11-14T22:13:19Z', ['NOT_EQUAL', 'LESS', 'LESS_OR_EQUAL']],
  ['DATE_TIME', 1_700_000_000_000, 'yesterday', []],
  ['BOOLEAN', true, true, ['EQUAL']],
  ['BOOLEAN', true, false, ['NOT_EQUAL']],
  ['BOOLEAN', false, 0, ['EQUAL']],
  ['BOOLEAN', true, 'true', ['EQUAL']],
  ['BOOLEAN', true, 'yes', []],
  ['STRING', 'heat', 'heating', ['NOT_EQUAL', 'STARTS_WITH', 'CONTAINS']],
  ['STRING', 'ing', 'heating', ['NOT_EQUAL', 'ENDS_WITH', 'CONTAINS']],
  ['STRING', 'heating', 'heating', ['EQUAL', 'STARTS_WITH', 'ENDS_WITH', 'CONTAINS']],
  ['STRING', 'cool', 'heating', ['NOT_EQUAL', 'NOT_CONTAINS']],
  ['STRING', 'HEAT', 'heating', ['NOT_EQUAL', 'NOT_CONTAINS']],
  ['STRING', '12', 12, ['EQUAL', 'STARTS_WITH', 'ENDS_WITH', 'CONTAINS']],
];

describe('trigger comparisons', () => {
  it.each(cases)('%s threshold %j, value %j', (valueType, threshold, value, trueFor) => {
    const results = triggerOperations.filter((op) => compareValue(op, valueType, value, threshold));
    expect(results).toEqual(trueFor);
  });

  it('ignores case for text when asked', () => {
    expect(compareValue('STARTS_WITH', 'STRING', 'Heating', 'HEAT', true)).toBe(true);
    expect(compareValue('EQUAL', 'STRING', 'IDLE', 'idle', true)).toBe(true);
    expect(compareValue('NOT_CONTAINS', 'STRING', 'Heating', 'EAT', true)).toBe(false);
    expect(compareValue('EQUAL', 'STRING', 'IDLE', 'idle', false)).toBe(false);
  });

  it('is false for operations a value type does not take', () => {
    for (const valueType of triggerValueTypes) {
      for (const op of triggerOperations.filter((o) => !operationsByValueType[valueType].includes(o))) {
        const [threshold, value] = valueType === 'STRING' ? ['a', 'b'] : valueType === 'BOOLEAN' ? [true, true] : [1, 1];
        expect(compareValue(op, valueType, value, threshold), `${valueType} ${op}`).toBe(false);
      }
    }
  });
});
