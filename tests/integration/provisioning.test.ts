/**
 * Device provisioning, ThingsBoard's `POST /api/v1/provision`: a product's provisioning switch with
 * its generated key and secret, the answer shapes ThingsBoard's SDKs read, the failures, the
 * licence and the per-address limit on failed attempts.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { productRoutes, type Product } from '../../server/contract/product.ts';
import { PROVISION_FAILURE_LIMIT, provisionRoutes } from '../../server/contract/provisioning.ts';
import { makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { issueLicense, testLicenseKeys } from '../helpers/license.ts';
import { connectDevice } from '../helpers/mqtt.ts';
import { activate } from '../helpers/setup.ts';

/** A product with provisioning switched on, and its key and secret. */
async function provisioningProduct(t: DeviceTestApp): Promise<Product & { provisionDeviceKey: string; provisionDeviceSecret: string }> {
  const product = await t.api.createProduct({ provisionEnabled: true });
  expect(product.provisionDeviceKey).toMatch(/^[a-z0-9]{20}$/);
  expect(product.provisionDeviceSecret).toMatch(/^[a-z0-9]{20}$/);
  return product as Product & { provisionDeviceKey: string; provisionDeviceSecret: string };
}

/** As a device sends it: JSON, here without a content type. */
function provision(t: DeviceTestApp, body: Record<string, unknown>, remoteAddress = '192.0.2.7') {
  return t.app.inject({ method: 'POST', url: provisionRoutes.provision.url, payload: JSON.stringify(body), remoteAddress });
}

async function deviceNamed(t: DeviceTestApp, name: string) {
  return (await t.api.ok(deviceRoutes.list, { query: { name, pageSize: 100 } })).items.find((d) => d.name === name);
}

