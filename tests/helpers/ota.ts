/** Device OTA test helpers: uploads through the console's API and a device that follows ThingsBoard's SDK. */
import { randomBytes } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { expect } from 'vitest';
import type { Device } from '../../server/contract/device.ts';
import { otaRoutes, type OtaChecksumAlgorithm, type OtaPackage } from '../../server/contract/ota.ts';
import { connectDevice, eventually, tokenOf } from './mqtt.ts';
import { makeLiveApp, type LiveTestApp } from './live.ts';
import { multipart } from './multipart.ts';

export const FAST = { otaTickMs: 50 };
export const FW_KEYS = 'fw_checksum,fw_checksum_algorithm,fw_size,fw_title,fw_version';

export interface Upload {
  title?: string;
  version?: string;
  checksumAlgorithm?: OtaChecksumAlgorithm;
  checksum?: string;
  content?: Buffer;
}

export function upload(t: LiveTestApp, productId: string, u: Upload = {}) {
  const fields: Record<string, string> = { title: u.title ?? 'sensor-fw', version: u.version ?? '1.1.0', checksumAlgorithm: u.checksumAlgorithm ?? 'SHA256' };
  if (u.checksum !== undefined) fields.checksum = u.checksum;
  const form = multipart({ ...fields, file: { filename: 'sensor.bin', content: u.content ?? randomBytes(4500) } });
  return t.api.call(otaRoutes.upload, { params: { id: productId }, payload: form.payload, headers: form.headers });
}

export async function uploaded(t: LiveTestApp, productId: string, u: Upload = {}): Promise<OtaPackage> {
  const res = await upload(t, productId, u);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OtaPackage>();
}

/** A product with `count` devices, their tokens, and a firmware uploaded for it. */
export async function fleet(count: number, content = randomBytes(4500)) {
  const t = await makeLiveApp({ listen: true, tuning: FAST });
  const product = await t.api.createProduct();
  const devices: Device[] = [];
  for (let i = 0; i < count; i++) devices.push(await t.api.createDevice({ deviceProfileId: product.id }));
  const tokens = await Promise.all(devices.map((d) => tokenOf(t.api, d.id)));
  const pkg = await uploaded(t, product.id, { content });
  return { t, product, devices, tokens, pkg, content };
}

export const progress = (t: LiveTestApp, id: string) => t.api.ok(otaRoutes.devices, { params: { id } });
export const stateOf = async (t: LiveTestApp, id: string, deviceId: string) => (await progress(t, id)).find((d) => d.deviceId === deviceId);

/** A device that follows ThingsBoard's SDK: shared attributes, then chunks on the v2 topics. */
export class SimulatedDevice {
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
