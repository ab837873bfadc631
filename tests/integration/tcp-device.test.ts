/**
 * The TCP access port attacked from outside, over raw sockets from several loopback addresses
 * (127.0.0.x are all this host on Linux): registrations cannot be read off it byte by byte, guessed
 * fast, taken from a live DTU, or used on MQTT and HTTP; silent sockets cannot use up the
 * gateway's files; refusals do not flood the log.
 */
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import { REGISTRATION_MAX_BYTES } from '../../server/contract/tcp-device.ts';
import type { TcpAccessLimits } from '../../server/modules/tcp-device/tcp-access-limits.ts';
import { DATABASE_FILE } from '../../server/lib/data-dir.ts';
import { makeApp } from '../helpers/app.ts';
import { capturedLog } from '../helpers/captured-log.ts';
import { DeviceApi, makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { eventually } from '../helpers/mqtt.ts';
import { createRoleUser } from '../helpers/roles.ts';
import { signIn } from '../helpers/session.ts';

/** Windows long enough never to end during a test unless it waits for that. */
const LONG = { identifyTimeoutMs: 120_000, keepaliveMs: 120_000 };

const opened: Socket[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.destroy();
});

async function app(limits: Partial<TcpAccessLimits> = {}, logger?: ReturnType<typeof capturedLog>['logger']): Promise<DeviceTestApp> {
  return makeDeviceApp({ tuning: { tcp: { ...LONG, ...limits } }, ...(logger ? { logger } : {}) });
}

function server(t: DeviceTestApp) {
  return t.app.services!.tcpAccess!.server;
}

/** A client socket from `from` (a loopback address), with a promise of its close. */
async function open(t: DeviceTestApp, from = '127.0.0.1'): Promise<Socket & { gone: Promise<void> }> {
  const socket = connect({ port: server(t).port, host: '127.0.0.1', localAddress: from });
  opened.push(socket);
  socket.on('error', () => undefined);
  const gone = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('close', () => reject(new Error('closed before connecting')));
  });
  return Object.assign(socket, { gone });
}

let serial = 0;

/** A device of a custom TCP product (registration sent first), with a registration given or (`generated`) left to the gateway. */
async function tcpDevice(t: DeviceTestApp, registration: 'given' | 'generated' = 'given'): Promise<Device & { code: Buffer }> {
  const product = await t.api.createProduct({ transportType: 'TCP', tcpProtocolType: 'CUSTOM', tcpAuthType: 'REGISTER_SEND' });
  serial += 1;
  const given = registration === 'given' ? { registration: { format: 'ASCII' as const, value: `DTU-SITE-${serial}-7Q2X` } } : {};
  const device = await t.api.createDevice({ deviceProfileId: product.id, ...given });
  return { ...device, code: Buffer.from(device.registration!.value, 'latin1') };
}

async function state(t: DeviceTestApp, id: string): Promise<Device['deviceState']> {
  return (await t.api.ok(deviceRoutes.get, { params: { id } })).deviceState;
}

/** Opens a connection from `from` that registers as `device` and waits until the device is ONLINE. */
async function registered(t: DeviceTestApp, device: { id: string; code: Buffer }, from = '127.0.0.1') {
  const socket = await open(t, from);
  socket.write(device.code);
  await eventually(() => state(t, device.id), (s) => s === 'ONLINE', 10_000);
  return socket;
}