describe('device provisioning', () => {
  it('creates the device with a generated access token and answers as ThingsBoard, which the token then opens', async () => {
    const t = await makeDeviceApp();
    const product = await provisioningProduct(t);
    const res = await provision(t, { deviceName: 'Boiler 7.1', provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: product.provisionDeviceSecret });
    expect(res.statusCode).toBe(200);
    const answer = res.json() as { status: string; credentialsType: string; credentialsValue: string };
    expect(answer).toEqual({ status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN', credentialsValue: expect.stringMatching(/^[A-Za-z0-9]{20}$/) as string });
    const device = await deviceNamed(t, 'Boiler 7.1');
    expect(device).toMatchObject({ deviceProfileId: product.id, deviceType: 'DIRECT_CONNECTION', deviceState: 'INACTIVE' });
    expect((await t.api.ok(credentialsRoutes.get, { params: { id: device!.id } })).credentialsId).toBe(answer.credentialsValue);
    const client = await connectDevice(t.app, { username: answer.credentialsValue });
    expect(client.connected).toBe(true);
  });

  it('uses the access token the device asks for, and names a device that gives no name', async () => {
    const t = await makeDeviceApp();
    const product = await provisioningProduct(t);
    const res = await provision(t, { provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: product.provisionDeviceSecret, credentialsType: 'ACCESS_TOKEN', token: 'my-own-token_1' });
    expect(res.json()).toEqual({ status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN', credentialsValue: 'my-own-token_1' });
    const page = await t.api.ok(deviceRoutes.list, { query: { deviceProfileId: product.id } });
    expect(page.items.map((d) => d.name)).toEqual([expect.stringMatching(/^[A-Za-z0-9]{20}$/)]);
  });

  it('answers MQTT_BASIC credentials as an object the device then connects with', async () => {
    const t = await makeDeviceApp();
    const product = await provisioningProduct(t);
    const res = await provision(t, {
      deviceName: 'meter:42',
      provisionDeviceKey: product.provisionDeviceKey,
      provisionDeviceSecret: product.provisionDeviceSecret,
      credentialsType: 'MQTT_BASIC',
      clientId: 'meter-42',
      username: 'meter42',
      password: 'p4ss',
    });
    expect(res.json()).toEqual({ status: 'SUCCESS', credentialsType: 'MQTT_BASIC', credentialsValue: { clientId: 'meter-42', userName: 'meter42', password: 'p4ss' } });
    const client = await connectDevice(t.app, { clientId: 'meter-42', username: 'meter42', password: 'p4ss' });
    expect(client.connected).toBe(true);
  });

  it('stores an X509 key the device sends and answers it back', async () => {
    const t = await makeDeviceApp();
    const product = await provisioningProduct(t);
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const res = await provision(t, { deviceName: 'cam/3', provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: product.provisionDeviceSecret, credentialsType: 'X509_CERTIFICATE', hash: pem });
    expect(res.json()).toEqual({ status: 'SUCCESS', credentialsType: 'X509_CERTIFICATE', credentialsValue: pem });
    const device = await deviceNamed(t, 'cam/3');
    expect(await t.api.ok(credentialsRoutes.get, { params: { id: device!.id } })).toMatchObject({ credentialsType: 'X509_CERTIFICATE', credentialsValue: pem });
  });

  it('answers NOT_FOUND for a wrong secret, an unknown key and a product whose provisioning is off', async () => {
    const t = await makeDeviceApp();
    const product = await provisioningProduct(t);
    const notFound = { status: 'NOT_FOUND', errorMsg: 'Provision data was not found!' };
    const wrong = await provision(t, { deviceName: 'a', provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: 'guess' });
    expect([wrong.statusCode, wrong.json()]).toEqual([200, notFound]);
    expect((await provision(t, { deviceName: 'a', provisionDeviceKey: 'nope', provisionDeviceSecret: product.provisionDeviceSecret })).json()).toEqual(notFound);

    const off = await t.api.ok(productRoutes.update, { body: { id: product.id, name: product.name, deviceType: product.deviceType, transportType: product.transportType, provisionEnabled: false } });
    expect(off).toMatchObject({ provisionEnabled: false, provisionDeviceKey: product.provisionDeviceKey });
    expect((await provision(t, { deviceName: 'a', provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: product.provisionDeviceSecret })).json()).toEqual(notFound);
    expect((await t.api.ok(deviceRoutes.list, {})).total).toBe(0);
  });

  it('answers FAILURE for a name that exists, provisioning each name once', async () => {
    const t = await makeDeviceApp();
    const product = await provisioningProduct(t);
    const body = { deviceName: 'Device A', provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: product.provisionDeviceSecret };
    expect((await provision(t, body)).json()).toMatchObject({ status: 'SUCCESS' });
    expect((await provision(t, body)).json()).toEqual({ status: 'FAILURE', errorMsg: 'Failed to provision device!' });
    expect((await t.api.ok(deviceRoutes.list, {})).total).toBe(1);
  });

  it('answers FAILURE once the licence’s device limit is reached', async () => {
    const t = await makeDeviceApp();
    const licFile = issueLicense({ privateKeyPem: testLicenseKeys().privateKeyPem, maxDevices: 1, days: 60 });
    expect((await activate(t, { licFile, token: t.api.token! })).statusCode).toBe(200);
    const product = await provisioningProduct(t);
    const keys = { provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: product.provisionDeviceSecret };
    expect((await provision(t, { deviceName: 'one', ...keys })).json()).toMatchObject({ status: 'SUCCESS' });
    expect((await provision(t, { deviceName: 'two', ...keys })).json()).toEqual({ status: 'FAILURE', errorMsg: 'Failed to provision device!' });
    expect((await t.api.ok(deviceRoutes.list, {})).total).toBe(1);
  });

  it('refuses an address after too many wrong secrets with 429, even the right one, while others go on', async () => {
    const t = await makeDeviceApp();
    const product = await provisioningProduct(t);
    for (let i = 0; i < PROVISION_FAILURE_LIMIT; i++) {
      expect((await provision(t, { deviceName: 'x', provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: `guess${i}` })).json()).toMatchObject({ status: 'NOT_FOUND' });
    }
    const right = { deviceName: 'x', provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: product.provisionDeviceSecret };
    const locked = await provision(t, right);
    expectError(locked, 429, 33, 'error.provision.tooManyAttempts');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await provision(t, right, '192.0.2.8')).json()).toMatchObject({ status: 'SUCCESS' });
  });

  it('regenerates the key and secret, after which the old ones are not found', async () => {
    const t = await makeDeviceApp();
    const product = await provisioningProduct(t);
    const renewed = await t.api.ok(productRoutes.regenerateProvision, { params: { id: product.id } });
    expect(renewed.provisionDeviceKey).not.toBe(product.provisionDeviceKey);
    expect(renewed.provisionDeviceSecret).not.toBe(product.provisionDeviceSecret);
    expect((await provision(t, { deviceName: 'a', provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: product.provisionDeviceSecret })).json()).toMatchObject({ status: 'NOT_FOUND' });
    expect((await provision(t, { deviceName: 'a', provisionDeviceKey: renewed.provisionDeviceKey!, provisionDeviceSecret: renewed.provisionDeviceSecret! })).json()).toMatchObject({ status: 'SUCCESS' });
  });

  it('refuses a request without key and secret or that is not JSON with 400 code 31', async () => {
    const t = await makeDeviceApp();
    expectError(await provision(t, { deviceName: 'a' }), 400, 31, 'error.validation');
    const res = await t.app.inject({ method: 'POST', url: provisionRoutes.provision.url, payload: '{not json', headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 31, 'error.transport.malformedJson');
  });

  it('takes the MQTT request payload as bytes, as the broker hands it over', async () => {
    const t = await makeDeviceApp();
    const product = await provisioningProduct(t);
    const payload = Buffer.from(JSON.stringify({ deviceName: 'mqtt one', provisionDeviceKey: product.provisionDeviceKey, provisionDeviceSecret: product.provisionDeviceSecret }));
    expect(await t.app.services!.provisioning!.provision(payload, '192.0.2.9')).toMatchObject({ status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN' });
    expect(await t.app.services!.provisioning!.provision(Buffer.from('{oops'), '192.0.2.9')).toEqual({ status: 'FAILURE', errorMsg: 'Failed to provision device!' });
  });
});
