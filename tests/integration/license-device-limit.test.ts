/**
 * The licence's `maxDevices`: every way of creating devices (create, CSV import, batch generation)
 * stops at the limit with code 41, and the licence view reports how many are used. 0 is unlimited.
 */
import { describe, expect, it } from 'vitest';
import { deviceImportRoutes, type ImportPreview } from '../../server/contract/device-import.ts';
import { deviceRoutes, type DevicePage } from '../../server/contract/device.ts';
import { licenseRoutes, type LicenseInfo } from '../../server/contract/license.ts';
import { makeDeviceApp, uniqueName, type DeviceTestApp } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { issueLicense, testLicenseKeys } from '../helpers/license.ts';
import { multipart } from '../helpers/multipart.ts';
import { activate } from '../helpers/setup.ts';

/** A gateway whose installed licence allows `maxDevices` (it replaces the one provisioning installed). */
async function limitedApp(maxDevices: number): Promise<DeviceTestApp> {
  const t = await makeDeviceApp();
  const licFile = issueLicense({ privateKeyPem: testLicenseKeys().privateKeyPem, maxDevices, days: 60 });
  const res = await activate(t, { licFile, token: t.api.token! });
  expect(res.statusCode, res.body).toBe(200);
  return t;
}

async function deviceCount(t: DeviceTestApp): Promise<number> {
  return ((await t.api.ok(deviceRoutes.list, { query: { pageSize: 1 } })) as DevicePage).total;
}

async function licenseInfo(t: DeviceTestApp): Promise<LicenseInfo> {
  return (await t.app.inject({ method: 'GET', url: licenseRoutes.find.url })).json() as LicenseInfo;
}

/** Uploads `names` as a one-column CSV and commits it for `deviceProfileId`. */
async function importNames(t: DeviceTestApp, names: string[], deviceProfileId: string) {
  const form = multipart({ file: { filename: 'devices.csv', content: ['name', ...names].join('\n'), contentType: 'text/csv' } });
  const preview = (await t.api.ok(deviceImportRoutes.preview, { payload: form.payload, headers: form.headers })) as ImportPreview;
  const commit = () =>
    t.api.call(deviceImportRoutes.commit, { body: { importId: preview.importId, mapping: { name: 0 }, defaults: { deviceProfileId } }, lang: 'en-US' });
  return { commit };
}

describe('licence device limit', () => {
  it('refuses the device past the limit with code 41 and a message naming the limit', async () => {
    const t = await limitedApp(2);
    const product = await t.api.createProduct();
    await t.api.createDevice({ deviceProfileId: product.id });
    await t.api.createDevice({ deviceProfileId: product.id });
    const res = await t.api.call(deviceRoutes.create, {
      body: { name: uniqueName('device'), deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id },
      lang: 'en-US',
    });
    const body = expectError(res, 400, 41, 'error.license.deviceLimit');
    expect(body.message).toMatch(/at most 2 devices/);
    expect(await deviceCount(t)).toBe(2);
  });

  it('answers the limit in Chinese by default', async () => {
    const t = await limitedApp(1);
    const product = await t.api.createProduct();
    await t.api.createDevice({ deviceProfileId: product.id });
    const res = await t.api.call(deviceRoutes.create, { body: { name: uniqueName('device'), deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id } });
    const body = expectError(res, 400, 41, 'error.license.deviceLimit');
    expect(body.message).toMatch(/[\u4e00-\u9fa5]/);
    expect(body.message).toContain('1');
  });

  it('lets no more than the limit through when many creates arrive at once', async () => {
    const t = await limitedApp(3);
    const product = await t.api.createProduct();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.api.call(deviceRoutes.create, { body: { name: uniqueName('device'), deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id } }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((r) => r.statusCode === 400 && (r.json() as { code: number }).code === 41)).toHaveLength(7);
    expect(await deviceCount(t)).toBe(3);
  });

  it('refuses a CSV import that would pass the limit, creating none of its rows, and keeps it for a retry', async () => {
    const t = await limitedApp(2);
    const product = await t.api.createProduct();
    const { commit } = await importNames(t, ['csv_a', 'csv_b', 'csv_c'], product.id);
    const refused = await commit();
    expect(expectError(refused, 400, 41, 'error.license.deviceLimit').message).toMatch(/at most 2 devices/);
    expect(await deviceCount(t)).toBe(0);

    // With a licence for more devices the same import goes through.
    await activate(t, { licFile: issueLicense({ privateKeyPem: testLicenseKeys().privateKeyPem, maxDevices: 3, days: 90 }), token: t.api.token! });
    const retried = await commit();
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await deviceCount(t)).toBe(3);
  });

  it('refuses a batch generation that would pass the limit, creating none', async () => {
    const t = await limitedApp(5);
    const product = await t.api.createProduct();
    await t.api.createDevice({ deviceProfileId: product.id });
    const res = await t.api.call(deviceImportRoutes.batch, { body: { deviceProfileId: product.id, count: 5 }, lang: 'en-US' });
    expect(expectError(res, 400, 41, 'error.license.deviceLimit').message).toMatch(/at most 5 devices/);
    expect(await deviceCount(t)).toBe(1);
    const fits = await t.api.call(deviceImportRoutes.batch, { body: { deviceProfileId: product.id, count: 4 } });
    expect(fits.statusCode, fits.body).toBe(200);
    expect(await deviceCount(t)).toBe(5);
  });

  it('counts sub-devices of a gateway against the limit', async () => {
    const t = await limitedApp(2);
    const gateway = await t.api.createDevice({ deviceType: 'GATEWAY' });
    const sensors = await t.api.createProduct({ deviceType: 'SENSOR' });
    await t.api.createDevice({ deviceType: 'SENSOR', deviceProfileId: sensors.id, gatewayId: gateway.id });
    const res = await t.api.call(deviceRoutes.create, {
      body: { name: uniqueName('sensor'), deviceType: 'SENSOR', deviceProfileId: sensors.id, gatewayId: gateway.id },
    });
    expectError(res, 400, 41, 'error.license.deviceLimit');
  });

  it('frees a place when a device is deleted', async () => {
    const t = await limitedApp(1);
    const first = await t.api.createDevice();
    await t.api.ok(deviceRoutes.delete, { body: { ids: [first.id] } });
    await t.api.createDevice();
    expect(await deviceCount(t)).toBe(1);
  });

  it('treats maxDevices 0 as no limit', async () => {
    const t = await limitedApp(0);
    const product = await t.api.createProduct();
    const res = await t.api.call(deviceImportRoutes.batch, { body: { deviceProfileId: product.id, count: 50 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await deviceCount(t)).toBe(50);
  });

  it('reports the devices in use beside the limit in GET /api/license/findLicense', async () => {
    const t = await limitedApp(10);
    expect(await licenseInfo(t)).toMatchObject({ status: 'VALID', devicesUsed: 0, license: { maxDevices: 10 } });
    await t.api.createDevice();
    await t.api.createDevice();
    expect(await licenseInfo(t)).toMatchObject({ devicesUsed: 2, license: { maxDevices: 10 } });
  });
});
