/**
 * Names people read (device alias and label, the batch alias prefix, a user's real name, the
 * platform name) refuse control characters and the invisible bidirectional controls that make a
 * text display as another; the console's form rule refuses the same values.
 */
import { describe, expect, it } from 'vitest';
import { deviceImportRoutes } from '../../server/contract/device-import.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { licenseRoutes, SETUP_CODE_HEADER } from '../../server/contract/license.ts';
import { aliasProblem, labelProblem } from '../../server/contract/rules/device.ts';
import { makeApp } from '../helpers/app.ts';
import { makeDeviceApp, uniqueName } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { multipart } from '../helpers/multipart.ts';
import { authHeader, makeSignedInApp } from '../helpers/session.ts';
import { setupCodeOf } from '../helpers/setup.ts';

const refused: [string, string][] = [
  ['NUL', '\u0000'],
  ['BEL', '\u0007'],
  ['a line feed', '\n'],
  ['a tab', '\t'],
  ['DEL', '\u007F'],
  ['a C1 control', '\u0085'],
  ['left-to-right embedding U+202A', '\u202A'],
  ['right-to-left override U+202E', '\u202E'],
  ['left-to-right isolate U+2066', '\u2066'],
  ['pop directional isolate U+2069', '\u2069'],
];

const accepted = ['Room 1 (north)', '一号楼 东侧', 'Kühlraum №2', 'غرفة 3', 'Pump 🚰'];

describe('visible text in names and aliases', () => {
  it.each(refused)('refuses a device alias or label with %s, as the console form does', async (_, char) => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const alias = `Pump${char}1`;
    const res = await api.call(deviceRoutes.create, {
      body: { name: uniqueName('device'), deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id, alias },
    });
    const body = expectError(res, 400, 31, 'error.field.alias');
    expect(body.details).toEqual([expect.objectContaining({ field: 'body.alias', key: 'error.field.alias' })]);
    const label = await api.call(deviceRoutes.create, {
      body: { name: uniqueName('device'), deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id, label: alias },
    });
    expectError(label, 400, 31, 'error.field.label');
    expect(aliasProblem(alias)).toEqual({ key: 'error.field.alias' });
    expect(labelProblem(alias)).toEqual({ key: 'error.field.label' });
  });

  it('accepts aliases in any script, with spaces, signs and emoji, on create and edit', async () => {
    const { api } = await makeDeviceApp();
    const device = await api.createDevice();
    for (const alias of accepted) {
      expect(aliasProblem(alias)).toBeNull();
      const created = await api.createDevice({ alias, label: alias });
      expect(created).toMatchObject({ alias, label: alias });
    }
    const edited = await api.call(deviceRoutes.update, {
      body: { id: device.id, name: device.name, deviceType: device.deviceType, deviceProfileId: device.deviceProfileId, alias: 'evil\u202Etxt.exe' },
    });
    expectError(edited, 400, 31, 'error.field.alias');
  });

  it('refuses a batch alias prefix with a bidirectional override, and a CSV row whose alias holds a right-to-left override', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const batch = await api.call(deviceImportRoutes.batch, { body: { deviceProfileId: product.id, count: 1, aliasPrefix: 'Room\u202E' } });
    expectError(batch, 400, 31, 'error.field.aliasPrefix');

    const form = multipart({ file: { filename: 'devices.csv', content: 'name,alias\nrow_ok,Fine\nrow_bad,Bad\u202Ealias', contentType: 'text/csv' } });
    const preview = await api.call(deviceImportRoutes.preview, { payload: form.payload, headers: form.headers });
    expect(preview.statusCode, preview.body).toBe(200);
    const { importId } = preview.json() as { importId: string };
    const result = await api.ok(deviceImportRoutes.commit, {
      body: { importId, mapping: { name: 0, alias: 1 }, defaults: { deviceProfileId: product.id } },
    });
    expect(result.created).toBe(1);
    expect(result.rejected).toEqual([expect.objectContaining({ row: 3, reasons: [expect.objectContaining({ field: 'alias', key: 'error.field.alias' })] })]);
  });

  it('refuses a real name with a control or bidirectional character', async () => {
    const t = await makeSignedInApp();
    for (const realName of ['Ann\u0000', '\u202EnnA', 'Ann\u2067']) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/yt/user/center',
        headers: authHeader(t.admin.token),
        payload: { id: t.admin.user.id, realName },
      });
      const body = expectError(res, 400, 31, 'error.user.realNameRequired');
      expect(body.details?.[0]?.field).toBe('body.realName');
    }
  });

  it('refuses a platform name with a control character at first boot', async () => {
    const t = await makeApp();
    const res = await t.app.inject({
      method: 'POST',
      url: licenseRoutes.setupAdmin.url,
      headers: { [SETUP_CODE_HEADER]: setupCodeOf(t) },
      payload: { username: 'admin', password: 'Edge@Console1', platformName: 'Edge\u202E' },
    });
    expectError(res, 400, 31, 'error.validation');
  });
});
