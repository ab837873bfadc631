import { describe, expect, it } from 'vitest';
import { attributeValueText, parseAttributeValue } from '../../web/features/telemetry/sharedAttributesApi.ts';

describe('the shared-attribute form’s value text', () => {
  it('reads JSON as its value and anything else as text', () => {
    expect(parseAttributeValue('21.5')).toBe(21.5);
    expect(parseAttributeValue('true')).toBe(true);
    expect(parseAttributeValue('{"a":[1]}')).toEqual({ a: [1] });
    expect(parseAttributeValue('eco mode')).toBe('eco mode');
    expect(parseAttributeValue('null')).toBe('null');
  });

  it('shows a stored value so that saving it unchanged stores the same value', () => {
    for (const value of [21.5, true, { a: [1] }, 'eco mode', '21.5', 'true']) {
      expect(parseAttributeValue(attributeValueText(value))).toEqual(value);
    }
  });
});
