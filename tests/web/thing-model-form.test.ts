import { describe, expect, it } from 'vitest';
import type { ThingModelItem } from '../../server/contract/thing-model.ts';
import { checkItem, type ProductFacts } from '../../server/modules/thing-model/item-rules.ts';
import {
  emptyDataType,
  emptyItem,
  emptyModbus,
  formFieldOf,
  itemBody,
  itemValues,
  modbusBody,
  type ItemValues,
  type ParamValues,
} from '../../web/features/thing-model/thingModelForm.ts';

const mqtt: ProductFacts = { transportType: 'MQTT', tcpProtocolType: null };
const modbus: ProductFacts = { transportType: 'TCP', tcpProtocolType: 'MODBUS_RTU' };
const PRODUCT = 'p-1';

function property(dataType: ItemValues['dataType'], extra: Partial<ItemValues> = {}): ItemValues {
  return { ...emptyItem('properties'), functionName: '温度', identifier: 'temperature', dataType, ...extra };
}

function boolParam(identifier: string, close = '关', open = '开'): ParamValues {
  return { functionName: '开关', identifier, dataType: { ...emptyDataType('BOOL'), boolClose: close, boolOpen: open } };
}

/** The server's verdict on what the form sends. */
function serverCheck(values: ItemValues, product = mqtt): ReturnType<typeof checkItem> {
  return checkItem(itemBody(values, PRODUCT, product === modbus), product);
}

/** Where the form shows each of the server's refusals. */
function refusedFields(values: ItemValues, product = mqtt): { field: string | null; key: string }[] {
  const verdict = serverCheck(values, product);
  if (verdict.ok) throw new Error('the server accepted the values');
  return verdict.violations.map((v) => ({ field: formFieldOf(`body.${v.field}`, values), key: v.key }));
}

function asItem(values: ItemValues, product = mqtt): ThingModelItem {
  const verdict = serverCheck(values, product);
  if (!verdict.ok) throw new Error(JSON.stringify(verdict.violations));
  const draft = verdict.draft;
  return { id: 'i-1', deviceProfileId: PRODUCT, ...draft, status: 'DRAFT', createdTime: 1, updatedTime: 1 };
}

describe('thing-model drawer values and the server', () => {
  it('sends a DOUBLE property with range, step and unit that the server stores as typed', () => {
    const values = property({ ...emptyDataType('DOUBLE'), min: -40, max: 125, step: 0.1, unit: ' °C ', unitName: '摄氏度' });
    const verdict = serverCheck(values);
    expect(verdict.ok).toBe(true);
    if (verdict.ok) {
      expect(verdict.draft.functionJson.dataType).toEqual({ type: 'DOUBLE', specs: { min: -40, max: 125, step: 0.1, unit: '°C', unitName: '摄氏度' } });
    }
  });

  it('sends a service with a BOOL input and a STRUCT output that the server accepts', () => {
    const values: ItemValues = {
      ...emptyItem('services'),
      functionName: '设置开关',
      identifier: 'setSwitch',
      callType: 'SYNC',
      inputData: [boolParam('on')],
      outputData: [
        {
          functionName: '结果',
          identifier: 'result',
          dataType: { ...emptyDataType('STRUCT'), members: [boolParam('ok', '否', '是'), { functionName: '说明', identifier: 'note', dataType: { ...emptyDataType('TEXT'), length: 64 } }] },
        },
      ],
    };
    const verdict = serverCheck(values);
    expect(verdict.ok).toBe(true);
    if (verdict.ok) expect(verdict.draft.functionJson.inputData).toEqual([{ identifier: 'on', functionName: '开关', dataType: { type: 'BOOL', specs: { '0': '关', '1': '开' } } }]);
  });

  it('reads a stored item back into the same values, so an unchanged edit sends the same item', () => {
    const values = property({ ...emptyDataType('ENUM'), enumItems: [{ value: 0, description: '低速' }, { value: 1, description: '高速' }] }, { accessMode: 'rw' });
    const item = asItem(values);
    const again = itemBody(itemValues(item), PRODUCT, false);
    expect(again).toEqual(itemBody(values, PRODUCT, false));
    expect(again.functionJson.dataType).toEqual(item.functionJson.dataType);
  });

  it('sends a Modbus descriptor with hex address and mask, which the server resolves to numbers', () => {
    const values = property(
      { ...emptyDataType('BOOL'), boolClose: '停', boolOpen: '运行' },
      {
        modbusEnabled: true,
        modbus: { ...emptyModbus(), operationType: 'HOLDING_REGISTER_READ', registerAddress: '1A2b', originalDataType: 'BITS', bitMode: 'mask', bitMask: '0010', valueMapping: [{ raw: '1', text: '运行' }] },
      },
    );
    const item = asItem(values, modbus);
    expect(item.extensionDesc).toEqual({
      operationType: 'HOLDING_REGISTER_READ',
      registerAddress: 0x1a2b,
      originalDataType: 'BITS',
      scaleFactor: 1,
      bitMask: 0x10,
      registerCount: 1,
      valueMapping: { '1': '运行' },
    });
    expect(itemValues(item).modbus).toMatchObject({ registerAddress: '1A2B', bitMode: 'mask', bitMask: '10' });
  });

  it('leaves the descriptor out for products that are not Modbus and clears it when switched off', () => {
    const values = property({ ...emptyDataType('INT'), min: 0, max: 10 }, { modbusEnabled: true });
    expect(itemBody(values, PRODUCT, false)).not.toHaveProperty('extensionDesc');
    expect(itemBody({ ...values, modbusEnabled: false }, PRODUCT, true).extensionDesc).toBeNull();
  });
});

