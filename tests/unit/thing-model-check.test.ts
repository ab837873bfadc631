import { describe, expect, it } from 'vitest';
import type { DataType } from '../../server/contract/thing-model.ts';
import type { PublishedModel } from '../../server/modules/thing-model/published-model.ts';
import {
  checkPropertyValue,
  checkPropertyWrite,
  checkServiceInput,
  matchEvent,
} from '../../server/modules/thing-model/thing-model-check.ts';

const int: DataType = { type: 'INT', specs: { min: -10, max: 100, step: 5 } };
const double: DataType = { type: 'DOUBLE', specs: { min: 0, max: 1, step: 0.1, unit: 'm' } };
const text: DataType = { type: 'TEXT', specs: { length: 4 } };
const bool: DataType = { type: 'BOOL', specs: { '0': 'off', '1': 'on' } };
const mode: DataType = { type: 'ENUM', specs: [{ value: 1, description: 'heat' }, { value: 2, description: 'cool' }] };
const position: DataType = {
  type: 'STRUCT',
  specs: [
    { identifier: 'x', functionName: 'x', dataType: { type: 'DOUBLE', specs: { min: -180, max: 180 } } },
    { identifier: 'label', functionName: 'label', dataType: text as Extract<DataType, { type: 'TEXT' }> },
  ],
};

const model: PublishedModel = {
  deviceProfileId: 'p1',
  version: 1,
  publishedTime: 1,
  properties: [
    { identifier: 'level', functionName: 'level', accessMode: 'rw', dataType: int, extensionDesc: null },
    { identifier: 'ratio', functionName: 'ratio', accessMode: 'r', dataType: double, extensionDesc: null },
    { identifier: 'code', functionName: 'code', accessMode: 'r', dataType: text, extensionDesc: null },
    { identifier: 'power', functionName: 'power', accessMode: 'rw', dataType: bool, extensionDesc: null },
    { identifier: 'mode', functionName: 'mode', accessMode: 'rw', dataType: mode, extensionDesc: null },
    { identifier: 'position', functionName: 'position', accessMode: 'r', dataType: position, extensionDesc: null },
  ],
  services: [
    {
      identifier: 'setLevel',
      functionName: 'set level',
      callType: 'SYNC',
      inputData: [{ identifier: 'level', functionName: 'level', dataType: int }, { identifier: 'mode', functionName: 'mode', dataType: mode }],
      outputData: [],
    },
    { identifier: 'reboot', functionName: 'reboot', callType: 'ASYNC', inputData: [], outputData: [] },
  ],
  events: [
    { identifier: 'overheat', functionName: 'overheat', eventType: 'ALERT', outputData: [{ identifier: 'temp', functionName: 'temp', dataType: int }] },
    { identifier: 'boot', functionName: 'boot', eventType: 'INFO', outputData: [] },
  ],
};

const check = (key: string, value: unknown): ReturnType<typeof checkPropertyValue> => checkPropertyValue(model, key, value);

