import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firmwareRoutes, type FirmwareList } from '../../server/contract/firmware.ts';
import { runningArch } from '../../server/lib/firmware/firmware-format.ts';
import { expectError } from '../helpers/error-body.ts';
import { firmwareKeys, signedPackage } from '../helpers/firmware-package.ts';
import { multipart } from '../helpers/multipart.ts';
import { smallDisk } from '../helpers/small-disk.ts';
import { authHeader, createAdmin, makeLicensedApp } from '../helpers/session.ts';
import { ContractClient } from '../helpers/devices.ts';
import { createRoleUser } from '../helpers/roles.ts';
import type { TestApp } from '../helpers/app.ts';

const binary = Buffer.from('#!/bin/sh\nexit 0\n'.padEnd(4096, '#'));
const otherArch = runningArch() === 'arm64' ? 'x64' : 'arm64';

async function gateway(minFreeDiskMb = 64, dataDir?: string): Promise<TestApp & { token: string }> {
  const t = await makeLicensedApp({ firmwarePublicKeys: [firmwareKeys().publicKeyFile], minFreeDiskMb, ...(dataDir ? { dataDir } : {}) });
  return { ...t, token: (await createAdmin(t)).token };
}

function upload(t: TestApp & { token: string }, content: Buffer, token = t.token) {
  const body = multipart({ file: { filename: 'edge.fw', content } });
  return t.app.inject({ method: 'POST', url: firmwareRoutes.upload.url, headers: { ...body.headers, ...authHeader(token), 'accept-language': 'en-US' }, payload: body.payload });
}

function apply(t: TestApp & { token: string }, id: string, allowDowngrade?: boolean) {
  return t.app.inject({ method: 'POST', url: `/api/yt/firmware/${id}/apply`, headers: authHeader(t.token), payload: allowDowngrade === undefined ? {} : { allowDowngrade } });
}

async function list(t: TestApp & { token: string }): Promise<FirmwareList> {
  return (await t.app.inject({ method: 'GET', url: firmwareRoutes.list.url, headers: authHeader(t.token) })).json<FirmwareList>();
}