describe('server refusals land on the field the user typed in', () => {
  it('puts a maximum below the minimum and a step wider than the range on those inputs', () => {
    const values = property({ ...emptyDataType('INT'), min: 10, max: 5 });
    expect(refusedFields(values)).toEqual([{ field: 'dataType.max', key: 'error.thingModel.number.maxBelowMin' }]);
    const step = property({ ...emptyDataType('DOUBLE'), min: 0, max: 1, step: 2 });
    expect(refusedFields(step)).toEqual([{ field: 'dataType.step', key: 'error.thingModel.number.stepExceedsRange' }]);
  });

  it('puts equal BOOL names on the open name, and a repeated enum value on its own row', () => {
    expect(refusedFields(property({ ...emptyDataType('BOOL'), boolClose: '开', boolOpen: '开' }))).toEqual([
      { field: 'dataType.boolOpen', key: 'error.thingModel.bool.namesEqual' },
    ]);
    const enumValues = property({ ...emptyDataType('ENUM'), enumItems: [{ value: 1, description: 'a' }, { value: 1, description: 'b' }] });
    expect(refusedFields(enumValues)).toEqual([{ field: 'dataType.enumItems[1].value', key: 'error.thingModel.enum.valueDuplicate' }]);
  });

  it('finds a broken name deep in a service parameter that is a struct', () => {
    const values: ItemValues = {
      ...emptyItem('services'),
      functionName: '设置',
      identifier: 'set',
      inputData: [
        {
          functionName: '配置',
          identifier: 'config',
          dataType: { ...emptyDataType('STRUCT'), members: [boolParam('a'), boolParam('b', '同', '同')] },
        },
        boolParam('bad id!'),
      ],
    };
    expect(refusedFields(values)).toEqual([
      { field: 'inputData[0].dataType.members[1].dataType.boolOpen', key: 'error.thingModel.bool.namesEqual' },
      { field: 'inputData[1].identifier', key: 'error.thingModel.identifier' },
    ]);
  });

  it('puts Modbus refusals on the descriptor inputs, a value mapping on its row', () => {
    const values = property(
      { ...emptyDataType('INT'), min: 0, max: 100 },
      {
        modbusEnabled: true,
        modbus: { ...emptyModbus(), originalDataType: 'INT32_ABCD', registerCount: 1, scaleFactor: 0, valueMapping: [{ raw: 'x', text: 'bad' }] },
      },
    );
    expect(refusedFields(values, modbus)).toEqual([
      { field: 'modbus.scaleFactor', key: 'error.thingModel.modbus.scaleFactor' },
      { field: 'modbus.registerCount', key: 'error.thingModel.modbus.registerCountTooSmall' },
      { field: 'modbus.valueMapping[0].raw', key: 'error.thingModel.modbus.valueMapping' },
    ]);
  });

  it('names no field for what the form does not have', () => {
    expect(formFieldOf('body.deviceProfileId', emptyItem())).toBeNull();
    expect(formFieldOf('body.functionJson', emptyItem())).toBeNull();
  });
});

describe('the Modbus descriptor the drawer sends', () => {
  it('sends a descriptor whose value-mapping list the form left out (no row ever added)', () => {
    const { valueMapping: _untouched, ...modbus } = { ...emptyModbus(), registerAddress: '10', originalDataType: 'UINT16_AB' as const, scaleFactor: 0.1 };
    expect(modbusBody(modbus as Parameters<typeof modbusBody>[0])).toEqual({
      operationType: 'HOLDING_REGISTER_READ',
      registerAddress: '0x10',
      originalDataType: 'UINT16_AB',
      scaleFactor: 0.1,
    });
  });
});
