import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '../../server/contract/validation.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { expectError } from '../helpers/error-body.ts';
import { multipart, type MultipartFile } from '../helpers/multipart.ts';
import { authHeader, createAdmin, makeLicensedApp, makeSignedInApp, type SignedIn } from '../helpers/session.ts';
import { ContractClient } from '../helpers/devices.ts';
import { createRoleUser } from '../helpers/roles.ts';

type Ready = TestApp & { admin: SignedIn };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG signature followed by filler: enough for the content check, any size we like. */
function png(size = 64, fill = 1): Buffer {
  return Buffer.concat([PNG_SIGNATURE, Buffer.alloc(size - PNG_SIGNATURE.length, fill)]);
}

function upload(t: TestApp, fields: Record<string, MultipartFile | string>, token?: string) {
  const body = multipart(fields);
  return t.app.inject({
    method: 'POST',
    url: '/api/yt/oss/upload',
    headers: { ...body.headers, ...(token ? authHeader(token) : {}), 'accept-language': 'en-US' },
    payload: body.payload,
  });
}

function uploadFile(t: Ready, filename: string, content: Buffer | string) {
  return upload(t, { file: { filename, content } }, t.admin.token);
}

describe('POST /api/yt/oss/upload', () => {
  it('stores a PNG by content hash and serves the same bytes back with caching and nosniff headers', async () => {
    const t = await makeSignedInApp();
    const content = png(2048, 7);
    const res = await uploadFile(t, 'My Avatar.PNG', content);
    expect(res.statusCode, res.body).toBe(200);
    const sha = createHash('sha256').update(content).digest('hex');
    expect(res.json()).toEqual({ fileStaticUri: `/api/yt/oss/files/${sha}.png` });
    expect(existsSync(join(t.dataDir, 'oss', `${sha}.png`))).toBe(true);

    // Public: an <img> tag sends no bearer token.
    const served = await t.app.inject({ method: 'GET', url: `/api/yt/oss/files/${sha}.png` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(content)).toBe(true);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    ['photo.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60)]), 'image/jpeg'],
    ['photo.jpeg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1]), Buffer.alloc(60)]), 'image/jpeg'],
    ['anim.gif', Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(60)]), 'image/gif'],
    ['old.gif', Buffer.concat([Buffer.from('GIF87a'), Buffer.alloc(60)]), 'image/gif'],
  ])('accepts %s and serves it as %s', async (filename, content, mime) => {
    const t = await makeSignedInApp();
    const res = await uploadFile(t, filename, content);
    expect(res.statusCode, res.body).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: res.json().fileStaticUri });
    expect(served.headers['content-type']).toBe(mime);
    expect(served.rawPayload.equals(content)).toBe(true);
  });

  it('answers the same address for the same content uploaded twice', async () => {
    const t = await makeSignedInApp();
    const first = await uploadFile(t, 'a.png', png());
    const second = await uploadFile(t, 'b.png', png());
    expect(second.json()).toEqual(first.json());
  });

  it('refuses a text file named .png', async () => {
    const t = await makeSignedInApp();
    const body = expectError(await uploadFile(t, 'evil.png', '<script>alert(1)</script>'), 400, 31, 'error.upload.badType');
    expect(body.message).toBe('Unsupported file type; allowed: png, jpg, jpeg, gif');
  });

  it('refuses JPEG content named .png', async () => {
    const t = await makeSignedInApp();
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60)]);
    expectError(await uploadFile(t, 'photo.png', jpeg), 400, 31, 'error.upload.badType');
  });

  it.each(['setup.exe', 'notes.txt', 'noextension'])('refuses %s even with PNG content', async (filename) => {
    const t = await makeSignedInApp();
    expectError(await uploadFile(t, filename, png()), 400, 31, 'error.upload.badType');
  });

  it('accepts a 4.9 MB image: multipart uploads are not held to the 1 MB JSON body limit', async () => {
    const t = await makeSignedInApp();
    const res = await uploadFile(t, 'big.png', png(Math.floor(4.9 * 1024 * 1024)));
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses a 5.1 MB image with 413 naming the 5 MB limit', async () => {
    const t = await makeSignedInApp();
    const res = await uploadFile(t, 'huge.png', png(Math.ceil(5.1 * 1024 * 1024)));
    const body = expectError(res, 413, 31, 'error.upload.tooLarge');
    expect(body.message).toBe('The file size exceeds 5 MB');
  });

  it('accepts exactly 5 MB and refuses one byte more', async () => {
    const t = await makeSignedInApp();
    expect((await uploadFile(t, 'max.png', png(UPLOAD_MAX_BYTES))).statusCode).toBe(200);
    expectError(await uploadFile(t, 'over.png', png(UPLOAD_MAX_BYTES + 1)), 413, 31, 'error.upload.tooLarge');
  });

  it('asks for a file when the form has none', async () => {
    const t = await makeSignedInApp();
    const body = expectError(await upload(t, { note: 'no file here' }, t.admin.token), 400, 31, 'error.upload.fileRequired');
    expect(body.details?.[0]?.field).toBe('file');
  });

  it('asks for a file when it comes under another field name', async () => {
    const t = await makeSignedInApp();
    expectError(await upload(t, { image: { filename: 'a.png', content: png() } }, t.admin.token), 400, 31, 'error.upload.fileRequired');
  });

  it('asks for a file when the request is not multipart', async () => {
    const t = await makeSignedInApp();
    const res = await t.app.inject({ method: 'POST', url: '/api/yt/oss/upload', headers: authHeader(t.admin.token), payload: { file: 'x' } });
    expectError(res, 400, 31, 'error.upload.fileRequired');
  });

  it('refuses an empty file', async () => {
    const t = await makeSignedInApp();
    expectError(await uploadFile(t, 'empty.png', Buffer.alloc(0)), 400, 31, 'error.upload.fileRequired');
  });

  it('requires a signed-in caller', async () => {
    const t = await makeSignedInApp();
    expectError(await upload(t, { file: { filename: 'a.png', content: png() } }), 401, 10, 'error.auth.required');
  });

  it('answers code 99 while no licence is installed', async () => {
    const t = await makeApp();
    const admin = await createAdmin(t);
    expectError(await upload(t, { file: { filename: 'a.png', content: png() } }, admin.token), 403, 99, 'error.license.required');
  });
});

