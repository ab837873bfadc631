/**
 * Client attributes checked against the published thing model, over real MQTT (the device's own
 * topic and its gateway's) and the HTTP device API: values of model properties that do not fit
 * are stored flagged, never dropped; keys the model does not name are kept unflagged.
 */
import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { telemetryRoutes, type AttributeValue } from '../../server/contract/telemetry.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';
import { intType, makeThingModelApp, propertyBody, propertyOf, type ThingModelTestApp } from '../helpers/thing-model.ts';

async function publishJson(client: MqttClient, topic: string, body: unknown): Promise<void> {
  await client.publishAsync(topic, JSON.stringify(body), { qos: 1 });
}

/** A product of `deviceType` whose published model has an INT `setpoint` (0–100) and an ENUM `mode`. */
async function modelledProduct(t: ThingModelTestApp, deviceType: 'DIRECT_CONNECTION' | 'SENSOR' = 'DIRECT_CONNECTION'): Promise<string> {
  const product = await t.api.createProduct({ deviceType });
  await t.api.createItem(propertyBody(product.id, { identifier: 'setpoint', functionJson: { dataType: intType({ max: 100 }) } }));
  await t.api.createItem(propertyOf(product.id, { type: 'ENUM', specs: [{ value: 1, description: 'eco' }, { value: 2, description: 'boost' }] }, { identifier: 'mode' }));
  await t.api.publish(product.id);
  return product.id;
}

async function attributes(t: ThingModelTestApp, deviceId: string): Promise<Record<string, AttributeValue>> {
  const list = await t.api.ok(telemetryRoutes.attributes, { params: { id: deviceId } });
  return Object.fromEntries(list.map((a) => [a.key, a]));
}

describe('client attributes checked against the published thing model', () => {
  it('flags a model property that does not fit, keeps fitting values and unknown keys unflagged, and clears the flag when a fitting value follows', async () => {
    const t = await makeThingModelApp();
    const device = await t.api.createDevice({ deviceProfileId: await modelledProduct(t) });
    const client = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
    await publishJson(client, 'v1/devices/me/attributes', { setpoint: 150, mode: 2, firmware: '1.4.2' });
    const first = await attributes(t, device.id);
    expect(first.setpoint).toMatchObject({ value: 150, flag: 'setpoint: 150 is above the maximum 100' });
    expect(first.mode).toEqual({ key: 'mode', value: 2, lastUpdateTs: expect.any(Number) });
    expect(first.firmware).toEqual({ key: 'firmware', value: '1.4.2', lastUpdateTs: expect.any(Number) });

    await publishJson(client, 'v1/devices/me/attributes', { setpoint: 40, mode: 'boost' });
    const second = await attributes(t, device.id);
    expect(second.setpoint).toEqual({ key: 'setpoint', value: 40, lastUpdateTs: expect.any(Number) });
    expect(second.mode).toMatchObject({ value: 'boost', flag: expect.stringContaining('not an integer') as string });
  });

  it('checks attributes a gateway reports for its sub-device, and those posted over HTTP', async () => {
    const t = await makeThingModelApp();
    const gateway = await t.api.createDevice({ deviceType: 'GATEWAY' });
    const sensor = await t.api.createDevice({ deviceType: 'SENSOR', deviceProfileId: await modelledProduct(t, 'SENSOR'), gatewayId: gateway.id });
    const client = await connectDevice(t.app, { username: await tokenOf(t.api, gateway.id) });
    await publishJson(client, 'v1/gateway/attributes', { [sensor.name]: { setpoint: -1, serial: 'A-17' } });
    const relayed = await attributes(t, sensor.id);
    expect(relayed.setpoint?.flag).toBe('setpoint: -1 is below the minimum 0');
    expect(relayed.serial?.flag).toBeUndefined();

    const direct = await t.api.createDevice({ deviceProfileId: await modelledProduct(t) });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/${await tokenOf(t.api, direct.id)}/attributes`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ mode: 3 }),
    });
    expect(res.statusCode).toBe(200);
    expect((await attributes(t, direct.id)).mode?.flag).toBe('mode: 3 is not one of 1, 2');
  });
});
