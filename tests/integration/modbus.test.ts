import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { commandRoutes, type Command } from '../../server/contract/command.ts';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import { modbusRoutes } from '../../server/contract/modbus.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import type { ModbusDescriptorInput } from '../../server/contract/thing-model.ts';
import { expectError } from '../helpers/error-body.ts';
import { makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { floatWords, ModbusSlave } from '../helpers/modbus.ts';
import { eventually } from '../helpers/mqtt.ts';
import { intType, propertyBody, ThingModelApi } from '../helpers/thing-model.ts';

const tuning = { modbusTimeoutMs: 300, tcp: { identifyTimeoutMs: 500 } };

afterEach(() => ModbusSlave.killAll());

async function app(): Promise<LiveTestApp & { models: ThingModelApi }> {
  const t = await makeLiveApp({ tuning });
  return { ...t, models: new ThingModelApi(t.app, t.token) };
}

function tcpPort(t: LiveTestApp): number {
  return t.app.services!.tcpAccess!.server.port;
}

const doubleType = { type: 'DOUBLE', specs: { min: -100000, max: 100000 } };
const boolType = { type: 'BOOL', specs: { '0': 'off', '1': 'on' } };

/** A published Modbus product with the points the tests read: INT16 ×0.1, FLOAT CDAB, UINT32, a coil, a writable INT. */
async function modbusProduct(t: LiveTestApp & { models: ThingModelApi }, body: Record<string, unknown> = {}) {
  const product = await t.models.createModbusProduct({ pollIntervalMs: 200, ...body });
  const point = (identifier: string, dataType: unknown, extensionDesc: ModbusDescriptorInput, accessMode: 'r' | 'rw' = 'r') =>
    t.models.createItem(propertyBody(product.id, { identifier, functionJson: { dataType }, accessMode, extensionDesc }));
  await point('temperature', doubleType, { operationType: 'HOLDING_REGISTER_READ', registerAddress: 0, originalDataType: 'INT16_AB', scaleFactor: 0.1 });
  await point('power', doubleType, { operationType: 'HOLDING_REGISTER_READ', registerAddress: 2, originalDataType: 'FLOAT_CDAB' });
  await point('energy', intType({ min: 0, max: 2147483647 }), { operationType: 'INPUT_REGISTER_READ', registerAddress: 4, originalDataType: 'UINT32_ABCD' });
  await point('relay', boolType, { operationType: 'COIL_READ_WRITE', registerAddress: 3, originalDataType: 'BOOLEAN' }, 'rw');
  await point('setpoint', intType({ min: -1000, max: 1000 }), { operationType: 'HOLDING_REGISTER_READ_WRITE', registerAddress: 10, originalDataType: 'INT16_AB' }, 'rw');
  // Register 104 does not exist on the test slaves: writes to it are refused with an exception.
  await point('ghost', intType({ min: -1000, max: 1000 }), { operationType: 'HOLDING_REGISTER_WRITE', registerAddress: 104, originalDataType: 'INT16_AB' }, 'rw');
  await t.models.publish(product.id);
  return product;
}

async function latest(t: LiveTestApp, deviceId: string): Promise<Record<string, unknown>> {
  const values = await t.api.ok(telemetryRoutes.timeseries, { params: { id: deviceId } });
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v[0]?.value]));
}

async function state(t: LiveTestApp, id: string): Promise<Device['deviceState']> {
  return (await t.api.ok(deviceRoutes.get, { params: { id } })).deviceState;
}

/** Slave registers: temperature 23.5 (235), power 1.5 as CDAB, energy 70000, relay on, setpoint -5. */
async function fill(slave: ModbusSlave, unit: number): Promise<void> {
  const [hi, lo] = floatWords(1.5);
  await slave.set(unit, 'hr', 0, [235, 0, lo, hi]);
  await slave.set(unit, 'ir', 4, [1, 70000 - 65536]);
  await slave.set(unit, 'co', 3, [true]);
  await slave.set(unit, 'hr', 10, [0xfffb]);
}

