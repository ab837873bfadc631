/**
 * Device OTA over ThingsBoard's device firmware protocol, through the public interfaces only: the
 * console's HTTP API for upload and assignment, simulated devices over real MQTT (mqtt.js, 3.1.1)
 * and the HTTP device API (the live progress over /api/ws: ota-live.test.ts).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deviceApiRoutes } from '../../server/contract/device-api.ts';
import { otaRoutes, type OtaChecksumAlgorithm } from '../../server/contract/ota.ts';
import { eventually } from '../helpers/mqtt.ts';
import { makeLiveApp } from '../helpers/live.ts';
import { FAST, FW_KEYS, fleet, progress, SimulatedDevice, stateOf, upload, uploaded } from '../helpers/ota.ts';

describe('device firmware upload', () => {
  it('computes the checksum of the file with the chosen algorithm, CRC32 as ThingsBoard prints it', async () => {
    const t = await makeLiveApp({ tuning: FAST });
    const product = await t.api.createProduct();
    const content = Buffer.from('123456789');
    const sha = await uploaded(t, product.id, { content, checksumAlgorithm: 'SHA256' });
    expect(sha).toMatchObject({ title: 'sensor-fw', version: '1.1.0', size: 9, checksum: createHash('sha256').update(content).digest('hex'), assigned: 0 });
    // CRC-32 of "123456789" is 0xcbf43926; ThingsBoard (Guava) writes its bytes little-endian.
    expect((await uploaded(t, product.id, { content, version: '1.1.1', checksumAlgorithm: 'CRC32' })).checksum).toBe('2639f4cb');
    expect((await uploaded(t, product.id, { content, version: '1.1.2', checksumAlgorithm: 'MD5', checksum: '25F9E794323B453885F5181F1B624D0B' })).checksum).toBe('25f9e794323b453885f5181f1b624d0b');
    expect((await t.api.ok(otaRoutes.list, { params: { id: product.id } })).map((p) => p.version)).toEqual(['1.1.2', '1.1.1', '1.1.0']);
  });

  it('refuses a file whose checksum does not match the one given, and keeps nothing of it', async () => {
    const t = await makeLiveApp({ tuning: FAST });
    const product = await t.api.createProduct();
    const res = await upload(t, product.id, { checksum: 'ab'.repeat(32), content: Buffer.from('firmware') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ key: 'error.ota.checksumMismatch', message: expect.stringContaining(createHash('sha256').update('firmware').digest('hex')) as string });
    expect(await t.api.ok(otaRoutes.list, { params: { id: product.id } })).toEqual([]);
  });

  it('refuses a missing title, an unknown algorithm and the same version twice', async () => {
    const t = await makeLiveApp({ tuning: FAST });
    const product = await t.api.createProduct();
    expect((await upload(t, product.id, { title: '' })).json()).toMatchObject({ key: 'error.ota.fields' });
    expect((await upload(t, product.id, { checksumAlgorithm: 'SHA1' as OtaChecksumAlgorithm })).json()).toMatchObject({ key: 'error.ota.fields' });
    await uploaded(t, product.id);
    const again = await upload(t, product.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ key: 'error.ota.duplicate' });
  });
});

describe('delivery over MQTT', () => {
  it('records FAILED with the device’s fw_error', async () => {
    const { t, devices, tokens, pkg } = await fleet(1);
    const device = await SimulatedDevice.connect(t, tokens[0]!);
    await t.api.ok(otaRoutes.assign, { params: { id: pkg.id }, body: { deviceIds: [devices[0]!.id] } });
    await device.firmwareAttributes();
    await device.report({ fw_state: 'FAILED', fw_error: 'Checksum verification failed!' });
    const failed = await eventually(() => stateOf(t, pkg.id, devices[0]!.id), (d) => d?.state === 'FAILED');
    expect(failed!.error).toBe('Checksum verification failed!');
    expect((await t.api.ok(otaRoutes.list, { params: { id: pkg.productId } }))[0]).toMatchObject({ assigned: 1, inProgress: 0 });
  });

  it('answers a chunk over 64 KB with PAYLOAD_TOO_LARGE on v2/fw/error, as ThingsBoard', async () => {
    const { t, tokens, pkg } = await fleet(1);
    const device = await SimulatedDevice.connect(t, tokens[0]!);
    await t.api.ok(otaRoutes.assign, { params: { id: pkg.id }, body: {} });
    await device.firmwareAttributes();
    await device.client.publishAsync('v2/fw/request/1/chunk/0', '65537', { qos: 0 });
    const error = await eventually(() => device.messages.find((m) => m.topic === 'v2/fw/error'), (m) => m !== undefined);
    expect(error!.payload.toString()).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('delivery over HTTP', () => {
  it('serves GET /api/v1/{token}/firmware by chunk, 400 for another version, 404 when none is assigned', async () => {
    const { t, devices, tokens, pkg, content } = await fleet(1);
    const firmware = (query: Record<string, string | number>) => t.anonymous.call(deviceApiRoutes.firmware, { params: { accessToken: tokens[0]! }, query: query as never });
    expect((await firmware({ title: 'sensor-fw', version: '1.1.0' })).statusCode).toBe(404);

    await t.api.ok(otaRoutes.assign, { params: { id: pkg.id }, body: {} });
    const shared = await eventually(
      () => t.anonymous.ok(deviceApiRoutes.getAttributes, { params: { accessToken: tokens[0]! }, query: { sharedKeys: FW_KEYS } }),
      (a) => a.shared?.fw_version === '1.1.0',
    );
    expect(shared.shared).toMatchObject({ fw_title: 'sensor-fw', fw_size: 4500, fw_checksum: pkg.checksum });

    const parts: Buffer[] = [];
    for (let chunk = 0; chunk < 3; chunk++) {
      const res = await firmware({ title: 'sensor-fw', version: '1.1.0', size: 2048, chunk });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      parts.push(res.rawPayload);
    }
    expect(Buffer.concat(parts).equals(content)).toBe(true);
    expect((await firmware({ title: 'sensor-fw', version: '1.1.0', size: 2048, chunk: 3 })).rawPayload.length).toBe(0);
    expect((await firmware({ title: 'sensor-fw', version: '1.1.0' })).rawPayload.equals(content)).toBe(true);
    const wrong = await firmware({ title: 'sensor-fw', version: '0.9.0' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ key: 'error.ota.wrongFirmware' });

    await t.anonymous.call(deviceApiRoutes.telemetry, { params: { accessToken: tokens[0]! }, body: { fw_state: 'UPDATED' } });
    await eventually(() => stateOf(t, pkg.id, devices[0]!.id), (d) => d?.state === 'UPDATED');
  });
});

describe('rate limit', () => {
  it('notifies at most devicesPerMinute devices; the rest stay QUEUED and get no firmware', async () => {
    const { t, devices, tokens, pkg } = await fleet(3);
    await t.api.ok(otaRoutes.saveSettings, { body: { devicesPerMinute: 2 } });
    expect(await t.api.ok(otaRoutes.settings)).toEqual({ devicesPerMinute: 2 });
    await t.api.ok(otaRoutes.assign, { params: { id: pkg.id }, body: {} });
    const states = await eventually(() => progress(t, pkg.id), (list) => list.filter((d) => d.state === 'INITIATED').length === 2);
    const queued = states.filter((d) => d.state === 'QUEUED');
    expect(queued).toHaveLength(1);

    const waiting = await SimulatedDevice.connect(t, tokens[devices.findIndex((d) => d.id === queued[0]!.deviceId)]!);
    await waiting.client.publishAsync('v2/fw/request/1/chunk/0', '1000', { qos: 0 });
    const error = await eventually(() => waiting.messages.find((m) => m.topic === 'v2/fw/error'), (m) => m !== undefined);
    expect(error!.payload.toString()).toBe('NOT_FOUND');
    expect((await stateOf(t, pkg.id, queued[0]!.deviceId))?.state).toBe('QUEUED');

    // Room in the window (a higher setting) notifies it.
    await t.api.ok(otaRoutes.saveSettings, { body: { devicesPerMinute: 3 } });
    await eventually(() => stateOf(t, pkg.id, queued[0]!.deviceId), (d) => d?.state === 'INITIATED');
  });
});

describe('deleting a firmware', () => {
  it('is refused while devices are updating to it, and done with force: their fw attributes go', async () => {
    const { t, devices, tokens, pkg } = await fleet(1);
    await t.api.ok(otaRoutes.assign, { params: { id: pkg.id }, body: {} });
    await eventually(() => stateOf(t, pkg.id, devices[0]!.id), (d) => d?.state === 'INITIATED');
    const refused = await t.api.call(otaRoutes.remove, { params: { id: pkg.id } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ key: 'error.ota.inProgress' });

    expect((await t.api.call(otaRoutes.remove, { params: { id: pkg.id }, query: { force: true } })).statusCode).toBe(200);
    expect(await t.api.ok(otaRoutes.list, { params: { id: pkg.productId } })).toEqual([]);
    const shared = await t.anonymous.ok(deviceApiRoutes.getAttributes, { params: { accessToken: tokens[0]! }, query: { sharedKeys: FW_KEYS } });
    expect(shared).toEqual({});
  });
});
