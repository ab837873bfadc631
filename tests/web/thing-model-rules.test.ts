import { describe, expect, it } from 'vitest';
import { checkItem, checkItemOutline, type ProductFacts } from '../../server/modules/thing-model/item-rules.ts';
import { emptyDataType, emptyItem, emptyModbus, itemBody, type DataTypeValues, type ModbusValues } from '../../web/features/thing-model/thingModelForm.ts';
import {
  operationProblem,
  originalDataTypeProblem,
  registerCountProblem,
  scaleFactorProblem,
} from '../../server/contract/rules/modbus.ts';
import type { Problem } from '../../server/contract/rules/problem.ts';
import {
  boolOpenProblem,
  duplicateParamProblem,
  enumDescriptionProblem,
  enumItemsProblem,
  enumValueProblem,
  functionNameProblem,
  identifierProblem,
  maxProblem,
  numberProblem,
  stepProblem,
  textLengthProblem,
} from '../../server/contract/rules/thing-model.ts';
import {
  bitMaskFieldProblem,
  bitPositionFieldProblem,
  registerAddressFieldProblem,
  valueMappingRawFieldProblem,
} from '../../web/features/thing-model/modbusFieldRules.ts';

const modbusProduct: ProductFacts = { transportType: 'TCP', tcpProtocolType: 'MODBUS_RTU' };

/**
 * The server's first refusal key of a property with this data type, or null:
 * the route's schema first (as a request meets it), then the item rules.
 */
function serverKey(dataType: DataTypeValues, extra: { modbus?: Partial<ModbusValues>; accessMode?: 'r' | 'rw'; identifier?: string; functionName?: string } = {}): string | null {
  const values = {
    ...emptyItem('properties'),
    functionName: extra.functionName ?? '温度',
    identifier: extra.identifier ?? 'temperature',
    accessMode: extra.accessMode ?? 'r',
    dataType,
    modbusEnabled: extra.modbus !== undefined,
    modbus: { ...emptyModbus(), ...extra.modbus },
  };
  const outline = checkItemOutline(itemBody(values, 'p', true), '');
  const verdict = outline.ok ? checkItem(outline.body, modbusProduct) : outline;
  return verdict.ok ? null : verdict.violations[0]!.key;
}

const key = (p: Problem | null): string | null => p?.key ?? null;

