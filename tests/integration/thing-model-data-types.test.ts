import { describe, expect, it } from 'vitest';
import {
  ENUM_ITEMS_MAX,
  PARAMS_MAX,
  TEXT_LENGTH_MAX,
  type DataType,
} from '../../server/contract/thing-model.ts';
import {
  eventBody,
  expectRefused,
  intType,
  makeThingModelApp,
  param,
  propertyOf,
  serviceBody,
  type ThingModelApi,
} from '../helpers/thing-model.ts';

const SPECS = 'body.functionJson.dataType.specs';

async function setup(): Promise<{ api: ThingModelApi; id: string }> {
  const { api } = await makeThingModelApp();
  return { api, id: (await api.createProduct()).id };
}

const enumOf = (items: unknown[]): unknown => ({ type: 'ENUM', specs: items });
const boolOf = (close: unknown, open: unknown): unknown => ({ type: 'BOOL', specs: { 0: close, 1: open } });

describe('thing-model data types', () => {
  describe('INT and DOUBLE', () => {
    it('requires a minimum and a maximum', async () => {
      const { api, id } = await setup();
      expectRefused(await api.refuse(propertyOf(id, { type: 'INT', specs: { max: 10 } })), 'error.field.required', `${SPECS}.min`);
      expectRefused(await api.refuse(propertyOf(id, { type: 'DOUBLE', specs: { min: 0, max: '' } })), 'error.field.required', `${SPECS}.max`);
      expectRefused(await api.refuse(propertyOf(id, { type: 'INT' })), 'error.field.required', SPECS);
    });

    it('refuses INT bounds and steps that are not int32 integers', async () => {
      const { api, id } = await setup();
      expectRefused(await api.refuse(propertyOf(id, intType({ min: 0.5 }))), 'error.thingModel.number.int32', `${SPECS}.min`);
      expectRefused(await api.refuse(propertyOf(id, intType({ max: 2147483648 }))), 'error.thingModel.number.int32', `${SPECS}.max`);
      expectRefused(await api.refuse(propertyOf(id, intType({ min: -2147483649 }))), 'error.thingModel.number.int32', `${SPECS}.min`);
      expectRefused(await api.refuse(propertyOf(id, intType({ step: 1.5 }))), 'error.thingModel.number.int32', `${SPECS}.step`);
      const widest = await api.createItem(propertyOf(id, intType({ min: -2147483648, max: 2147483647, step: 1 })));
      expect(widest.functionJson.dataType).toMatchObject({ specs: { min: -2147483648, max: 2147483647 } });
    });

    it('takes fractions for DOUBLE but refuses what is not a number', async () => {
      const { api, id } = await setup();
      await api.createItem(propertyOf(id, { type: 'DOUBLE', specs: { min: -0.5, max: 0.5, step: 0.01 } }));
      expectRefused(await api.refuse(propertyOf(id, { type: 'DOUBLE', specs: { min: 'abc', max: 1 } })), 'error.thingModel.number.invalid', `${SPECS}.min`);
      expectRefused(await api.refuse(propertyOf(id, { type: 'DOUBLE', specs: { min: 0, max: true } })), 'error.thingModel.number.invalid', `${SPECS}.max`);
    });

    it('refuses a maximum below the minimum and accepts them equal', async () => {
      const { api, id } = await setup();
      expectRefused(await api.refuse(propertyOf(id, intType({ min: 10, max: 9, step: undefined }))), 'error.thingModel.number.maxBelowMin', `${SPECS}.max`);
      await api.createItem(propertyOf(id, intType({ min: 5, max: 5, step: undefined })));
    });

    it('refuses a step that is not positive or exceeds the range difference', async () => {
      const { api, id } = await setup();
      expectRefused(await api.refuse(propertyOf(id, intType({ step: 0 }))), 'error.thingModel.number.stepPositive', `${SPECS}.step`);
      expectRefused(await api.refuse(propertyOf(id, intType({ step: -1 }))), 'error.thingModel.number.stepPositive', `${SPECS}.step`);
      expectRefused(await api.refuse(propertyOf(id, intType({ min: 0, max: 10, step: 11 }))), 'error.thingModel.number.stepExceedsRange', `${SPECS}.step`);
      await api.createItem(propertyOf(id, intType({ min: 0, max: 10, step: 10 })));
      const noStep = await api.createItem(propertyOf(id, intType({ step: undefined })));
      expect(noStep.functionJson.dataType?.specs).not.toHaveProperty('step');
    });

    it('refuses a unit or unit name over 32 characters', async () => {
      const { api, id } = await setup();
      expectRefused(await api.refuse(propertyOf(id, intType({ unit: 'u'.repeat(33) }))), 'error.thingModel.unit', `${SPECS}.unit`);
      expectRefused(await api.refuse(propertyOf(id, intType({ unitName: 7 }))), 'error.thingModel.unit', `${SPECS}.unitName`);
    });

    it('refuses specs that are not an object', async () => {
      const { api, id } = await setup();
      expectRefused(await api.refuse(propertyOf(id, { type: 'INT', specs: [0, 10] })), 'error.thingModel.specs', SPECS);
    });
  });

  describe('TEXT', () => {
    it('takes a data length from 1 to 10240', async () => {
      const { api, id } = await setup();
      await api.createItem(propertyOf(id, { type: 'TEXT', specs: { length: 1 } }));
      await api.createItem(propertyOf(id, { type: 'TEXT', specs: { length: TEXT_LENGTH_MAX } }));
      for (const length of [0, TEXT_LENGTH_MAX + 1, 2.5, 'long']) {
        expectRefused(await api.refuse(propertyOf(id, { type: 'TEXT', specs: { length } })), 'error.thingModel.text.length', `${SPECS}.length`);
      }
      expectRefused(await api.refuse(propertyOf(id, { type: 'TEXT', specs: {} })), 'error.field.required', `${SPECS}.length`);
    });
  });

  describe('BOOL', () => {
    it('stores the close and open names as specs 0 and 1', async () => {
      const { api, id } = await setup();
      const item = await api.createItem(propertyOf(id, boolOf(' 关 ', '开')));
      expect(item.functionJson.dataType).toEqual({ type: 'BOOL', specs: { '0': '关', '1': '开' } });
    });

    it('refuses an empty, missing or overlong name', async () => {
      const { api, id } = await setup();
      expectRefused(await api.refuse(propertyOf(id, boolOf('', 'on'))), 'error.thingModel.bool.name', `${SPECS}.0`);
      expectRefused(await api.refuse(propertyOf(id, boolOf('off', '   '))), 'error.thingModel.bool.name', `${SPECS}.1`);
      expectRefused(await api.refuse(propertyOf(id, { type: 'BOOL', specs: { 0: 'off' } })), 'error.thingModel.bool.name', `${SPECS}.1`);
      expectRefused(await api.refuse(propertyOf(id, boolOf('off', 'x'.repeat(21)))), 'error.thingModel.bool.name', `${SPECS}.1`);
    });

    it('refuses the same name for both values', async () => {
      const { api, id } = await setup();
      expectRefused(await api.refuse(propertyOf(id, boolOf('on', ' on'))), 'error.thingModel.bool.namesEqual', `${SPECS}.1`);
    });
  });

  describe('ENUM', () => {
    const items = (n: number): { value: number; description: string }[] =>
      Array.from({ length: n }, (_, i) => ({ value: i, description: `mode${i}` }));

    it('takes 1 to 100 items of an int32 value and a description', async () => {
      const { api, id } = await setup();
      const one = await api.createItem(propertyOf(id, enumOf([{ value: '-3', description: ' 制冷 ' }])));
      expect(one.functionJson.dataType).toEqual({ type: 'ENUM', specs: [{ value: -3, description: '制冷' }] });
      await api.createItem(propertyOf(id, enumOf(items(ENUM_ITEMS_MAX))));
      expectRefused(await api.refuse(propertyOf(id, enumOf(items(ENUM_ITEMS_MAX + 1)))), 'error.thingModel.enum.items', SPECS);
      expectRefused(await api.refuse(propertyOf(id, enumOf([]))), 'error.thingModel.enum.items', SPECS);
      expectRefused(await api.refuse(propertyOf(id, { type: 'ENUM', specs: { 1: 'a' } })), 'error.thingModel.enum.items', SPECS);
    });

    it('refuses a reference value that is not an int32 integer', async () => {
      const { api, id } = await setup();
      for (const value of [1.5, 2147483648, 'one', null]) {
        expectRefused(await api.refuse(propertyOf(id, enumOf([{ value, description: 'a' }]))), 'error.thingModel.enum.value', `${SPECS}.0.value`);
      }
    });

    it('refuses a description that is empty, over 20 characters or starts with another character', async () => {
      const { api, id } = await setup();
      await api.createItem(propertyOf(id, enumOf([{ value: 1, description: '9号-mode_(a)' }])));
      for (const description of ['', 'x'.repeat(21), '-cold', '_hot', '(a)']) {
        expectRefused(await api.refuse(propertyOf(id, enumOf([{ value: 1, description }]))), 'error.thingModel.enum.description', `${SPECS}.0.description`);
      }
    });

    it('refuses a repeated value or description, naming the repeat', async () => {
      const { api, id } = await setup();
      const values = enumOf([{ value: 1, description: 'a' }, { value: 2, description: 'b' }, { value: 1, description: 'c' }]);
      expectRefused(await api.refuse(propertyOf(id, values)), 'error.thingModel.enum.valueDuplicate', `${SPECS}.2.value`);
      const descriptions = enumOf([{ value: 1, description: 'a' }, { value: 2, description: 'a' }]);
      expectRefused(await api.refuse(propertyOf(id, descriptions)), 'error.thingModel.enum.descriptionDuplicate', `${SPECS}.1.description`);
    });
  });

  describe('STRUCT', () => {
    it('stores its members with their own data types', async () => {
      const { api, id } = await setup();
      const specs = [param('x', { type: 'DOUBLE', specs: { min: -180, max: 180 } }, '经度'), param('on', boolOf('off', 'on') as DataType)];
      const item = await api.createItem(propertyOf(id, { type: 'STRUCT', specs }));
      expect(item.functionJson.dataType).toEqual({ type: 'STRUCT', specs });
    });

    it('needs at least one member', async () => {
      const { api, id } = await setup();
      expectRefused(await api.refuse(propertyOf(id, { type: 'STRUCT', specs: [] })), 'error.thingModel.struct.members', SPECS);
    });

    it('refuses a struct inside a struct', async () => {
      const { api, id } = await setup();
      const inner = { type: 'STRUCT', specs: [param('a')] };
      const res = await api.refuse(propertyOf(id, { type: 'STRUCT', specs: [param('ok'), { identifier: 'inner', functionName: 'inner', dataType: inner }] }));
      expectRefused(res, 'error.thingModel.struct.nested', `${SPECS}.1.dataType.type`);
    });

    it("checks each member's name, identifier and data type, and refuses repeated identifiers", async () => {
      const { api, id } = await setup();
      const struct = (member: unknown): unknown => ({ type: 'STRUCT', specs: [param('ok'), member] });
      expectRefused(await api.refuse(propertyOf(id, struct({ ...param('b'), identifier: 'b-1' }))), 'error.thingModel.identifier', `${SPECS}.1.identifier`);
      expectRefused(await api.refuse(propertyOf(id, struct({ ...param('b'), functionName: 'b c' }))), 'error.thingModel.functionName', `${SPECS}.1.functionName`);
      expectRefused(await api.refuse(propertyOf(id, struct(param('b', intType({ min: 5, max: 1, step: undefined }))))), 'error.thingModel.number.maxBelowMin', `${SPECS}.1.dataType.specs.max`);
      expectRefused(await api.refuse(propertyOf(id, struct({ identifier: 'b', functionName: 'b' }))), 'error.field.required', `${SPECS}.1.dataType`);
      expectRefused(await api.refuse(propertyOf(id, struct(param('ok')))), 'error.thingModel.paramDuplicate', `${SPECS}.1.identifier`);
    });
  });

  it('refuses an unknown data type', async () => {
    const { api, id } = await setup();
    expectRefused(await api.refuse(propertyOf(id, { type: 'FLOAT', specs: {} })), 'error.field.choice', 'body.functionJson.dataType.type');
  });

  describe('service and event parameters', () => {
    it('checks every input and output parameter of a service under its own path', async () => {
      const { api, id } = await setup();
      const bad = serviceBody(id, { functionJson: { inputData: [param('a'), param('b', intType({ step: 0 }))], outputData: [] } });
      expectRefused(await api.refuse(bad), 'error.thingModel.number.stepPositive', 'body.functionJson.inputData.1.dataType.specs.step');
      const output = serviceBody(id, { functionJson: { outputData: [{ ...param('r'), functionName: '' }] } });
      expectRefused(await api.refuse(output), 'error.thingModel.functionName', 'body.functionJson.outputData.0.functionName');
    });

    it('refuses repeated parameter identifiers within a list but not across input and output', async () => {
      const { api, id } = await setup();
      const repeated = serviceBody(id, { functionJson: { inputData: [param('a'), param('a')] } });
      expectRefused(await api.refuse(repeated), 'error.thingModel.paramDuplicate', 'body.functionJson.inputData.1.identifier');
      await api.createItem(serviceBody(id, { functionJson: { inputData: [param('a')], outputData: [param('a')] } }));
    });

    it('refuses more than 100 parameters, or parameters that are not a list', async () => {
      const { api, id } = await setup();
      const many = Array.from({ length: PARAMS_MAX + 1 }, (_, i) => param(`p${i}`));
      expectRefused(await api.refuse(eventBody(id, { functionJson: { outputData: many } })), 'error.thingModel.params', 'body.functionJson.outputData');
      await api.createItem(eventBody(id, { functionJson: { outputData: many.slice(0, PARAMS_MAX) } }));
      expectRefused(await api.refuse(eventBody(id, { functionJson: { outputData: { a: 1 } } })), 'error.thingModel.params', 'body.functionJson.outputData');
    });

    it('takes a STRUCT parameter, whose members cannot be structs', async () => {
      const { api, id } = await setup();
      const point = { type: 'STRUCT', specs: [param('x'), param('y')] } as DataType;
      const item = await api.createItem(eventBody(id, { functionJson: { outputData: [param('point', point)] } }));
      expect(item.functionJson.outputData?.[0]?.dataType).toEqual(point);
      const nested = { type: 'STRUCT', specs: [param('inner', point)] };
      const res = await api.refuse(eventBody(id, { functionJson: { outputData: [{ identifier: 'p', functionName: 'p', dataType: nested }] } }));
      expectRefused(res, 'error.thingModel.struct.nested', 'body.functionJson.outputData.0.dataType.specs.0.dataType.type');
    });

    it('refuses a parameter that is not an object', async () => {
      const { api, id } = await setup();
      const res = await api.refuse(serviceBody(id, { functionJson: { inputData: ['threshold'] } }));
      expectRefused(res, 'error.validation', 'body.functionJson.inputData.0');
    });
  });
});