describe('Modbus TCP devices the gateway dials (pymodbus)', () => {
  it('polls values into telemetry with their types, writes from the console and from commands, and goes OFFLINE when the slave stops', async () => {
    const t = await app();
    const slave = await ModbusSlave.tcp([1]);
    await fill(slave, 1);
    const product = await modbusProduct(t);
    const device = await t.api.createDevice({ deviceProfileId: product.id, addressCode: '01', modbusTcp: { host: '127.0.0.1', port: slave.port } });

    const values = await eventually(() => latest(t, device.id), (v) => v.setpoint !== undefined);
    expect(values).toMatchObject({ temperature: 23.5, power: 1.5, energy: 70000, relay: true, setpoint: -5 });
    await eventually(() => state(t, device.id), (s) => s === 'ONLINE');

    const link = await t.api.ok(modbusRoutes.link, { params: { id: device.id } });
    expect(link).toMatchObject({ mode: 'MODBUS_TCP', connected: true, remoteAddress: `127.0.0.1:${slave.port}` });
    expect(link.counters.polls).toBeGreaterThan(0);
    expect(link.counters.answered).toBeGreaterThan(0);

    const points = await t.api.ok(modbusRoutes.points, { params: { id: device.id }, lang: 'en-US' });
    expect(points.items.find((p) => p.identifier === 'setpoint')).toMatchObject({ writable: true, polled: true, value: -5, outcome: 'OK' });
    expect(points.items.find((p) => p.identifier === 'temperature')).toMatchObject({ writable: false });

    // Read now answers with fresh values.
    await slave.set(1, 'hr', 0, [250]);
    const read = await t.api.ok(modbusRoutes.read, { params: { id: device.id }, body: { identifiers: ['temperature'] } });
    expect(read.items).toEqual([expect.objectContaining({ identifier: 'temperature', value: 25, outcome: 'OK' })]);

    // Console write: function 06, the slave's register changes.
    const written = await t.api.ok(modbusRoutes.write, { params: { id: device.id }, body: { identifier: 'setpoint', value: 42 }, lang: 'en-US' });
    expect(written).toMatchObject({ outcome: 'OK', functionCode: 6, exceptionCode: null });
    expect(await slave.get(1, 'hr', 10)).toEqual([42]);
    const coil = await t.api.ok(modbusRoutes.write, { params: { id: device.id }, body: { identifier: 'relay', value: false } });
    expect(coil).toMatchObject({ outcome: 'OK', functionCode: 5 });
    expect(await slave.get(1, 'co', 3)).toEqual([0]);
    expectError(await t.api.call(modbusRoutes.write, { params: { id: device.id }, body: { identifier: 'temperature', value: 1 } }), 400, 31, 'error.modbus.notWritable');
    expectError(await t.api.call(modbusRoutes.write, { params: { id: device.id }, body: { identifier: 'setpoint', value: 40000 } }), 400, 31, 'error.modbus.valueInvalid');
    expectError(await t.api.call(modbusRoutes.write, { params: { id: device.id }, body: { identifier: 'nope', value: 1 } }), 400, 31, 'error.modbus.unknownPoint');

    // An ATTRIBUTE command becomes a write; its record follows the slave's answer.
    const sent: Command = await t.api.ok(commandRoutes.send, {
      params: { id: device.id },
      body: { commandType: 'ATTRIBUTE', callType: 'SYNC', way: 'twoway', content: { setpoint: -7 } },
    });
    expect(sent.status).toBe('SUCCESSFUL');
    expect(await slave.get(1, 'hr', 10)).toEqual([0xfff9]);
    const refused: Command = await t.api.ok(commandRoutes.send, {
      params: { id: device.id },
      body: { commandType: 'ATTRIBUTE', callType: 'SYNC', way: 'twoway', content: { ghost: 1 } },
    });
    expect(refused).toMatchObject({ status: 'FAILED', responseContent: '{"ghost":"Illegal data address"}' });
    const exception = await t.api.ok(modbusRoutes.write, { params: { id: device.id }, body: { identifier: 'ghost', value: 3 }, lang: 'zh-CN' });
    expect(exception).toMatchObject({ outcome: 'EXCEPTION', exceptionCode: 2, functionCode: 6, message: '非法数据地址' });

    // The slave stops: after two failed cycles the device is OFFLINE.
    await slave.stop();
    await eventually(() => state(t, device.id), (s) => s === 'OFFLINE', 8000);
    const down = await t.api.ok(modbusRoutes.link, { params: { id: device.id } });
    expect(down.connected).toBe(false);
    expect(down.backoffUntil).not.toBeNull();
  });

  it('refuses Modbus calls for a device that is not Modbus and plans coalesced requests', async () => {
    const t = await app();
    const mqttProduct = await t.api.createProduct({});
    const plain = await t.api.createDevice({ deviceProfileId: mqttProduct.id });
    expectError(await t.api.call(modbusRoutes.points, { params: { id: plain.id } }), 400, 31, 'error.modbus.notModbus');
    const product = await modbusProduct(t);
    const plan = await t.api.ok(modbusRoutes.plan, { params: { id: product.id } });
    expect(plan.requests).toEqual([
      { function: 1, start: 3, count: 1, identifiers: ['relay'] },
      { function: 3, start: 0, count: 11, identifiers: ['temperature', 'power', 'setpoint'] },
      { function: 4, start: 4, count: 2, identifiers: ['energy'] },
    ]);
    const csv = await t.api.call(modbusRoutes.exportPoints, { params: { id: product.id } });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('setpoint,');
    expect(csv.body).toContain('0x000A,INT16_AB');
    expect(plan.writeOnly).toEqual(['ghost']);
  });

  it('imports a point table: new properties, updated descriptors, rejected rows with reasons', async () => {
    const t = await app();
    const product = await modbusProduct(t);
    const csv = [
      'identifier,name,dataType,registerAddress,originalDataType,scaleFactor,bit,registerCount,access',
      'voltage,电压,DOUBLE,0x0020,FLOAT_ABCD,1,,2,INPUT_REGISTER_READ',
      'setpoint,设定值,INT,0x000C,INT16_AB,1,,,HOLDING_REGISTER_READ_WRITE',
      'alarm,告警,INT,0x0030,BITS,1,3,,HOLDING_REGISTER_READ',
      'broken,坏,INT,0x0040,FLOAT_ABCD,1,,1,HOLDING_REGISTER_READ',
      'nope,缺,INT,,INT16_AB,1,,,HOLDING_REGISTER_READ',
    ].join('\r\n');
    const boundary = 'b0undary';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="points.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/yt/device_profile/${product.id}/modbus/points/import`,
      headers: { authorization: `Bearer ${t.token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en-US' },
      payload,
    });
    expect(res.statusCode).toBe(200);
    const result = res.json() as { created: number; updated: number; rejected: { row: number; name: string; reasons: { field: string; key: string }[] }[] };
    expect(result).toMatchObject({ created: 2, updated: 1 });
    expect(result.rejected.map((r) => [r.row, r.name, r.reasons[0]?.key])).toEqual([
      [5, 'broken', 'error.thingModel.modbus.registerCountTooSmall'],
      [6, 'nope', 'error.field.required'],
    ]);
    const plan = await t.api.ok(modbusRoutes.plan, { params: { id: product.id }, query: { source: 'draft' } });
    expect(plan.requests.find((r) => r.function === 4 && r.identifiers.includes('voltage'))).toMatchObject({ start: 32, count: 2 });
    expect(plan.requests.find((r) => r.identifiers.includes('setpoint'))?.identifiers).toContain('setpoint');
    const items = await t.models.items(product.id);
    expect(items.find((i) => i.identifier === 'setpoint')?.extensionDesc?.registerAddress).toBe(12);
  });

  it('keeps the polling settings and registration rules of products and devices', async () => {
    const t = await app();
    const product = await t.models.createModbusProduct({});
    expect(product).toMatchObject({ pollIntervalMs: 5000, modbusGapMax: 8 });
    expectError(await t.api.call(deviceRoutes.create, { body: { name: 'x1', deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id, registration: { format: 'ASCII', value: 'tab\there' } } }), 400, 31, 'error.device.registration');
    expectError(await t.api.call(deviceRoutes.create, { body: { name: 'x2', deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id, registration: { format: 'HEX', value: 'ABC' } } }), 400, 31, 'error.device.registration');
    const slow = await t.models.createModbusProduct({ pollIntervalMs: 50 }).catch((err: unknown) => err);
    expect(slow).toBeInstanceOf(Error);
  });
});

describe('DTUs over the TCP access port (pymodbus RTU over TCP)', () => {
  it('registers a DTU gateway, polls its slaves by address code, and a dead slave goes OFFLINE while its neighbour keeps answering', async () => {
    const t = await app();
    const gatewayProduct = await t.api.createProduct({ deviceType: 'GATEWAY', transportType: 'TCP', tcpProtocolType: 'CUSTOM', tcpAuthType: 'REGISTER_SEND' });
    const gateway = await t.api.createDevice({ deviceProfileId: gatewayProduct.id, deviceType: 'GATEWAY' });
    const product = await modbusProduct(t, { deviceType: 'SENSOR' });
    const one = await t.api.createDevice({ deviceProfileId: product.id, deviceType: 'SENSOR', gatewayId: gateway.id, addressCode: '01' });
    const two = await t.api.createDevice({ deviceProfileId: product.id, deviceType: 'SENSOR', gatewayId: gateway.id, addressCode: '02' });

    const dtu = await ModbusSlave.dtu(tcpPort(t), Buffer.from(gateway.registration!.value), 'REGISTER_SEND', [1, 2]);
    await fill(dtu, 1);
    await fill(dtu, 2);
    await dtu.set(2, 'hr', 0, [-12 & 0xffff]);

    await eventually(() => latest(t, one.id), (v) => v.temperature === 23.5, 8000);
    await eventually(() => latest(t, two.id), (v) => v.temperature === -1.2, 8000);
    await eventually(() => state(t, gateway.id), (s) => s === 'ONLINE');
    const link = await t.api.ok(modbusRoutes.link, { params: { id: two.id } });
    expect(link).toMatchObject({ mode: 'DTU', connected: true, carrierDeviceId: gateway.id });
    // The whole RTU frame as it came: slave address 02, function, data, CRC.
    expect(link.lastFrameHex).toMatch(/^02(03|04)[0-9A-F]{6,}$/);
    const frame = Buffer.from(link.lastFrameHex!, 'hex');
    expect(frame.length).toBe(frame[2]! + 5);

    const written = await t.api.ok(modbusRoutes.write, { params: { id: two.id }, body: { identifier: 'setpoint', value: 9 } });
    expect(written.outcome).toBe('OK');
    expect(await dtu.get(2, 'hr', 10)).toEqual([9]);

    await dtu.mute(2);
    await eventually(() => state(t, two.id), (s) => s === 'OFFLINE', 8000);
    await dtu.set(1, 'hr', 0, [111]);
    await eventually(() => latest(t, one.id), (v) => v.temperature === 11.1, 8000);
    expect(await state(t, one.id)).toBe('ONLINE');
    const dead = await t.api.ok(modbusRoutes.link, { params: { id: two.id } });
    expect(dead.counters.timeouts).toBeGreaterThan(0);
  });

  it('takes DATA_CARRY frames prefixed with a HEX registration string', async () => {
    const t = await app();
    const product = await modbusProduct(t, { tcpAuthType: 'DATA_CARRY' });
    const device = await t.api.createDevice({ deviceProfileId: product.id, addressCode: '05', registration: { format: 'HEX', value: 'ab cd 01' } });
    expect(device.registration).toEqual({ format: 'HEX', value: 'ABCD01' });
    const dtu = await ModbusSlave.dtu(tcpPort(t), Buffer.from('ABCD01', 'hex'), 'DATA_CARRY', [5]);
    await fill(dtu, 5);
    await eventually(() => latest(t, device.id), (v) => v.energy === 70000, 8000);
    expectError(
      await t.api.call(deviceRoutes.create, { body: { name: 'other', deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id, registration: { format: 'HEX', value: 'ABCD01' } } }),
      400,
      31,
      'error.device.registrationTaken',
    );
  });

  it('takes REGISTRATION_PACKAGE DTUs, whose answers carry the registration in front', async () => {
    const t = await app();
    const product = await modbusProduct(t, { tcpAuthType: 'REGISTRATION_PACKAGE' });
    const device = await t.api.createDevice({ deviceProfileId: product.id, addressCode: '11', registration: { format: 'ASCII', value: 'SITE-9' } });
    const dtu = await ModbusSlave.dtu(tcpPort(t), Buffer.from('SITE-9'), 'REGISTRATION_PACKAGE', [0x11]);
    await fill(dtu, 0x11);
    await eventually(() => latest(t, device.id), (v) => v.power === 1.5, 8000);
    const link = await t.api.ok(modbusRoutes.link, { params: { id: device.id } });
    expect(link).toMatchObject({ mode: 'DTU', connected: true, registration: 'SITE-9', carrierDeviceId: null });
    expect(link.counters.badFrames).toBe(0);
  });

  it('splits a request that bridges registers the slave refuses', async () => {
    const t = await app();
    const product = await t.models.createModbusProduct({ pollIntervalMs: 200 });
    const point = (identifier: string, registerAddress: number) =>
      t.models.createItem(
        propertyBody(product.id, { identifier, functionJson: { dataType: intType({ min: 0, max: 65535 }) }, extensionDesc: { operationType: 'HOLDING_REGISTER_READ', registerAddress, originalDataType: 'UINT16_AB' } }),
      );
    await point('low', 100);
    await point('high', 108);
    await t.models.publish(product.id);
    const plan = await t.api.ok(modbusRoutes.plan, { params: { id: product.id } });
    expect(plan.requests).toEqual([{ function: 3, start: 100, count: 9, identifiers: ['low', 'high'] }]);
    const slave = await ModbusSlave.tcp([1]);
    await slave.set(1, 'hr', 100, [7]);
    await slave.set(1, 'hr', 108, [8]);
    const device = await t.api.createDevice({ deviceProfileId: product.id, modbusTcp: { host: '127.0.0.1', port: slave.port } });
    await eventually(() => latest(t, device.id), (v) => v.low === 7 && v.high === 8, 8000);
  });

  it('counts a custom TCP device\'s frames, lets another module subscribe and write back, and replaces an older connection of the same device', async () => {
    const t = await app();
    const product = await t.api.createProduct({ transportType: 'TCP', tcpProtocolType: 'CUSTOM', tcpAuthType: 'REGISTRATION_PACKAGE' });
    const device = await t.api.createDevice({ deviceProfileId: product.id, registration: { format: 'ASCII', value: 'PUMP-7' } });
    const connections = t.app.services!.tcpAccess!.connections;
    const heard: string[] = [];
    connections.onFrames(device.id, (chunk) => heard.push(chunk.toString('latin1')));
    const open = () =>
      new Promise<import('node:net').Socket>((resolve) => {
        const socket = connect(tcpPort(t), '127.0.0.1', () => resolve(socket));
        socket.on('error', () => undefined);
      });
    const first = await open();
    const firstClosed = new Promise<void>((resolve) => first.on('close', () => resolve()));
    first.write('PUMP-7');
    await eventually(() => state(t, device.id), (s) => s === 'ONLINE');
    first.write('PUMP-7\x01\x02');
    await eventually(() => heard.length, (n) => n === 1);
    const echoed = new Promise<Buffer>((resolve) => first.once('data', resolve));
    expect(connections.write(device.id, Buffer.from('ok'))).toBe(true);
    expect((await echoed).toString()).toBe('ok');
    const link = await t.api.ok(modbusRoutes.link, { params: { id: device.id } });
    expect(link).toMatchObject({ mode: 'DTU', connected: true, registration: 'PUMP-7', lastFrameHex: '50554D502D370102' });
    expect(link.counters.framesIn).toBe(1);
    // A HEX command is written to the device's socket as it is.
    const raw = new Promise<Buffer>((resolve) => first.once('data', resolve));
    const command: Command = await t.api.ok(commandRoutes.send, { params: { id: device.id }, body: { commandType: 'CUSTOM', callType: 'ASYNC', way: 'oneway', content: '01 05 00 03 FF 00' } });
    expect((await raw).toString('hex')).toBe('01050003ff00');
    expect(command.status).not.toBe('FAILED');

    // The DTU reconnects (a mobile network dropped it) while the old socket lingers: the old one goes.
    const second = await open();
    second.write('PUMP-7');
    await firstClosed;
    expect(await state(t, device.id)).toBe('ONLINE');

    // Flooding the port closes the connection; the gateway keeps serving.
    const flooded = new Promise<void>((resolve) => second.on('close', () => resolve()));
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    for (let i = 0; i < 8 && !second.destroyed; i++) second.write(chunk);
    await flooded;
    expect(t.app.services!.tcpAccess!.server.refusals.floods).toBe(1);
    await eventually(() => state(t, device.id), (s) => s === 'OFFLINE');
  });
});