describe('firmware upload', () => {
  it('stores a signed package for this architecture and lists it as verified', async () => {
    const t = await gateway();
    const res = await upload(t, signedPackage(binary, { version: '2.0.0' }));
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json<{ id: string }>();
    expect(res.json()).toEqual({ id, version: '2.0.0', arch: runningArch(), verified: true });
    const listed = await list(t);
    expect(listed.runningVersion).toBe('0.0.0-test');
    expect(listed.packages).toEqual([expect.objectContaining({ id, version: '2.0.0', status: 'staged', size: binary.length })]);
    expect(readFileSync(join(t.dataDir, 'firmware', 'packages', `${id}.fw`)).subarray(-binary.length)).toEqual(binary);
  });

  it('refuses a tampered byte, a wrong architecture, an unknown signer and a truncated file, keeping none of them', async () => {
    const t = await gateway();
    const good = signedPackage(binary, { version: '2.0.0' });
    const tampered = Buffer.from(good);
    tampered[tampered.length - 100] = tampered[tampered.length - 100]! ^ 0xff;
    const stranger = generateKeyPairSync('ed25519').privateKey;
    const cases: [Buffer, string][] = [
      [tampered, 'error.firmware.tampered'],
      [signedPackage(binary, { arch: otherArch }), 'error.firmware.wrongArch'],
      [signedPackage(binary, {}, stranger), 'error.firmware.unknownKey'],
      [good.subarray(0, good.length - 10), 'error.firmware.truncated'],
      [Buffer.from('not a firmware file at all, just text'), 'error.firmware.badFormat'],
    ];
    for (const [content, key] of cases) expectError(await upload(t, content), 400, 31, key);
    expect((await list(t)).packages).toEqual([]);
  });

  it('refuses a byte flipped in each part of the package (magic, manifest, signature, binary) with the reason that part gives', async () => {
    const t = await gateway();
    const good = signedPackage(binary, { version: '2.0.0' });
    const manifestEnd = 12 + good.readUInt32BE(8);
    // A changed manifest or signature no longer verifies under any trusted key: the server cannot
    // tell a forged header from one signed elsewhere, and says both (error.firmware.unknownKey).
    const cases: [string, number, string][] = [
      ['magic', 3, 'error.firmware.badFormat'],
      ['manifest', 12 + 10, 'error.firmware.unknownKey'],
      ['signature', manifestEnd + 5, 'error.firmware.unknownKey'],
      ['first binary byte', manifestEnd + 64, 'error.firmware.tampered'],
      ['last binary byte', good.length - 1, 'error.firmware.tampered'],
    ];
    for (const [part, at, key] of cases) {
      const bad = Buffer.from(good);
      bad[at] = bad[at]! ^ 0x01;
      const res = await upload(t, bad);
      expect(res.statusCode, part).toBe(400);
      expectError(res, 400, 31, key);
      expect(res.json<{ message: string }>().message, part).not.toMatch(/^error\./);
    }
    expect((await list(t)).packages).toEqual([]);
    expect(readdirSync(join(t.dataDir, 'firmware', 'packages'))).toEqual([]);
  });

  // A real small disk (a tmpfs of this test's own) needs root to mount; CI and this machine run as root, and without it the mount fails loudly rather than skipping.
  it('refuses a package bigger than the free space of a really small disk, and still takes one that fits', async () => {
    const disk = smallDisk('8m');
    try {
      const t = await gateway(0, disk.dir);
      expectError(await upload(t, signedPackage(Buffer.alloc(12 * 1024 * 1024, 7), { version: '2.0.0' })), 507, 41, 'error.diskFull');
      expect(readdirSync(join(t.dataDir, 'firmware', 'packages'))).toEqual([]);
      expect((await upload(t, signedPackage(binary, { version: '2.0.1' }))).statusCode).toBe(200);
      await t.app.close();
    } finally {
      disk.release();
    }
  });

  it('refuses a package the disk cannot take above its free-space floor, before writing any of it', async () => {
    // A floor no disk meets stands in for a full one: the declared size is checked before the stream starts.
    const t = await gateway(1024 * 1024 * 1024);
    expectError(await upload(t, signedPackage(binary, { version: '2.0.0' })), 507, 41, 'error.diskFull');
    expect(readdirSync(join(t.dataDir, 'firmware', 'packages'))).toEqual([]);
  });

  it('is for system administrators only', async () => {
    const t = await gateway();
    const tenant = await createRoleUser(new ContractClient(t.app, t.token), 'TENANT_ADMIN');
    expect((await upload(t, signedPackage(binary), tenant.token)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: firmwareRoutes.list.url, headers: authHeader(tenant.token) })).statusCode).toBe(403);
  });
});

describe('firmware apply', () => {
  it('stages a newer package: its binary extracted, the database copied aside and the next start set to a trial', async () => {
    const t = await gateway();
    const { id } = (await upload(t, signedPackage(binary, { version: '2.0.0' }))).json<{ id: string }>();
    const res = await apply(t, id);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ id, version: '2.0.0', restarting: true });
    const dir = join(t.dataDir, 'firmware');
    expect(readFileSync(join(dir, 'bin', id))).toEqual(binary);
    expect(existsSync(join(dir, 'pre-update.db'))).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'))).toMatchObject({ phase: 'trial', trial: { packageId: id, attempts: 0 } });
    expect((await list(t)).packages[0]).toMatchObject({ id, status: 'trial' });
    // One trial at a time.
    expectError(await apply(t, id), 409, 35, 'error.firmware.busy');
  });

  it('refuses an equal or older version unless the caller allows a downgrade', async () => {
    const t = await gateway();
    const { id } = (await upload(t, signedPackage(binary, { version: '0.0.0-test' }))).json<{ id: string }>();
    expectError(await apply(t, id), 409, 35, 'error.firmware.downgrade');
    expect(existsSync(join(t.dataDir, 'firmware', 'state.json'))).toBe(false);
    expect((await apply(t, id, true)).statusCode).toBe(202);
  });

  it('refuses a package that may not update from the running version, and an unknown id', async () => {
    const t = await gateway();
    const { id } = (await upload(t, signedPackage(binary, { version: '3.0.0', minVersion: '1.0.0' }))).json<{ id: string }>();
    expectError(await apply(t, id), 409, 35, 'error.firmware.tooOld');
    expectError(await apply(t, '0123456789abcdef'), 404, 32, 'error.firmware.notFound');
  });
});