describe('the TCP access port tells nothing about registrations', () => {
  it('keeps bytes that begin no registration open like a prefix, closing both only at the registration length', async () => {
    const t = await app();
    const device = await tcpDevice(t);
    const stranger = await open(t, '127.0.0.2');
    stranger.write(Buffer.alloc(REGISTRATION_MAX_BYTES - 1, 0x00));
    const prefix = await open(t, '127.0.0.3');
    prefix.write(device.code.subarray(0, 5));
    // Something later registers and is served: by then the port has read both guesses.
    const dtu = await registered(t, device, '127.0.0.4');
    expect(stranger.destroyed).toBe(false);
    expect(prefix.destroyed).toBe(false);

    // The registration's full length without a registration in front: closed, the same for both.
    stranger.write(Buffer.from([0x00]));
    await stranger.gone;
    prefix.write(Buffer.alloc(REGISTRATION_MAX_BYTES - 5, 0x00));
    await prefix.gone;
    expect(server(t).refusals.unidentified).toBe(2);
    expect(dtu.destroyed).toBe(false);
  });

  it('closes a connection that sent bytes of no registration when its window ends, as one that sent nothing', async () => {
    const t = await app({ identifyTimeoutMs: 300 });
    await tcpDevice(t);
    const garbage = await open(t);
    garbage.write('\x00\xff garbage that is no registration');
    const silent = await open(t);
    await garbage.gone;
    await silent.gone;
    expect(server(t).refusals).toMatchObject({ unidentified: 0, timeouts: 2 });
    expect((await t.api.call(deviceRoutes.list, {})).statusCode).toBe(200);
  });

  it('gives a new TCP device a registration code of its own, and its access token does not register', async () => {
    const t = await app();
    const device = await tcpDevice(t, 'generated');
    const { credentialsId: token } = await t.api.ok(credentialsRoutes.get, { params: { id: device.id } });
    expect(device.registration).toMatchObject({ format: 'ASCII', value: expect.stringMatching(/^[A-Z0-9]{20}$/) });
    expect(device.registration!.value).not.toBe(token);

    const withToken = await open(t);
    withToken.write(Buffer.concat([Buffer.from(token!, 'latin1'), Buffer.alloc(REGISTRATION_MAX_BYTES, 0x20)]));
    await withToken.gone;
    expect(await state(t, device.id)).not.toBe('ONLINE');
    await registered(t, device);

    // An edit that leaves the registration out keeps it; a new token does not change it.
    const edited = await t.api.ok(deviceRoutes.update, {
      body: { id: device.id, name: device.name, deviceType: device.deviceType, deviceProfileId: device.deviceProfileId, label: 'pump house' },
    });
    expect(edited.registration).toEqual(device.registration);
    await t.api.ok(credentialsRoutes.regenerate, { params: { id: device.id } });
    expect((await t.api.ok(deviceRoutes.get, { params: { id: device.id } })).registration).toEqual(device.registration);
  });

  it('stops taking registrations from an address after too many failures, while other addresses still register', async () => {
    const t = await app({ failureLimit: 3 });
    const device = await tcpDevice(t);
    for (let i = 0; i < 3; i++) {
      const guess = await open(t, '127.0.0.2');
      guess.write(Buffer.alloc(REGISTRATION_MAX_BYTES, 0x41 + i));
      await guess.gone;
    }
    // Even the right registration is refused from there now: a lock that let it through would not slow a guesser.
    const right = await open(t, '127.0.0.2').catch(() => null);
    right?.write(device.code);
    await right?.gone;
    expect(server(t).refusals.rateLimited).toBe(1);
    expect(await state(t, device.id)).not.toBe('ONLINE');
    await registered(t, device, '127.0.0.3');
  });
});

describe('a live link keeps its registration', () => {
  it('refuses a second connection with the same registration from another address while the link is live, and counts it', async () => {
    const t = await app();
    const device = await tcpDevice(t);
    const dtu = await registered(t, device, '127.0.0.2');
    const thief = await open(t, '127.0.0.3');
    thief.write(device.code);
    await thief.gone;
    expect(dtu.destroyed).toBe(false);
    expect(server(t).refusals.takeovers).toBe(1);
    expect(t.app.services!.tcpAccess!.connections.get(device.id)?.remoteHost).toBe('127.0.0.2');
    // What the gateway writes still goes to the DTU.
    const heard = new Promise<Buffer>((resolve) => dtu.once('data', resolve));
    expect(t.app.services!.tcpAccess!.connections.write(device.id, Buffer.from('poll'))).toBe(true);
    expect((await heard).toString()).toBe('poll');
  });

  it('lets the DTU back in from a new address once its old link has been silent past the keepalive', async () => {
    const t = await app({ keepaliveMs: 200 });
    const device = await tcpDevice(t);
    const old = await registered(t, device, '127.0.0.2');
    await eventually(
      async () => {
        const next = await open(t, '127.0.0.3');
        next.write(device.code);
        await eventually(() => next.destroyed || t.app.services!.tcpAccess!.connections.get(device.id)?.remoteHost === '127.0.0.3', (done) => done, 5_000);
        return !next.destroyed;
      },
      (took) => took,
      10_000,
    );
    await old.gone;
    expect(await state(t, device.id)).toBe('ONLINE');
  });
});

