import { describe, expect, it } from 'vitest';
import { modbusOperationTypes, thingModelRoutes } from '../../server/contract/thing-model.ts';
import { eventBody, expectRefused, makeThingModelApp, propertyBody, type ThingModelApi } from '../helpers/thing-model.ts';

const DESC = 'body.extensionDesc';

/** A Modbus product and a read-only holding-register property builder on it. */
async function setup(): Promise<{ api: ThingModelApi; id: string; withDesc: (desc: Record<string, unknown>, over?: Record<string, unknown>) => ReturnType<typeof propertyBody> }> {
  const { api } = await makeThingModelApp();
  const { id } = await api.createModbusProduct();
  const withDesc = (desc: Record<string, unknown>, over: Record<string, unknown> = {}): ReturnType<typeof propertyBody> =>
    propertyBody(id, {
      extensionDesc: { operationType: 'HOLDING_REGISTER_READ', registerAddress: 0, originalDataType: 'INT16_AB', ...desc },
      ...over,
    });
  return { api, id, withDesc };
}

describe('Modbus extension descriptor', () => {
  it('stores a descriptor with the address given as hex text as a number, and the defaults filled in', async () => {
    const { api, withDesc } = await setup();
    const item = await api.createItem(withDesc({ registerAddress: '0x1A2b', originalDataType: 'FLOAT_CDAB', valueMapping: { '0': ' stopped ', '1': 'running' } }));
    expect(item.extensionDesc).toEqual({
      operationType: 'HOLDING_REGISTER_READ',
      registerAddress: 0x1a2b,
      originalDataType: 'FLOAT_CDAB',
      scaleFactor: 1,
      registerCount: 2,
      valueMapping: { '0': 'stopped', '1': 'running' },
    });
  });

  it('accepts register addresses 0x0 to 0xFFFF as numbers or text and refuses anything past them', async () => {
    const { api, withDesc } = await setup();
    for (const registerAddress of [0, 65535, '0xFFFF', '0x0', '40001']) {
      await api.createItem(withDesc({ registerAddress }));
    }
    for (const registerAddress of [-1, 65536, '0x10000', 'FFFF', '0xG1', 1.5]) {
      expectRefused(await api.refuse(withDesc({ registerAddress })), 'error.thingModel.modbus.registerAddress', `${DESC}.registerAddress`);
    }
  });

  it('offers every operation type listed in the contract and refuses others', async () => {
    const { api, withDesc } = await setup();
    for (const operationType of modbusOperationTypes) {
      const bit = operationType.startsWith('COIL') || operationType.startsWith('DISCRETE');
      const accessMode = operationType.endsWith('_READ') ? 'r' : 'rw';
      await api.createItem(withDesc({ operationType, ...(bit ? { originalDataType: 'BOOLEAN' } : {}) }, { accessMode }));
    }
    expectRefused(await api.refuse(withDesc({ operationType: 'DISCRETE_INPUT_WRITE' })), 'error.field.choice', `${DESC}.operationType`);
    expectRefused(await api.refuse(withDesc({ originalDataType: 'INT64' })), 'error.field.choice', `${DESC}.originalDataType`);
  });

  it('lets coils and discrete inputs hold BOOLEAN only, without a register count', async () => {
    const { api, withDesc } = await setup();
    const coil = await api.createItem(withDesc({ operationType: 'COIL_READ', originalDataType: 'BOOLEAN' }));
    expect(coil.extensionDesc).not.toHaveProperty('registerCount');
    expectRefused(await api.refuse(withDesc({ operationType: 'DISCRETE_INPUT_READ', originalDataType: 'UINT16_AB' })), 'error.thingModel.modbus.coilDataType', `${DESC}.originalDataType`);
    const counted = withDesc({ operationType: 'COIL_READ', originalDataType: 'BOOLEAN', registerCount: 1 });
    expectRefused(await api.refuse(counted), 'error.thingModel.modbus.registerCountRegistersOnly', `${DESC}.registerCount`);
  });

  it('refuses a scale factor of 0 and keeps any other', async () => {
    const { api, withDesc } = await setup();
    expectRefused(await api.refuse(withDesc({ scaleFactor: 0 })), 'error.thingModel.modbus.scaleFactor', `${DESC}.scaleFactor`);
    expectRefused(await api.refuse(withDesc({ scaleFactor: 'ten' })), 'error.thingModel.modbus.scaleFactor', `${DESC}.scaleFactor`);
    const item = await api.createItem(withDesc({ scaleFactor: -0.01 }));
    expect(item.extensionDesc?.scaleFactor).toBe(-0.01);
  });

  it('needs exactly one of a bit position 0-15 or a bit mask for BITS', async () => {
    const { api, withDesc } = await setup();
    const byPosition = await api.createItem(withDesc({ originalDataType: 'BITS', bitPosition: 15 }));
    expect(byPosition.extensionDesc).toMatchObject({ bitPosition: 15, registerCount: 1 });
    const byMask = await api.createItem(withDesc({ originalDataType: 'BITS', bitMask: '0x8000' }));
    expect(byMask.extensionDesc).toMatchObject({ bitMask: 0x8000 });
    expectRefused(await api.refuse(withDesc({ originalDataType: 'BITS' })), 'error.thingModel.modbus.bitChoice', `${DESC}.bitPosition`);
    expectRefused(await api.refuse(withDesc({ originalDataType: 'BITS', bitPosition: 1, bitMask: 2 })), 'error.thingModel.modbus.bitChoice', `${DESC}.bitPosition`);
    expectRefused(await api.refuse(withDesc({ originalDataType: 'BITS', bitPosition: 16 })), 'error.thingModel.modbus.bitPosition', `${DESC}.bitPosition`);
    expectRefused(await api.refuse(withDesc({ originalDataType: 'BITS', bitPosition: -1 })), 'error.thingModel.modbus.bitPosition', `${DESC}.bitPosition`);
    for (const bitMask of [0, '0x10000', 70000]) {
      expectRefused(await api.refuse(withDesc({ originalDataType: 'BITS', bitMask })), 'error.thingModel.modbus.bitMask', `${DESC}.bitMask`);
    }
  });

  it('refuses a bit position or mask on other data types', async () => {
    const { api, withDesc } = await setup();
    expectRefused(await api.refuse(withDesc({ bitPosition: 3 })), 'error.thingModel.modbus.bitsOnly', `${DESC}.bitPosition`);
    expectRefused(await api.refuse(withDesc({ bitMask: 3 })), 'error.thingModel.modbus.bitsOnly', `${DESC}.bitMask`);
  });

  it('takes register counts 1 to 125, at least the width of the data type, and needs one for STRING', async () => {
    const { api, withDesc } = await setup();
    const text = await api.createItem(withDesc({ originalDataType: 'STRING', registerCount: 125 }));
    expect(text.extensionDesc?.registerCount).toBe(125);
    const double = await api.createItem(withDesc({ operationType: 'INPUT_REGISTER_READ', originalDataType: 'DOUBLE' }));
    expect(double.extensionDesc?.registerCount).toBe(4);
    for (const registerCount of [0, 126]) {
      expectRefused(await api.refuse(withDesc({ registerCount })), 'error.thingModel.modbus.registerCount', `${DESC}.registerCount`);
    }
    const narrow = await api.refuse(withDesc({ originalDataType: 'INT32_DCBA', registerCount: 1 }));
    expectRefused(narrow, 'error.thingModel.modbus.registerCountTooSmall', `${DESC}.registerCount`);
    expect(narrow.json().message).toBe('This data type needs at least 2 registers');
    expectRefused(await api.refuse(withDesc({ originalDataType: 'STRING' })), 'error.field.required', `${DESC}.registerCount`);
  });

  it("refuses an operation whose direction does not fit the property's access mode", async () => {
    const { api, withDesc } = await setup();
    expectRefused(await api.refuse(withDesc({ operationType: 'INPUT_REGISTER_READ' }, { accessMode: 'rw' })), 'error.thingModel.modbus.accessMismatch', `${DESC}.operationType`);
    expectRefused(await api.refuse(withDesc({ operationType: 'HOLDING_REGISTER_WRITE' }, { accessMode: 'r' })), 'error.thingModel.modbus.accessMismatch', `${DESC}.operationType`);
    await api.createItem(withDesc({ operationType: 'HOLDING_REGISTER_WRITE' }, { accessMode: 'rw' }));
  });

  it('maps numeric raw values to display texts of 1 to 32 characters', async () => {
    const { api, withDesc } = await setup();
    await api.createItem(withDesc({ valueMapping: { '-1': 'fault', '2.5': 'half' } }));
    expectRefused(await api.refuse(withDesc({ valueMapping: { on: 'running' } })), 'error.thingModel.modbus.valueMapping', `${DESC}.valueMapping.on`);
    expectRefused(await api.refuse(withDesc({ valueMapping: { '1': ' ' } })), 'error.thingModel.modbus.valueMapping', `${DESC}.valueMapping.1`);
    expectRefused(await api.refuse(withDesc({ valueMapping: { '1': 'x'.repeat(33) } })), 'error.thingModel.modbus.valueMapping', `${DESC}.valueMapping.1`);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [String(i), `v${i}`]));
    expectRefused(await api.refuse(withDesc({ valueMapping: many })), 'error.thingModel.modbus.valueMapping', `${DESC}.valueMapping`);
  });

  it('keeps a property without a descriptor on a Modbus product, and can clear one on edit', async () => {
    const { api, id, withDesc } = await setup();
    await api.createItem(propertyBody(id));
    const item = await api.createItem(withDesc({}));
    const cleared = await api.ok(thingModelRoutes.update, { body: { ...withDesc({}, { identifier: item.identifier }), extensionDesc: null, id: item.id } });
    expect(cleared.extensionDesc).toBeNull();
  });

  it('refuses a descriptor on a product that is not TCP with MODBUS-RTU', async () => {
    const { api } = await makeThingModelApp();
    const desc = { operationType: 'COIL_READ', registerAddress: 1, originalDataType: 'BOOLEAN' };
    const mqtt = await api.createProduct();
    const custom = await api.createProduct({ transportType: 'TCP', tcpProtocolType: 'CUSTOM', tcpAuthType: 'REGISTER_SEND' });
    for (const product of [mqtt, custom]) {
      expectRefused(await api.refuse(propertyBody(product.id, { extensionDesc: desc })), 'error.thingModel.modbus.notModbusProduct', DESC);
    }
  });

  it('refuses a descriptor on a service or event', async () => {
    const { api, id } = await setup();
    const desc = { operationType: 'COIL_READ', registerAddress: 1, originalDataType: 'BOOLEAN' };
    expectRefused(await api.refuse(eventBody(id, { extensionDesc: desc })), 'error.thingModel.modbus.propertiesOnly', DESC);
  });

  it('refuses a descriptor missing its operation, address or data type', async () => {
    const { api, id } = await setup();
    const res = await api.refuse(propertyBody(id, { extensionDesc: { registerAddress: 1, originalDataType: 'BOOLEAN' } }));
    expectRefused(res, 'error.field.required', `${DESC}.operationType`);
    expectRefused(await api.refuse(propertyBody(id, { extensionDesc: 'coil 1' })), 'error.thingModel.modbus.descriptor', DESC);
  });
});