describe('property values against the published model', () => {
  it('accepts an integer within range on the step', () => {
    expect(check('level', -10)).toEqual({ ok: true });
    expect(check('level', 100)).toEqual({ ok: true });
    expect(check('level', 35)).toEqual({ ok: true });
  });

  it('refuses values outside the range, naming the bound', () => {
    expect(check('level', -15)).toMatchObject({ ok: false, code: 'outOfRange', path: 'level', reason: 'level: -15 is below the minimum -10' });
    expect(check('level', 105)).toMatchObject({ ok: false, code: 'outOfRange', reason: 'level: 105 is above the maximum 100' });
  });

  it('refuses a value off the step counted from the minimum', () => {
    expect(check('level', 36)).toMatchObject({ ok: false, code: 'stepMismatch', path: 'level' });
    expect(check('level', 0)).toEqual({ ok: true });
  });

  it('checks the step of a DOUBLE with a tolerance for binary fractions', () => {
    expect(check('ratio', 0.1 + 0.2)).toEqual({ ok: true });
    expect(check('ratio', 0.35)).toMatchObject({ ok: false, code: 'stepMismatch' });
  });

  it('refuses the wrong JSON type: text for a number, a fraction for an INT', () => {
    expect(check('level', '35')).toMatchObject({ ok: false, code: 'wrongType', reason: 'level: "35" is not an integer' });
    expect(check('level', 35.5)).toMatchObject({ ok: false, code: 'wrongType' });
    expect(check('ratio', 'x')).toMatchObject({ ok: false, code: 'wrongType', reason: 'ratio: "x" is not a number' });
    expect(check('code', 12)).toMatchObject({ ok: false, code: 'wrongType' });
  });

  it('accepts true, false, 0 and 1 for a BOOL and nothing else', () => {
    for (const value of [true, false, 0, 1]) expect(check('power', value)).toEqual({ ok: true });
    for (const value of [2, 'true', '1', null]) expect(check('power', value)).toMatchObject({ ok: false, code: 'wrongType' });
  });

  it('refuses text longer than its length, counting characters rather than bytes', () => {
    expect(check('code', '温度计量')).toEqual({ ok: true });
    expect(check('code', 'abcde')).toMatchObject({ ok: false, code: 'textTooLong', reason: 'code: 5 characters, more than 4' });
  });

  it('accepts only the listed enum values', () => {
    expect(check('mode', 2)).toEqual({ ok: true });
    expect(check('mode', 3)).toMatchObject({ ok: false, code: 'notEnumMember', reason: 'mode: 3 is not one of 1, 2' });
    expect(check('mode', 'heat')).toMatchObject({ ok: false, code: 'wrongType' });
  });

  it('checks struct members by their own types, with none missing and none unknown', () => {
    expect(check('position', { x: 12.5, label: 'A1' })).toEqual({ ok: true });
    expect(check('position', { x: 200, label: 'A1' })).toMatchObject({ ok: false, code: 'outOfRange', path: 'position.x' });
    expect(check('position', { x: 1 })).toMatchObject({ ok: false, code: 'missingMember', path: 'position.label' });
    expect(check('position', { x: 1, label: 'A', y: 2 })).toMatchObject({ ok: false, code: 'unknownMember', path: 'position.y' });
    expect(check('position', [1, 2])).toMatchObject({ ok: false, code: 'wrongType', path: 'position' });
  });

  it('flags a key the model does not have', () => {
    expect(check('humidity', 40)).toMatchObject({ ok: false, code: 'unknownIdentifier', path: 'humidity' });
  });

  it('refuses to write a read-only property and checks a writable one', () => {
    expect(checkPropertyWrite(model, 'ratio', 0.5)).toMatchObject({ ok: false, code: 'readOnly', path: 'ratio' });
    expect(checkPropertyWrite(model, 'level', 50)).toEqual({ ok: true });
    expect(checkPropertyWrite(model, 'level', 500)).toMatchObject({ ok: false, code: 'outOfRange' });
  });
});

describe('service input', () => {
  it('accepts every input parameter with a fitting value and answers the service', () => {
    const result = checkServiceInput(model, 'setLevel', { level: 20, mode: 1 });
    expect(result).toMatchObject({ ok: true, service: { identifier: 'setLevel', callType: 'SYNC' } });
  });

  it('refuses a missing, unknown or misfit parameter, naming it', () => {
    expect(checkServiceInput(model, 'setLevel', { level: 20 })).toMatchObject({ ok: false, code: 'missingMember', path: 'mode' });
    expect(checkServiceInput(model, 'setLevel', { level: 20, mode: 1, speed: 3 })).toMatchObject({ ok: false, code: 'unknownMember', path: 'speed' });
    expect(checkServiceInput(model, 'setLevel', { level: 200, mode: 1 })).toMatchObject({
      ok: false,
      code: 'outOfRange',
      path: 'level',
      service: { identifier: 'setLevel' },
    });
    expect(checkServiceInput(model, 'setLevel', 'level=2')).toMatchObject({ ok: false, code: 'wrongType' });
  });

  it('calls a service without inputs with no parameters at all', () => {
    expect(checkServiceInput(model, 'reboot', undefined)).toMatchObject({ ok: true });
    expect(checkServiceInput(model, 'reboot', {})).toMatchObject({ ok: true });
    expect(checkServiceInput(model, 'reboot', { now: true })).toMatchObject({ ok: false, code: 'unknownMember' });
  });

  it('refuses a service the model does not have', () => {
    expect(checkServiceInput(model, 'selfDestruct', {})).toMatchObject({ ok: false, code: 'unknownIdentifier', path: 'selfDestruct' });
  });
});

describe('event matching', () => {
  it('matches a reported event to the model event with its name and type', () => {
    expect(matchEvent(model, 'overheat', { temp: 90 })).toEqual({ ok: true, event: model.events[0] });
    expect(matchEvent(model, 'boot', undefined)).toMatchObject({ ok: true, event: { eventType: 'INFO' } });
  });

  it('keeps the matched event when its parameters do not fit', () => {
    expect(matchEvent(model, 'overheat', { temp: 'hot' })).toMatchObject({
      ok: false,
      code: 'wrongType',
      path: 'temp',
      event: { identifier: 'overheat', eventType: 'ALERT' },
    });
    expect(matchEvent(model, 'overheat', {})).toMatchObject({ ok: false, code: 'missingMember', path: 'temp' });
  });

  it('does not match an identifier the model lacks', () => {
    const result = matchEvent(model, 'flood', { level: 1 });
    expect(result).toMatchObject({ ok: false, code: 'unknownIdentifier' });
    expect('event' in result).toBe(false);
  });
});
