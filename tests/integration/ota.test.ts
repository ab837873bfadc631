/**
 * Device OTA over ThingsBoard's device firmware protocol, through the public interfaces only: the
 * console's HTTP API for upload and assignment, simulated devices over real MQTT (mqtt.js, 3.1.1)
 * and the HTTP device API, and /api/ws for the live progress.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { deviceApiRoutes } from '../../server/contract/device-api.ts';
import type { Device } from '../../server/contract/device.ts';
import { otaRoutes, type OtaChecksumAlgorithm, type OtaDevice, type OtaPackage } from '../../server/contract/ota.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';
import { LiveClient, makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { multipart } from '../helpers/multipart.ts';

const FAST = { otaTickMs: 50 };
const FW_KEYS = 'fw_checksum,fw_checksum_algorithm,fw_size,fw_title,fw_version';

interface Upload {
  title?: string;
  version?: string;
  checksumAlgorithm?: OtaChecksumAlgorithm;
  checksum?: string;
  content?: Buffer;
}

function upload(t: LiveTestApp, productId: string, u: Upload = {}) {
  const fields: Record<string, string> = { title: u.title ?? 'sensor-fw', version: u.version ?? '1.1.0', checksumAlgorithm: u.checksumAlgorithm ?? 'SHA256' };
  if (u.checksum !== undefined) fields.checksum = u.checksum;
  const form = multipart({ ...fields, file: { filename: 'sensor.bin', content: u.content ?? randomBytes(4500) } });
  return t.api.call(otaRoutes.upload, { params: { id: productId }, payload: form.payload, headers: form.headers });
}

async function uploaded(t: LiveTestApp, productId: string, u: Upload = {}): Promise<OtaPackage> {
  const res = await upload(t, productId, u);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OtaPackage>();
}

/** A product with `count` devices, their tokens, and a firmware uploaded for it. */
async function fleet(count: number, content = randomBytes(4500)) {
  const t = await makeLiveApp({ listen: true, tuning: FAST });
  const product = await t.api.createProduct();
  const devices: Device[] = [];
  for (let i = 0; i < count; i++) devices.push(await t.api.createDevice({ deviceProfileId: product.id }));
  const tokens = await Promise.all(devices.map((d) => tokenOf(t.api, d.id)));
  const pkg = await uploaded(t, product.id, { content });
  return { t, product, devices, tokens, pkg, content };
}

const progress = (t: LiveTestApp, id: string) => t.api.ok(otaRoutes.devices, { params: { id } });
const stateOf = async (t: LiveTestApp, id: string, deviceId: string) => (await progress(t, id)).find((d) => d.deviceId === deviceId);

/** A device that follows ThingsBoard's SDK: shared attributes, then chunks on the v2 topics. */
class SimulatedDevice {
  readonly messages: { topic: string; payload: Buffer }[] = [];
  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload) => this.messages.push({ topic, payload }));
  }

  static async connect(t: LiveTestApp, token: string): Promise<SimulatedDevice> {
    const client = await connectDevice(t.app, { username: token, protocolVersion: 4 });
    const device = new SimulatedDevice(client);
    await client.subscribeAsync(['v1/devices/me/attributes', 'v1/devices/me/attributes/response/+', 'v2/fw/response/+/chunk/+', 'v2/fw/error'], { qos: 1 });
    return device;
  }

  async firmwareAttributes(): Promise<Record<string, unknown>> {
    const push = await eventually(() => this.messages.find((m) => m.topic === 'v1/devices/me/attributes'), (m) => m !== undefined, 15_000);
    return JSON.parse(push!.payload.toString()) as Record<string, unknown>;
  }

  async chunk(requestId: number, n: number, size: string): Promise<Buffer> {
    const topic = `v2/fw/response/${requestId}/chunk/${n}`;
    await this.client.publishAsync(`v2/fw/request/${requestId}/chunk/${n}`, size, { qos: 1 });
    const answer = await eventually(() => this.messages.find((m) => m.topic === topic), (m) => m !== undefined, 15_000);
    return answer!.payload;
  }

  report(values: Record<string, unknown>): Promise<unknown> {
    return this.client.publishAsync('v1/devices/me/telemetry', JSON.stringify(values), { qos: 1 });
  }
}

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
  it('tells the device by shared attributes, serves every chunk on v2/fw/response, an empty one past the end, and follows fw_state to UPDATED live', async () => {
    const { t, devices, tokens, pkg, content } = await fleet(1);
    const live = await LiveClient.open(t, { token: t.token });
    live.send({ cmds: [{ type: 'OTA_PROGRESS', cmdId: 3, packageId: pkg.id }] });
    expect(await live.answer<{ data: OtaDevice[] }>(3)).toMatchObject({ data: [] });

    const device = await SimulatedDevice.connect(t, tokens[0]!);
    expect(await t.api.ok(otaRoutes.assign, { params: { id: pkg.id }, body: {} })).toEqual({ queued: 1 });
    const attributes = await device.firmwareAttributes();
    expect(attributes).toEqual({ fw_title: 'sensor-fw', fw_version: '1.1.0', fw_size: 4500, fw_checksum: pkg.checksum, fw_checksum_algorithm: 'SHA256' });
    await live.next((m) => m.cmdId === 3 && (m.data as OtaDevice[])[0]?.state === 'INITIATED');

    // The SDK also reads them by an attribute request.
    await device.client.publishAsync('v1/devices/me/attributes/request/1', JSON.stringify({ sharedKeys: FW_KEYS }), { qos: 1 });
    const read = await eventually(() => device.messages.find((m) => m.topic === 'v1/devices/me/attributes/response/1'), (m) => m !== undefined);
    expect(JSON.parse(read!.payload.toString())).toEqual({ shared: attributes });

    await device.report({ fw_state: 'DOWNLOADING' });
    const parts: Buffer[] = [];
    for (let n = 0; n * 1000 < 4500; n++) parts.push(await device.chunk(1, n, n === 0 ? '1000' : ''));
    const received = Buffer.concat(parts);
    expect(parts.map((p) => p.length)).toEqual([1000, 1000, 1000, 1000, 500]);
    expect(received.equals(content)).toBe(true);
    expect((await device.chunk(1, 5, '1000')).length).toBe(0);

    expect(createHash('sha256').update(received).digest('hex')).toBe(attributes.fw_checksum);
    for (const fw_state of ['DOWNLOADED', 'VERIFIED', 'UPDATING']) await device.report({ fw_state });
    await device.report({ fw_state: 'UPDATED', current_fw_title: 'sensor-fw', current_fw_version: '1.1.0' });
    const done = await live.next<{ data: OtaDevice[] }>((m) => m.cmdId === 3 && (m.data as OtaDevice[])[0]?.state === 'UPDATED', 15_000);
    expect(done.data[0]).toMatchObject({ deviceId: devices[0]!.id, deviceName: devices[0]!.name, error: null });
    expect((await t.api.ok(otaRoutes.list, { params: { id: pkg.productId } }))[0]).toMatchObject({ assigned: 1, inProgress: 0 });
  });

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