describe('unregistered connections cannot use up the gateway’s files', () => {
  it('caps unregistered connections per address, and the others still register', async () => {
    const t = await app({ unregisteredPerAddress: 2 });
    const device = await tcpDevice(t);
    await open(t, '127.0.0.2');
    await open(t, '127.0.0.2');
    const third = await open(t, '127.0.0.2').catch(() => null);
    await third?.gone;
    expect(server(t).refusals.busy).toBe(1);
    await registered(t, device, '127.0.0.3');
  });

  it('caps unregistered connections in total from the open-file limit, keeping HTTP answering', async () => {
    // 64 files: the smallest share, 8 unregistered connections.
    const t = await app({ openFileLimit: 64, unregisteredPerAddress: 4 });
    const device = await tcpDevice(t);
    const held: Socket[] = [];
    for (const from of ['127.0.0.2', '127.0.0.3']) for (let i = 0; i < 4; i++) held.push(await open(t, from));
    const ninth = await open(t, '127.0.0.4').catch(() => null);
    await ninth?.gone;
    expect(server(t).refusals.busy).toBe(1);
    expect((await t.api.call(deviceRoutes.list, {})).statusCode).toBe(200);
    // Room again once one goes: a DTU registers.
    held[0]!.destroy();
    await eventually(() => server(t).unregistered, (n) => n < 8, 10_000);
    await registered(t, device, '127.0.0.5');
  });
});

describe('refusals are counted, not logged one by one', () => {
  it('writes one warning for many refused connections and counts them all', async () => {
    const log = capturedLog('info');
    const t = await app({}, log.logger);
    await tcpDevice(t);
    for (let i = 0; i < 5; i++) {
      const guess = await open(t, `127.0.0.${2 + i}`);
      guess.write(Buffer.alloc(REGISTRATION_MAX_BYTES, 0x42));
      await guess.gone;
    }
    expect(server(t).refusals.unidentified).toBe(5);
    const warnings = log.lines().filter((l) => typeof l.msg === 'string' && l.msg.includes('no known registration'));
    expect(warnings).toHaveLength(1);
  });
});

describe('the registration is a credential', () => {
  it('refuses a tenant administrator a new registration through the device edit, and lets the unchanged one pass', async () => {
    const t = await app();
    const device = await tcpDevice(t);
    const tenant = await createRoleUser(t.api, 'TENANT_ADMIN');
    const body = { id: device.id, name: device.name, deviceType: device.deviceType, deviceProfileId: device.deviceProfileId };
    const changed = await tenant.api.call(deviceRoutes.update, { body: { ...body, registration: { format: 'ASCII', value: 'MY-OWN-DTU' } } });
    expect(changed.statusCode).toBe(403);
    expect((await t.api.ok(deviceRoutes.get, { params: { id: device.id } })).registration).toEqual(device.registration);
    expect((await tenant.api.call(deviceRoutes.update, { body: { ...body, registration: device.registration, label: 'kept' } })).statusCode).toBe(200);
    const bySysAdmin = await t.api.ok(deviceRoutes.update, { body: { ...body, registration: { format: 'ASCII', value: 'MY-OWN-DTU' } } });
    expect(bySysAdmin.registration).toEqual({ format: 'ASCII', value: 'MY-OWN-DTU' });
  });
});

describe('DTUs registered with their access token before the upgrade', () => {
  it('keep registering with the same bytes after migration 0042, which a new access token no longer changes, and the gateway warns about them', async () => {
    const t = await app();
    const product = await t.api.createProduct({ transportType: 'TCP', tcpProtocolType: 'CUSTOM', tcpAuthType: 'REGISTER_SEND' });
    const device = await t.api.createDevice({ deviceProfileId: product.id });
    const { credentialsId: token } = await t.api.ok(credentialsRoutes.get, { params: { id: device.id } });
    await t.app.close();
    // The database as the release before left it: no registration of its own, 0042 not applied.
    const db = new DatabaseSync(join(t.dataDir, DATABASE_FILE));
    db.prepare('UPDATE device SET registration_format = NULL, registration_value = NULL, registration_hex = NULL WHERE id = ?').run(device.id);
    db.prepare("DELETE FROM schema_migration WHERE id = '0042-device-registration-apart'").run();
    db.close();

    const log = capturedLog('info');
    const again = await makeApp({ dataDir: t.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem], tuning: { tcp: LONG }, logger: log.logger });
    const admin = new DeviceApi(again.app, (await signIn(again.app, t.admin.username, t.admin.password)).token);
    const upgraded = { ...again, api: admin, admin: t.admin, anonymous: admin } as DeviceTestApp;
    expect((await admin.ok(deviceRoutes.get, { params: { id: device.id } })).registration).toEqual({ format: 'ASCII', value: token });
    expect(log.lines().some((l) => l.msg === 'TCP devices register with their access token; give them a new access token (docs/SECURITY.md)' && l.devices === 1)).toBe(true);
    const dtu = await registered(upgraded, { id: device.id, code: Buffer.from(token!, 'latin1') });
    dtu.destroy();
    await admin.ok(credentialsRoutes.regenerate, { params: { id: device.id } });
    expect((await admin.ok(deviceRoutes.get, { params: { id: device.id } })).registration).toEqual({ format: 'ASCII', value: token });
    await again.app.close();
  });
});
