import { describe, expect, it } from 'vitest';
import { ossRoutes } from '../../server/contract/oss.ts';
import { bannerRoutes, guideRoutes, type OperationCreateBody } from '../../server/contract/operation.ts';
import { platformRoutes, type PlatformInfoBody } from '../../server/contract/platform.ts';
import { UPLOAD_MAX_BYTES } from '../../server/contract/validation.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { multipart } from '../helpers/multipart.ts';
import { createRoleUser } from '../helpers/roles.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size = 64): Buffer => Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 1)]);
const dataUri = (bytes: Buffer, type = 'png'): string => `data:image/${type};base64,${bytes.toString('base64')}`;

function branding(body: Partial<PlatformInfoBody> = {}): PlatformInfoBody {
  return { name: 'Plant 7', logo: dataUri(png()), icon: dataUri(png(80)), slogan: 'Edge first', ...body };
}

function banner(body: Partial<OperationCreateBody> = {}): OperationCreateBody {
  return { name: 'Spring', image: dataUri(png()), url: 'https://example.com/spring', status: 1, sort: 0, remark: '', ...body };
}

describe('branding (PUT /api/yt/platform/info)', () => {
  it('saves name, logo, icon and slogan, and the public GET answers them before sign-in', async () => {
    const t = await makeDeviceApp();
    const upload = await t.api.call(ossRoutes.upload, multipart({ file: { filename: 'logo.png', content: png(200) } }));
    const logo = (upload.json() as { fileStaticUri: string }).fileStaticUri;
    const saved = await t.api.ok(platformRoutes.update, { body: branding({ logo }) });
    expect(saved).toMatchObject({ name: 'Plant 7', logo, slogan: 'Edge first' });
    expect(await t.anonymous.ok(platformRoutes.info)).toEqual(saved);
  });

  it('refuses a missing logo or icon, an empty name and a link to a file outside the upload store', async () => {
    const t = await makeDeviceApp();
    const { logo: _logo, ...noLogo } = branding();
    expectError(await t.api.call(platformRoutes.update, { body: noLogo as PlatformInfoBody }), 400, 31, 'error.validation');
    expectError(await t.api.call(platformRoutes.update, { body: branding({ icon: '' }) }), 400, 31, 'error.validation');
    expectError(await t.api.call(platformRoutes.update, { body: branding({ name: ' ' }) }), 400, 31, 'error.validation');
    expectError(await t.api.call(platformRoutes.update, { body: branding({ logo: '/etc/passwd' }) }), 400, 31, 'error.validation');
    expect((await t.anonymous.ok(platformRoutes.info)).name).toBeNull();
  });

  it('refuses a data-URI image whose content is not the type it claims, and one over 5 MB', async () => {
    const t = await makeDeviceApp();
    const text = dataUri(Buffer.from('<svg onload=alert(1)>'), 'png');
    expectError(await t.api.call(platformRoutes.update, { body: branding({ logo: text }) }), 400, 31, 'error.upload.badType');
    const huge = dataUri(png(UPLOAD_MAX_BYTES + 3));
    expectError(await t.api.call(platformRoutes.update, { body: branding({ icon: huge }) }), 413, 31, 'error.upload.tooLarge');
  });

  it('lets only a platform administrator change it', async () => {
    const t = await makeDeviceApp();
    const tenant = await createRoleUser(t.api, 'TENANT_ADMIN');
    expectError(await tenant.api.call(platformRoutes.update, { body: branding() }), 403, 20, 'error.permissionDenied');
    expectError(await t.anonymous.call(platformRoutes.update, { body: branding() }), 401, 10, 'error.auth.required');
  });
});

describe('banners and guide entries', () => {
  it('shows only enabled banners on the login page, by sort, without a token', async () => {
    const t = await makeDeviceApp();
    const late = await t.api.ok(bannerRoutes.create, { body: banner({ name: 'Late', sort: 5 }) });
    const early = await t.api.ok(bannerRoutes.create, { body: banner({ name: 'Early', sort: -1, url: '' }) });
    await t.api.ok(bannerRoutes.create, { body: banner({ name: 'Hidden', status: 0 }) });
    expect((await t.anonymous.ok(bannerRoutes.shown)).map((b) => b.id)).toEqual([early.id, late.id]);
    const page = await t.api.ok(bannerRoutes.list, { query: { page: 1, pageSize: 2 } });
    expect(page.total).toBe(3);
    expect(page.items.map((b) => b.name)).toEqual(['Early', 'Hidden']);
  });

  it('edits and deletes a banner, and answers 404 for one that is not there', async () => {
    const t = await makeDeviceApp();
    const created = await t.api.ok(bannerRoutes.create, { body: banner() });
    const edited = await t.api.ok(bannerRoutes.update, { body: { ...banner({ name: 'Summer', status: 0 }), id: created.id } });
    expect(edited).toMatchObject({ id: created.id, name: 'Summer', status: 0, createTime: created.createTime });
    expectError(await t.api.call(bannerRoutes.update, { body: { ...banner(), id: 'nope' } }), 404, 32, 'error.notFound');
    expect(await t.api.ok(bannerRoutes.remove, { body: { ids: [created.id, 'nope'] } })).toEqual({ deleted: 1 });
    expect((await t.api.ok(bannerRoutes.list)).total).toBe(0);
  });

  it('requires a banner image, checks it by content, and refuses a javascript: link', async () => {
    const t = await makeDeviceApp();
    const { image: _image, ...noImage } = banner();
    expectError(await t.api.call(bannerRoutes.create, { body: noImage as OperationCreateBody }), 400, 31, 'error.field.required');
    expectError(await t.api.call(bannerRoutes.create, { body: banner({ image: dataUri(Buffer.from('GIF89a'), 'png') }) }), 400, 31, 'error.upload.badType');
    expectError(await t.api.call(bannerRoutes.create, { body: banner({ url: 'javascript:alert(1)' }) }), 400, 31, 'error.operation.url');
  });

  it('shows enabled guide entries to every signed-in user, and keeps them apart from banners', async () => {
    const t = await makeDeviceApp();
    const entry = await t.api.ok(guideRoutes.create, { body: banner({ name: 'Devices', url: '/device-manage/device' }) });
    expectError(await t.api.call(guideRoutes.create, { body: banner({ url: 'https://example.com' }) }), 400, 31, 'error.operation.url');
    const customer = await createRoleUser(t.api, 'CUSTOMER_USER');
    expect(await customer.api.ok(guideRoutes.shown)).toEqual([{ id: entry.id, name: 'Devices', image: entry.image, url: '/device-manage/device' }]);
    expectError(await customer.api.call(guideRoutes.create, { body: banner({ url: '/x' }) }), 403, 20, 'error.permissionDenied');
    expectError(await t.anonymous.call(guideRoutes.shown), 401, 10, 'error.auth.required');
    expect(await t.anonymous.ok(bannerRoutes.shown)).toEqual([]);
  });
});
