/**
 * Devices in the browser, through the built x64 binary: a gateway provisioned over HTTP
 * with a product made through the API (as a factory script would), then an administrator creates
 * a device, edits it, sets its location, favourites it, views and regenerates its credentials,
 * imports a CSV with 3 good and 2 bad rows (and downloads the rejected rows), reads an .xlsx up to
 * the column mapping, batch-generates 5
 * devices (and downloads their CSV) and deletes devices with confirmation. The steps share one
 * gateway and one tab and run in order. Screens are also captured in zh_CN/en_US × light/dark
 * (test-results/screenshots/devices).
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TokenPair } from '../../server/contract/auth.ts';
import type { DeviceCredentials } from '../../server/contract/credentials.ts';
import { deviceAccessRoutes, type DeviceAccess } from '../../server/contract/device-access.ts';
import { XLSX_CONTENT_TYPE } from '../../server/contract/device-import.ts';
import type { Device, DevicePage } from '../../server/contract/device.ts';
import type { Product } from '../../server/contract/product.ts';
import { launchBrowser, type BrowserSession, type Ui } from '../helpers/browser.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { text } from '../helpers/locale-text.ts';
import { xlsxOf } from '../helpers/xlsx.ts';
import { E2E_POLL } from '../helpers/e2e-wait.ts';

const PRODUCT = 'E2E温湿度';
const DEVICE = 'E2E-Sensor-01';
const LIST = '/device-manage/device';

let gateway: E2eGateway;
let browser: BrowserSession;
let ui: Ui;
let tokens: TokenPair;
let product: Product;

/** A call as a provisioning script makes it, with the administrator's bearer token. */
async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${gateway.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${tokens.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const raw = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${raw}`);
  return (raw ? JSON.parse(raw) : undefined) as T;
}

async function deviceNamed(name: string): Promise<Device | undefined> {
  const page = await call<DevicePage>('GET', `/api/yt/device?name=${encodeURIComponent(name)}&pageSize=100`);
  return page.items.find((d) => d.name === name);
}

/** The file the click downloads, as text (downloads carry the bearer token, so they are blobs). */
async function download(testId: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([ui.page.waitForEvent('download'), ui.clickTestId(testId)]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

/** A multi-line field (Arco may put the test id on the textarea or on its wrapper). */
function textArea(testId: string): ReturnType<Ui['testId']> {
  return ui.page.locator(`textarea[data-testid="${testId}"], [data-testid="${testId}"] textarea`).first();
}

/** The list filtered by name, as a user narrows it down. */
async function showOnly(name: string): Promise<void> {
  await ui.goto(`${LIST}?name=${encodeURIComponent(name)}`);
  await ui.expectVisible(`device-open-${name}`);
}

beforeAll(async () => {
  [gateway, browser] = await Promise.all([startE2eGateway(), launchBrowser()]);
  await gateway.provision();
  tokens = await gateway.login();
  product = await call<Product>('POST', '/api/yt/device_profile', { name: PRODUCT, deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' });
  ui = await browser.newUi(gateway.url, 'devices');
});

afterEach(async ({ task }) => {
  if (task.result?.errors?.length) await ui.screenshot('FAILED');
  ui.assertNoConsoleErrors();
});

afterAll(async () => {
  await browser?.close();
  await gateway?.kill();
});

describe('devices in the console', () => {
  it('signs in and shows the empty device list', async () => {
    await ui.goto('/login');
    await ui.fill('login-username', E2E_ADMIN.username);
    await ui.fill('login-password', E2E_ADMIN.password);
    await ui.clickTestId('login-submit');
    await ui.expectVisible('main-layout');
    await ui.goto(LIST);
    await ui.expectText('device-empty', text('zh_CN', 'device:empty'));
  });

  it('refuses an invalid name inline and creates a device with the default product', async () => {
    await ui.clickTestId('device-create');
    await ui.fill('device-form-name', 'bad name!');
    await ui.clickTestId('device-drawer-submit');
    await ui.expectFieldError('device-form-name', text('zh_CN', 'errors:field.name'));
    await ui.expectText('device-form-type', text('zh_CN', 'product:deviceType.DIRECT_CONNECTION'));
    await ui.fill('device-form-name', DEVICE);
    await ui.fill('device-form-alias', '一号传感器');
    await ui.screenshot('create-drawer');
    await ui.clickTestId('device-drawer-submit');
    await ui.expectHidden('device-drawer-submit');
    await ui.expectVisible(`device-open-${DEVICE}`);
    await ui.expectText(`device-state-${DEVICE}`, text('zh_CN', 'device:state.INACTIVE'));

    const created = await deviceNamed(DEVICE);
    expect(created).toMatchObject({ alias: '一号传感器', deviceProfileId: product.id, deviceType: 'DIRECT_CONNECTION', deviceState: 'INACTIVE' });
  });

  it('makes the device public, then edits it and keeps what the drawer does not show', async () => {
    await ui.clickTestId(`device-public-${DEVICE}`);
    await expect.poll(async () => (await deviceNamed(DEVICE))?.isPublic, E2E_POLL).toBe(true);
    await ui.page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('aria-checked') === 'true', `device-public-${DEVICE}`);
    await ui.clickTestId(`device-edit-${DEVICE}`);
    expect(await ui.testId('device-form-alias').inputValue()).toBe('一号传感器');
    await ui.fill('device-form-alias', '车间传感器');
    await ui.fill('device-form-label', 'line-2');
    await ui.clickTestId('device-drawer-submit');
    await ui.expectHidden('device-drawer-submit');
    await ui.expectPageText('车间传感器');
    expect(await deviceNamed(DEVICE)).toMatchObject({ alias: '车间传感器', label: 'line-2', isPublic: true });
  });

  it('asks for both coordinates, checks their range and saves the location', async () => {
    await ui.clickTestId(`device-location-${DEVICE}`);
    await ui.fill('location-longitude', '121.4737');
    await ui.clickTestId('location-submit');
    await ui.expectFieldError('location-latitude', text('zh_CN', 'errors:field.locationIncomplete'));
    await ui.fill('location-latitude', '95');
    await ui.clickTestId('location-submit');
    await ui.expectFieldError('location-latitude', text('zh_CN', 'errors:field.latitude'));
    await ui.fill('location-latitude', '31.2304');
    await textArea('location-address').fill('上海市黄浦区');
    await ui.expectVisible('location-map-point');
    await ui.screenshot('location');
    await ui.clickTestId('location-submit');
    await ui.expectHidden('location-submit');
    expect(await deviceNamed(DEVICE)).toMatchObject({ longitude: 121.4737, latitude: 31.2304, address: '上海市黄浦区', alias: '车间传感器' });
  });

  it('favourites the device and finds it with the favourites filter', async () => {
    await ui.clickTestId(`device-favourite-${DEVICE}`);
    await ui.page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('aria-pressed') === 'true', `device-favourite-${DEVICE}`);
    expect((await deviceNamed(DEVICE))?.isCollect).toBe(true);
    await ui.goto(LIST);
    await ui.clickTestId('device-filter-favourites');
    await ui.clickTestId('device-search');
    // The filter lands in the address bar once the search ran (the row was listed before it too).
    await ui.page.waitForURL((url) => url.searchParams.get('isCollect') === 'true');
    await ui.expectVisible(`device-open-${DEVICE}`);
  });

  it('shows the credentials and regenerates the token after confirmation', async () => {
    await ui.clickTestId(`device-open-${DEVICE}`);
    await ui.expectText('device-detail-name', '车间传感器');
    await ui.expectText('device-detail-product', PRODUCT);
    await ui.clickTestId('device-tab-credentials');
    const device = (await deviceNamed(DEVICE))!;
    await ui.expectPath(`${LIST}/${device.id}/credentials`);
    const before = await call<DeviceCredentials>('GET', `/api/yt/device/${device.id}/credentials`);
    await ui.expectText('credentials-token', before.credentialsId);
    await ui.expectText('credentials-type', text('zh_CN', 'credentials:types.ACCESS_TOKEN'));
    // The gateway's TLS certificate, for devices to pin: the fingerprint of the one the binary serves.
    const access = await call<DeviceAccess>('GET', deviceAccessRoutes.info.url);
    expect(access.mqttsFingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    await ui.expectText('gateway-certificate-fingerprint', access.mqttsFingerprint!);
    await ui.expectVisible('gateway-certificate-download');

    await ui.clickTestId('credentials-regenerate');
    await ui.expectPageText(text('zh_CN', 'credentials:regenerateTitle'));
    await ui.clickTestId('credentials-regenerate-confirm');
    await ui.expectPageText(text('zh_CN', 'credentials:regenerated'));
    const after = await call<DeviceCredentials>('GET', `/api/yt/device/${device.id}/credentials`);
    expect(after.credentialsId).not.toBe(before.credentialsId);
    expect(after.credentialsId).toHaveLength(20);
    await ui.expectText('credentials-token', after.credentialsId);
  });

  it('refuses an MQTT basic identity without client ID or user name, then saves one', async () => {
    const device = (await deviceNamed(DEVICE))!;
    await ui.clickTestId('credentials-edit');
    await ui.clickTestId('credentials-form-type-MQTT_BASIC');
    await ui.clickTestId('credentials-form-submit');
    await ui.expectFieldError('credentials-form-client-id', text('zh_CN', 'errors:credentials.mqttIdentityRequired'));
    await ui.fill('credentials-form-client-id', 'e2e-client-01');
    await ui.fill('credentials-form-password', 'mqtt-secret');
    await ui.clickTestId('credentials-form-submit');
    await ui.expectText('credentials-type', text('zh_CN', 'credentials:types.MQTT_BASIC'));
    await ui.expectText('credentials-password', text('zh_CN', 'credentials:passwordSet'));
    const saved = await call<DeviceCredentials>('GET', `/api/yt/device/${device.id}/credentials`);
    expect(saved.credentialsType).toBe('MQTT_BASIC');
    expect(JSON.parse(saved.credentialsValue!)).toEqual({ clientId: 'e2e-client-01', userName: null, passwordSet: true });
    await ui.screenshotMatrix('device-credentials', () => ui.expectVisible('credentials-panel').then(() => undefined));
  });

  it('refuses a half-pasted public key inline and saves an RSA public key as X.509 credentials', async () => {
    const device = (await deviceNamed(DEVICE))!;
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    await ui.clickTestId('credentials-edit');
    await ui.clickTestId('credentials-form-type-X509_CERTIFICATE');
    await textArea('credentials-form-pem').fill(pem.split('\n').slice(0, 3).join('\n'));
    await ui.clickTestId('credentials-form-submit');
    await ui.expectFieldError('credentials-form-pem', text('zh_CN', 'errors:credentials.pemInvalid'));
    await textArea('credentials-form-pem').fill(pem);
    await ui.clickTestId('credentials-form-submit');
    await ui.expectText('credentials-type', text('zh_CN', 'credentials:types.X509_CERTIFICATE'));
    await ui.expectText('credentials-pem', 'BEGIN PUBLIC KEY');
    const saved = await call<DeviceCredentials>('GET', `/api/yt/device/${device.id}/credentials`);
    expect(saved.credentialsType).toBe('X509_CERTIFICATE');
    expect(saved.credentialsValue?.trim()).toBe(pem.trim());
  });

  it('imports a CSV of 3 good and 2 bad rows and reports the bad ones with reasons', async () => {
    await ui.goto(LIST);
    await ui.clickTestId('device-import');
    await ui.clickTestId('import-tab-csv');
    const csv = ['设备名称,设备别名,经度,纬度', 'Imp-01,导入一,120.1,30.2', 'Imp-02,导入二,,', 'Imp-03,,,', 'bad name,坏名字,,', 'Imp-04,超出范围,200,30'].join('\n');
    await ui.chooseFile('import-file', { name: 'devices.csv', mimeType: 'text/csv', buffer: Buffer.from(`${csv}\n`) });
    await ui.expectText('import-file-summary', 'devices.csv');
    await ui.clickTestId('import-next-file');
    await ui.clickTestId('import-next-basic');
    await ui.expectVisible('import-mapping');
    // The Chinese headers were matched to their fields.
    for (const [target, column] of [['name', '1. 设备名称'], ['alias', '2. 设备别名'], ['longitude', '3. 经度'], ['latitude', '4. 纬度']] as const) {
      await ui.expectText(`import-map-${target}`, column);
    }
    await ui.screenshot('import-mapping');
    await ui.clickTestId('import-next-columns');
    await ui.expectText('import-create-rows', '5');
    await ui.clickTestId('import-commit');
    await ui.expectText('import-created', text('zh_CN', 'deviceImport:finally.created', { count: 3 }));
    await ui.expectText('import-rejected-count', text('zh_CN', 'deviceImport:finally.rejectedCount', { count: 2 }));
    const rejected = ui.testId('import-rejected').locator('tbody tr');
    expect(await rejected.count()).toBe(2);
    await ui.expectLocatorText(rejected.nth(0), text('zh_CN', 'errors:field.name'));
    await ui.expectLocatorText(rejected.nth(1), text('zh_CN', 'errors:field.longitude'));
    await ui.screenshot('import-result');

    const file = await download('import-download-rejected');
    expect(file.name).toMatch(/devices\.csv$/);
    const lines = file.text.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('bad name');
    expect(lines[2]).toContain('Imp-04');

    await ui.clickTestId('import-done');
    await ui.expectHidden('import-tabs');
    for (const name of ['Imp-01', 'Imp-02', 'Imp-03']) expect(await deviceNamed(name)).toBeDefined();
    expect(await deviceNamed('Imp-04')).toBeUndefined();
  });

  it('reads an .xlsx in the import wizard up to the column mapping', async () => {
    await ui.goto(LIST);
    await ui.clickTestId('device-import');
    await ui.clickTestId('import-tab-csv');
    const xlsx = await xlsxOf([['设备名称', '经度'], ['Xl-01', 120.1], ['Xl-02', 30.25]]);
    await ui.chooseFile('import-file', { name: 'devices.xlsx', mimeType: XLSX_CONTENT_TYPE, buffer: xlsx });
    await ui.expectText('import-file-summary', text('zh_CN', 'deviceImport:file.summary', { file: 'devices.xlsx', rows: 2, columns: 2 }));
    await ui.clickTestId('import-next-file');
    await ui.clickTestId('import-next-basic');
    await ui.expectVisible('import-mapping');
    await ui.expectText('import-map-name', '1. 设备名称');
    await ui.expectText('import-map-longitude', '2. 经度');
    // Closing the unfinished import (the modal's ×) asks first.
    await ui.page.locator('.arco-modal-close-icon').click();
    await ui.clickTestId('leave-confirm-ok');
    await ui.expectHidden('import-tabs');
  });

  it('batch-generates 5 devices and downloads their names and tokens', async () => {
    await ui.clickTestId('device-batch');
    await ui.expectVisible('generate-count');
    await ui.fill('generate-count', '5');
    await ui.fill('generate-alias-prefix', 'Room ');
    await ui.clickTestId('generate-next');
    await ui.expectText('generate-summary', PRODUCT);
    await ui.clickTestId('generate-start');
    await ui.expectText('generate-created', text('zh_CN', 'deviceImport:generate.created', { count: 5 }));
    expect(await ui.testId('generate-result').locator('tbody tr').count()).toBe(5);
    await ui.screenshot('generate-result');

    const file = await download('generate-download');
    const lines = file.text.replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines[0]).toBe('name,alias,token');
    expect(lines).toHaveLength(6);
    const first = lines[1]!.split(',');
    expect(first[1]).toBe('Room 1');
    expect(first[2]).toMatch(/^[A-Za-z0-9]{20}$/);
    const device = await deviceNamed(first[0]!);
    const credentials = await call<DeviceCredentials>('GET', `/api/yt/device/${device!.id}/credentials`);
    expect(credentials.credentialsId).toBe(first[2]);
    await ui.clickTestId('generate-done');
    await ui.expectHidden('import-tabs');
  });

  it('deletes a device after confirmation and several at once', async () => {
    await showOnly(DEVICE);
    await ui.clickTestId(`device-delete-${DEVICE}`);
    await ui.clickTestId(`device-delete-${DEVICE}-confirm`);
    await ui.expectVisible('device-empty');
    expect(await deviceNamed(DEVICE)).toBeUndefined();

    await ui.goto(`${LIST}?name=Imp-0`);
    await ui.expectVisible('device-open-Imp-01');
    await ui.page.locator('thead .arco-checkbox').click();
    await ui.expectText('device-selected', '3');
    await ui.clickTestId('device-bulk-delete');
    await ui.clickTestId('device-bulk-delete-confirm');
    await ui.expectVisible('device-empty');
    for (const name of ['Imp-01', 'Imp-02', 'Imp-03']) expect(await deviceNamed(name)).toBeUndefined();
  });

  it("lists a gateway's sub-devices on its page, and no such tab on other devices", async () => {
    const gatewayProduct = await call<Product>('POST', '/api/yt/device_profile', { name: 'E2E网关产品', deviceType: 'GATEWAY', transportType: 'MQTT' });
    const sensorProduct = await call<Product>('POST', '/api/yt/device_profile', { name: 'E2E子设备产品', deviceType: 'SENSOR', transportType: 'MQTT' });
    const edge = await call<Device>('POST', '/api/yt/device', { name: 'E2E-gw-1', deviceType: 'GATEWAY', deviceProfileId: gatewayProduct.id });
    const sensor = await call<Device>('POST', '/api/yt/device', { name: 'E2E-sensor-1', deviceType: 'SENSOR', deviceProfileId: sensorProduct.id, gatewayId: edge.id });
    await ui.goto(`${LIST}/${edge.id}/subDevices`);
    await ui.expectVisible('sub-device-tab');
    await ui.expectText('sub-device-table', 'E2E子设备产品');
    await ui.expectText('sub-device-state-E2E-sensor-1', text('zh_CN', 'device:state.INACTIVE'));
    await ui.screenshotMatrix('gateway-sub-devices', () => ui.expectVisible('sub-device-open-E2E-sensor-1'));
    await ui.clickTestId('sub-device-open-E2E-sensor-1');
    await ui.expectPath(`${LIST}/${sensor.id}`);
    await ui.expectVisible('device-tab-info');
    expect(await ui.testId('device-tab-subDevices').count()).toBe(0);
  });

  it('shows the device screens in both languages and themes', async () => {
    await ui.goto(LIST);
    await ui.screenshotMatrix('device-list', () => ui.expectVisible('device-table').then(() => undefined));
    await ui.screenshotMatrix('device-import', async () => {
      await ui.clickTestId('device-import');
      await ui.clickTestId('import-tab-csv');
      await ui.expectVisible('import-template');
    });
    await ui.goto(LIST);
    const any = (await call<DevicePage>('GET', '/api/yt/device?pageSize=1')).items[0]!;
    await ui.goto(`${LIST}/${any.id}`);
    await ui.screenshotMatrix('device-detail', () => ui.expectVisible('device-info-panel').then(() => undefined));
    await ui.expectText('device-detail-name', any.alias ?? any.name);
  });
});