describe('GET /api/yt/oss/files/:name', () => {
  it('answers 404 with the error body for a file never uploaded', async () => {
    const t = await makeApp();
    expectError(await t.app.inject({ method: 'GET', url: `/api/yt/oss/files/${'0'.repeat(64)}.png` }), 404, 32, 'error.notFound');
  });

  it('refuses names that are not a content hash, such as a path escape', async () => {
    const t = await makeApp();
    expectError(await t.app.inject({ method: 'GET', url: '/api/yt/oss/files/..%2Fedge.db' }), 400, 31, 'error.validation');
    expectError(await t.app.inject({ method: 'GET', url: '/api/yt/oss/files/secrets.json' }), 400, 31, 'error.validation');
  });
});

describe('uploads over real HTTP', () => {
  it('accepts 4.9 MB and refuses 5.1 MB sent by a browser-like client, storing nothing truncated', async () => {
    const t = await makeSignedInApp();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const send = async (size: number): Promise<Response> => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(png(size))]), 'photo.png');
      return fetch(`${address}/api/yt/oss/upload`, { method: 'POST', body: form, headers: authHeader(t.admin.token) });
    };
    expect((await send(Math.floor(4.9 * 1024 * 1024))).status).toBe(200);
    const over = await send(Math.ceil(5.1 * 1024 * 1024));
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({ code: 31, key: 'error.upload.tooLarge' });
    expect(readdirSync(join(t.dataDir, 'oss'))).toHaveLength(1);
  });
});

function remove(t: TestApp, uri: string, token: string) {
  return t.app.inject({ method: 'DELETE', url: '/api/yt/oss', query: { deleteFilePath: uri }, headers: { ...authHeader(token), 'accept-language': 'en-US' } });
}

async function storedUri(t: TestApp, token: string, content: Buffer): Promise<string> {
  const res = await upload(t, { file: { filename: 'image.png', content } }, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { fileStaticUri: string }).fileStaticUri;
}

