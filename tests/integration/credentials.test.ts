import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { credentialsRoutes, type DeviceCredentials } from '../../server/contract/credentials.ts';
import { EventBus, type Events } from '../../server/lib/event-bus.ts';
import { makeDeviceApp, type DeviceApi } from '../helpers/devices.ts';
import { deviceServicesOf } from '../helpers/services.ts';

function rsaPublicPem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
}

function put(api: DeviceApi, id: string, body: Record<string, unknown>) {
  return api.call(credentialsRoutes.update, { params: { id }, body });
}

function get(api: DeviceApi, id: string): Promise<DeviceCredentials> {
  return api.ok(credentialsRoutes.get, { params: { id } });
}

describe('device credentials', () => {
  it('gives a new device a generated 20-character access token', async () => {
    const { api } = await makeDeviceApp();
    const a = await api.createDevice();
    const b = await api.createDevice({ deviceProfileId: a.deviceProfileId });
    const credentials = await get(api, a.id);
    expect(credentials).toMatchObject({ credentialsType: 'ACCESS_TOKEN', credentialsValue: null });
    expect(credentials.credentialsId).toMatch(/^[A-Za-z0-9]{20}$/);
    expect((await get(api, b.id)).credentialsId).not.toBe(credentials.credentialsId);
  });

  it('sets a token of the user’s choice and generates one when none is given', async () => {
    const { api } = await makeDeviceApp();
    const device = await api.createDevice();
    const mine = await api.ok(credentialsRoutes.update, { params: { id: device.id }, body: { credentialsType: 'ACCESS_TOKEN', credentialsId: 'my-token_01.x~' } });
    expect(mine.credentialsId).toBe('my-token_01.x~');
    const generated = await api.ok(credentialsRoutes.update, { params: { id: device.id }, body: { credentialsType: 'ACCESS_TOKEN' } });
    expect(generated.credentialsId).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('refuses a token another device holds and a token with characters outside the URL-safe set', async () => {
    const { api } = await makeDeviceApp();
    const a = await api.createDevice();
    const b = await api.createDevice({ deviceProfileId: a.deviceProfileId });
    const taken = (await get(api, a.id)).credentialsId;
    const dup = await put(api, b.id, { credentialsType: 'ACCESS_TOKEN', credentialsId: taken });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ code: 31, key: 'error.credentials.tokenTaken', details: [{ field: 'body.credentialsId' }] });
    for (const token of ['has space', 'slash/token', 'x'.repeat(65)]) {
      expect((await put(api, b.id, { credentialsType: 'ACCESS_TOKEN', credentialsId: token })).json().key).toBe('error.credentials.tokenInvalid');
    }
  });

  it('accepts an RSA public key and identifies it by the sha256 of its DER', async () => {
    const { api } = await makeDeviceApp();
    const device = await api.createDevice();
    const pem = rsaPublicPem();
    const saved = await api.ok(credentialsRoutes.update, { params: { id: device.id }, body: { credentialsType: 'X509_CERTIFICATE', credentialsValue: pem } });
    const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    expect(saved).toMatchObject({
      credentialsType: 'X509_CERTIFICATE',
      credentialsId: createHash('sha256').update(der).digest('hex'),
      credentialsValue: pem,
    });
    expect(await get(api, device.id)).toEqual(saved);
  });

  it('refuses a malformed PEM, a private key and a key that is not RSA', async () => {
    const { api } = await makeDeviceApp();
    const device = await api.createDevice();
    const pairs = {
      ec: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
      rsa: generateKeyPairSync('rsa', { modulusLength: 2048 }),
    };
    const attempts: [string, string][] = [
      ['-----BEGIN PUBLIC KEY-----\nnot base64 at all\n-----END PUBLIC KEY-----', 'error.credentials.pemInvalid'],
      ['just text', 'error.credentials.pemInvalid'],
      [pairs.rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'error.credentials.pemInvalid'],
      [pairs.ec.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'error.credentials.notRsa'],
    ];
    for (const [credentialsValue, key] of attempts) {
      const res = await put(api, device.id, { credentialsType: 'X509_CERTIFICATE', credentialsValue });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ key, details: [{ field: 'body.credentialsValue' }] });
    }
    expect((await get(api, device.id)).credentialsType).toBe('ACCESS_TOKEN');
  });

  it('refuses a public key another device already uses', async () => {
    const { api } = await makeDeviceApp();
    const a = await api.createDevice();
    const b = await api.createDevice({ deviceProfileId: a.deviceProfileId });
    const pem = rsaPublicPem();
    await api.ok(credentialsRoutes.update, { params: { id: a.id }, body: { credentialsType: 'X509_CERTIFICATE', credentialsValue: pem } });
    expect((await put(api, b.id, { credentialsType: 'X509_CERTIFICATE', credentialsValue: pem })).json().key).toBe('error.credentials.certificateTaken');
  });

  it('stores MQTT basic credentials without ever answering the password', async () => {
    const { api } = await makeDeviceApp();
    const device = await api.createDevice();
    const value = JSON.stringify({ clientId: 'client-1', userName: 'meter', password: 'S3cret!' });
    const saved = await api.ok(credentialsRoutes.update, { params: { id: device.id }, body: { credentialsType: 'MQTT_BASIC', credentialsValue: value } });
    expect(saved.credentialsType).toBe('MQTT_BASIC');
    expect(saved.credentialsId).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(saved.credentialsValue!)).toEqual({ clientId: 'client-1', userName: 'meter', passwordSet: true });
    const fetched = await api.call(credentialsRoutes.get, { params: { id: device.id } });
    expect(fetched.body).not.toContain('S3cret!');
  });

  it('keeps the stored MQTT password when an edit leaves it out and removes it when null', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const save = (value: object) =>
      t.api.ok(credentialsRoutes.update, { params: { id: device.id }, body: { credentialsType: 'MQTT_BASIC', credentialsValue: JSON.stringify(value) } });
    await save({ userName: 'meter', password: 'first' });
    const kept = await save({ userName: 'meter2' });
    expect(JSON.parse(kept.credentialsValue!)).toEqual({ clientId: null, userName: 'meter2', passwordSet: true });
    expect(await deviceServicesOf(t).credentials.authenticate({ username: 'meter2', password: 'first' })).toMatchObject({ id: device.id });
    // The GET answer sent back unchanged keeps the password too.
    const roundTrip = await t.api.ok(credentialsRoutes.update, {
      params: { id: device.id },
      body: { credentialsType: kept.credentialsType, credentialsId: kept.credentialsId, credentialsValue: kept.credentialsValue },
    });
    expect(JSON.parse(roundTrip.credentialsValue!).passwordSet).toBe(true);
    const removed = await save({ userName: 'meter2', password: null });
    expect(JSON.parse(removed.credentialsValue!).passwordSet).toBe(false);
  });

  it('refuses MQTT basic credentials without client ID and user name, or not JSON', async () => {
    const { api } = await makeDeviceApp();
    const device = await api.createDevice();
    for (const [credentialsValue, key] of [
      [JSON.stringify({ password: 'only' }), 'error.credentials.mqttIdentityRequired'],
      [JSON.stringify({ clientId: ' ', userName: '' }), 'error.credentials.mqttIdentityRequired'],
      ['{not json', 'error.credentials.mqttValueInvalid'],
      [JSON.stringify({ clientId: 7 }), 'error.credentials.mqttValueInvalid'],
    ]) {
      const res = await put(api, device.id, { credentialsType: 'MQTT_BASIC', credentialsValue });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ key, details: [{ field: 'body.credentialsValue' }] });
    }
  });

  it('refuses a client ID or user name another device uses, and a user name equal to another token', async () => {
    const { api } = await makeDeviceApp();
    const a = await api.createDevice();
    const b = await api.createDevice({ deviceProfileId: a.deviceProfileId });
    const c = await api.createDevice({ deviceProfileId: a.deviceProfileId });
    await api.ok(credentialsRoutes.update, {
      params: { id: a.id },
      body: { credentialsType: 'MQTT_BASIC', credentialsValue: JSON.stringify({ clientId: 'c1', userName: 'u1' }) },
    });
    const mqtt = (value: object) => put(api, b.id, { credentialsType: 'MQTT_BASIC', credentialsValue: JSON.stringify(value) });
    expect((await mqtt({ clientId: 'c1' })).json()).toMatchObject({ key: 'error.credentials.clientIdTaken', details: [{ field: 'body.credentialsValue.clientId' }] });
    expect((await mqtt({ userName: 'u1' })).json()).toMatchObject({ key: 'error.credentials.userNameTaken', details: [{ field: 'body.credentialsValue.userName' }] });
    const token = (await get(api, c.id)).credentialsId;
    expect((await mqtt({ userName: token })).json().key).toBe('error.credentials.userNameTaken');
    // And the other way round: a token may not be a user name MQTT basic credentials use.
    expect((await put(api, c.id, { credentialsType: 'ACCESS_TOKEN', credentialsId: 'u1' })).json().key).toBe('error.credentials.tokenTaken');
  });

  it("accepts the spec's credential type names, stores them as ours and answers the spec's names beside", async () => {
    const { api } = await makeDeviceApp();
    const device = await api.createDevice();
    const pem = rsaPublicPem();
    const x509 = await api.ok(credentialsRoutes.update, { params: { id: device.id }, body: { credentialsType: 'X509', credentialsValue: pem } });
    expect(x509).toMatchObject({ credentialsType: 'X509_CERTIFICATE', specTypes: ['X509'], credentialsValue: pem });
    for (const specName of ['MQTT_CLIENT_ID', 'MQTT_USER_NAME', 'MQTT_PASSWORD']) {
      const value = JSON.stringify({ clientId: `c-${specName}`, userName: null, password: 'S3cret!' });
      const saved = await api.ok(credentialsRoutes.update, { params: { id: device.id }, body: { credentialsType: specName, credentialsValue: value } });
      expect(saved).toMatchObject({ credentialsType: 'MQTT_BASIC', specTypes: ['MQTT_CLIENT_ID', 'MQTT_PASSWORD'] });
    }
    const token = await api.ok(credentialsRoutes.update, { params: { id: device.id }, body: { credentialsType: 'ACCESS_TOKEN' } });
    expect(token.specTypes).toEqual(['ACCESS_TOKEN']);
    expect((await get(api, device.id)).specTypes).toEqual(['ACCESS_TOKEN']);
    // NAME identifies a device, it never authenticates one: refused as the schema's bad value.
    const name = await put(api, device.id, { credentialsType: 'NAME', credentialsValue: device.name });
    expect(name.statusCode).toBe(400);
    expect(name.json()).toMatchObject({ details: [{ field: 'body.credentialsType' }] });
  });

  it('regenerates the token: the new one authenticates, the old one no longer does', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const old = (await get(t.api, device.id)).credentialsId;
    const broker = deviceServicesOf(t).credentials;
    expect(await broker.authenticate({ username: old })).toMatchObject({ id: device.id, name: device.name });
    const fresh = await t.api.ok(credentialsRoutes.regenerate, { params: { id: device.id } });
    expect(fresh.credentialsType).toBe('ACCESS_TOKEN');
    expect(fresh.credentialsId).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(fresh.credentialsId).not.toBe(old);
    expect(await broker.authenticate({ username: old })).toBeNull();
    expect(await broker.authenticate({ username: fresh.credentialsId, password: 'ignored' })).toMatchObject({ id: device.id });
  });

  it('regenerates an access token for a device on MQTT basic credentials', async () => {
    const { api } = await makeDeviceApp();
    const device = await api.createDevice();
    await api.ok(credentialsRoutes.update, { params: { id: device.id }, body: { credentialsType: 'MQTT_BASIC', credentialsValue: '{"clientId":"c"}' } });
    expect((await api.ok(credentialsRoutes.regenerate, { params: { id: device.id } })).credentialsType).toBe('ACCESS_TOKEN');
  });

  it('authenticates MQTT basic clients by client ID, user name and password', async () => {
    const t = await makeDeviceApp();
    const both = await t.api.createDevice();
    const byUser = await t.api.createDevice({ deviceProfileId: both.deviceProfileId });
    const byClient = await t.api.createDevice({ deviceProfileId: both.deviceProfileId });
    const save = (id: string, value: object) =>
      t.api.ok(credentialsRoutes.update, { params: { id }, body: { credentialsType: 'MQTT_BASIC', credentialsValue: JSON.stringify(value) } });
    await save(both.id, { clientId: 'cid', userName: 'user', password: 'pw-1' });
    await save(byUser.id, { userName: 'solo', password: 'pw-2' });
    await save(byClient.id, { clientId: 'lonely' });
    const broker = deviceServicesOf(t).credentials;
    expect(await broker.authenticate({ clientId: 'cid', username: 'user', password: 'pw-1' })).toMatchObject({ id: both.id });
    expect(await broker.authenticate({ clientId: 'cid', username: 'user', password: Buffer.from('pw-1') })).toMatchObject({ id: both.id });
    expect(await broker.authenticate({ clientId: 'cid', username: 'user', password: 'wrong' })).toBeNull();
    expect(await broker.authenticate({ clientId: 'cid', username: 'other', password: 'pw-1' })).toBeNull();
    expect(await broker.authenticate({ clientId: 'x', username: 'user', password: 'pw-1' })).toBeNull();
    expect(await broker.authenticate({ clientId: 'any', username: 'solo', password: 'pw-2' })).toMatchObject({ id: byUser.id });
    expect(await broker.authenticate({ clientId: 'any', username: 'solo' })).toBeNull();
    expect(await broker.authenticate({ clientId: 'lonely' })).toMatchObject({ id: byClient.id });
    expect(await broker.authenticate({})).toBeNull();
  });

  it('authenticates an X.509 client by its public key', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const pem = rsaPublicPem();
    await t.api.ok(credentialsRoutes.update, { params: { id: device.id }, body: { credentialsType: 'X509_CERTIFICATE', credentialsValue: pem } });
    const broker = deviceServicesOf(t).credentials;
    expect(broker.authenticateX509(pem)).toMatchObject({ id: device.id });
    expect(broker.authenticateX509(rsaPublicPem())).toBeNull();
  });

  it('announces every credentials change on the event bus', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const bus = new EventBus();
    const heard: Events['device.credentialsChanged'][] = [];
    bus.on('device.credentialsChanged', (e) => heard.push(e));
    const services = deviceServicesOf(t, bus);
    services.credentials.regenerate(device.id);
    await services.credentials.update(device.id, { credentialsType: 'MQTT_BASIC', credentialsValue: '{"clientId":"c"}' });
    expect(heard).toEqual([
      { deviceId: device.id, credentialsType: 'ACCESS_TOKEN' },
      { deviceId: device.id, credentialsType: 'MQTT_BASIC' },
    ]);
  });
});