describe('thing-model form checks refuse what the server refuses', () => {
  it('agrees on function names and identifiers, including the reserved TCP identifier', () => {
    for (const name of ['温度-1_a', 'a b', 'x'.repeat(31), '温度!']) {
      expect(key(functionNameProblem(name))).toBe(serverKey({ ...emptyDataType('TEXT'), length: 8 }, { functionName: name }));
    }
    for (const id of ['temp_1', 'temp-1', 'x'.repeat(33), 'source']) {
      expect(key(identifierProblem(id, true))).toBe(serverKey({ ...emptyDataType('TEXT'), length: 8 }, { identifier: id }));
    }
  });

  it('agrees on integer and decimal ranges and steps', () => {
    const cases: [DataTypeValues['type'], number, number, number | undefined][] = [
      ['INT', 0, 100, 1],
      ['INT', 0, 2147483648, undefined],
      ['INT', 0, 1.5, undefined],
      ['INT', 10, 5, undefined],
      ['DOUBLE', 0, 1, 0.1],
      ['DOUBLE', 0, 1, 2],
      ['DOUBLE', 0, 1, -1],
    ];
    for (const [type, min, max, step] of cases) {
      const integer = type === 'INT';
      const client = numberProblem(min, integer, true) ?? maxProblem(max, min, integer) ?? stepProblem(step, min, max, integer);
      expect([type, min, max, step, key(client)]).toEqual([type, min, max, step, serverKey({ ...emptyDataType(type), min, max, step })]);
    }
  });

  it('agrees on text lengths, BOOL names and enum items', () => {
    for (const length of [1, 10240, 0, 10241]) {
      expect(key(textLengthProblem(length))).toBe(serverKey({ ...emptyDataType('TEXT'), length }));
    }
    expect(key(boolOpenProblem('开', '开'))).toBe(serverKey({ ...emptyDataType('BOOL'), boolClose: '开', boolOpen: '开' }));
    expect(key(boolOpenProblem('x'.repeat(21), '关'))).toBe(serverKey({ ...emptyDataType('BOOL'), boolClose: '关', boolOpen: 'x'.repeat(21) }));
    const rows = [
      { value: 1, description: '一' },
      { value: 1, description: '二' },
    ];
    expect(key(enumValueProblem(1, 1, rows))).toBe(serverKey({ ...emptyDataType('ENUM'), enumItems: rows }));
    const badStart = [{ value: 1, description: '_x' }];
    expect(key(enumDescriptionProblem('_x', 0, badStart))).toBe(serverKey({ ...emptyDataType('ENUM'), enumItems: badStart }));
    const many = Array.from({ length: 101 }, (_, i) => ({ value: i, description: `v${i}` }));
    expect(key(enumItemsProblem(many))).toBe(serverKey({ ...emptyDataType('ENUM'), enumItems: many }));
    expect(key(enumItemsProblem(many.slice(0, 100)))).toBeNull();
  });

  it('agrees on the Modbus descriptor rules', () => {
    const int = { ...emptyDataType('INT'), min: 0, max: 10 };
    const cases: [Partial<ModbusValues>, Problem | null][] = [
      [{ registerAddress: '10000' }, registerAddressFieldProblem('10000')],
      [{ registerAddress: 'FFFF' }, registerAddressFieldProblem('FFFF')],
      [{ operationType: 'COIL_READ', originalDataType: 'INT16_AB' }, originalDataTypeProblem('INT16_AB', 'COIL_READ')],
      [{ operationType: 'HOLDING_REGISTER_WRITE' }, operationProblem('HOLDING_REGISTER_WRITE', 'r')],
      [{ scaleFactor: 0 }, scaleFactorProblem(0)],
      [{ originalDataType: 'BITS', bitMode: 'position', bitPosition: 16 }, bitPositionFieldProblem(16)],
      [{ originalDataType: 'BITS', bitMode: 'mask', bitMask: '0' }, bitMaskFieldProblem('0')],
      [{ originalDataType: 'BITS', bitMode: 'position' }, bitPositionFieldProblem(undefined)],
      [{ registerCount: 126 }, registerCountProblem(126, 'INT16_AB')],
      [{ originalDataType: 'DOUBLE', registerCount: 3 }, registerCountProblem(3, 'DOUBLE')],
      [{ originalDataType: 'STRING' }, registerCountProblem(undefined, 'STRING')],
      [{ valueMapping: [{ raw: '1.5.1', text: 'x' }] }, valueMappingRawFieldProblem('1.5.1', 0, [])],
      [{ registerAddress: '0x10' }, registerAddressFieldProblem('0x10')],
      [{ originalDataType: 'BITS', bitMode: 'mask', bitMask: '0x1' }, bitMaskFieldProblem('0x1')],
    ];
    for (const [modbus, client] of cases) {
      expect([modbus, key(client)]).toEqual([modbus, serverKey(int, { modbus })]);
    }
  });

  it('compares bounds and counts duplicates only among values the server accepts', () => {
    // An INT minimum of 1.5 is refused on its own; the maximum is not compared with it.
    expect(maxProblem(1, 1.5, true)).toBeNull();
    // An earlier enum item whose description does not read is not kept, so it repeats nothing.
    const rows = [
      { value: 1, description: '' },
      { value: 1, description: '二' },
    ];
    const values = { ...emptyItem('properties'), functionName: '温度', identifier: 'mode', dataType: { ...emptyDataType('ENUM'), enumItems: rows } };
    const outline = checkItemOutline(itemBody(values, 'p', false), '');
    const verdict = outline.ok ? checkItem(outline.body, modbusProduct) : outline;
    expect(verdict.ok ? [] : verdict.violations.map((v) => v.key)).toEqual(['error.thingModel.enum.description']);
    expect(enumValueProblem(1, 1, rows)).toBeNull();
  });

  it('names the minimum register count the data type needs', () => {
    expect(registerCountProblem(1, 'FLOAT_ABCD')).toEqual({ key: 'error.thingModel.modbus.registerCountTooSmall', params: { min: 2 } });
    expect(registerCountProblem(undefined, 'FLOAT_ABCD')).toBeNull();
  });

  it('marks the later of two parameters with one identifier, as the server does', () => {
    expect(duplicateParamProblem('on', 0, ['on', 'on'])).toBeNull();
    expect(duplicateParamProblem('on', 1, ['on', 'on'])).toEqual({ key: 'error.thingModel.paramDuplicate' });
  });
});