describe('upload owners', () => {
  it("refuses a tenant administrator who deletes the administrator's image with 403, and the image stays", async () => {
    const t = await makeSignedInApp();
    const tenant = await createRoleUser(new ContractClient(t.app, t.admin.token), 'TENANT_ADMIN');
    const uri = await storedUri(t, t.admin.token, png(128, 3));
    const res = await remove(t, uri, tenant.token);
    expectError(res, 403, 20, 'error.upload.notOwner');
    expect((await t.app.inject({ method: 'GET', url: uri })).statusCode).toBe(200);
  });

  it("lets the uploader delete their own image, and the administrator (oss:manage) anyone's", async () => {
    const t = await makeSignedInApp();
    const tenant = await createRoleUser(new ContractClient(t.app, t.admin.token), 'TENANT_ADMIN');
    const own = await storedUri(t, tenant.token, png(128, 4));
    expect((await remove(t, own, tenant.token)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: own })).statusCode).toBe(404);
    const theirs = await storedUri(t, tenant.token, png(128, 5));
    expect((await remove(t, theirs, t.admin.token)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: theirs })).statusCode).toBe(404);
  });

  it('keeps the file for the other uploader of the same content when one of them deletes it', async () => {
    const t = await makeSignedInApp();
    const tenant = await createRoleUser(new ContractClient(t.app, t.admin.token), 'TENANT_ADMIN');
    const uri = await storedUri(t, t.admin.token, png(128, 6));
    expect(await storedUri(t, tenant.token, png(128, 6))).toBe(uri);
    expect((await remove(t, uri, tenant.token)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: uri })).statusCode).toBe(200);
  });
});

describe('upload limits', () => {
  it('keeps only the avatar and the newest upload of a customer, so a customer cannot fill the disk', async () => {
    const t = await makeSignedInApp();
    const customer = await createRoleUser(new ContractClient(t.app, t.admin.token), 'CUSTOMER_USER');
    const avatar = await storedUri(t, customer.token, png(1024, 10));
    const profile = await t.app.inject({ method: 'PUT', url: '/api/yt/user/center', headers: authHeader(customer.token), payload: { id: customer.user.id, realName: 'Customer', avatar } });
    expect(profile.statusCode, profile.body).toBe(200);
    const uris: string[] = [];
    for (let i = 11; i < 17; i++) uris.push(await storedUri(t, customer.token, png(1024, i)));
    const served = async (uri: string): Promise<number> => (await t.app.inject({ method: 'GET', url: uri })).statusCode;
    expect(await served(avatar)).toBe(200);
    expect(await served(uris.at(-1)!)).toBe(200);
    for (const uri of uris.slice(0, -1)) expect(await served(uri), uri).toBe(404);
    expect(readdirSync(join(t.dataDir, 'oss'))).toHaveLength(2);
  });

  it("refuses an upload past the user's quota with 507", async () => {
    const t = await makeLicensedApp({ tuning: { ossQuotaBytes: 3000 } });
    const admin = await createAdmin(t);
    await storedUri(t, admin.token, png(2000, 1));
    const res = await upload(t, { file: { filename: 'b.png', content: png(2000, 2) } }, admin.token);
    expectError(res, 507, 41, 'error.upload.quotaExceeded');
    // Content the user already holds costs nothing more.
    expect((await upload(t, { file: { filename: 'a.png', content: png(2000, 1) } }, admin.token)).statusCode).toBe(200);
  });

  it('refuses an upload that would take free disk space below --min-free-disk-mb with the disk-full 507, storing nothing', async () => {
    const t = await makeLicensedApp({ minFreeDiskMb: 1024 * 1024 * 1024 });
    const admin = await createAdmin(t);
    const res = await upload(t, { file: { filename: 'a.png', content: png(2000, 1) } }, admin.token);
    expectError(res, 507, 41, 'error.diskFull');
    expect(existsSync(join(t.dataDir, 'oss')) ? readdirSync(join(t.dataDir, 'oss')) : []).toHaveLength(0);
  });
});
