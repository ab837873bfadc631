/**
 * Modbus devices in the browser, through the built x64 binary: an administrator sets up a TCP
 * MODBUS-RTU product with REGISTER_SEND (polling every second), two thing-model properties with
 * Modbus descriptors (a read-only voltage with scale 0.1 and a read-write setpoint, in adjacent
 * holding registers), publishes it, and creates a device with address code 01 and its own
 * registration string. The product's Modbus tab shows the poll request plan (one coalesced 03
 * request), exports the point table as CSV and .xlsx and imports one with a good and a bad row.
 * A real Modbus slave (pymodbus behind a simulated DTU, tests/helpers/modbus-slave.py) connects to
 * the gateway's TCP port; the device's TCP link tab shows the link, the live values, "read now"
 * picking up a register the test changed, and a write that changes the slave's register.
 * Screens in zh_CN/en_US × light/dark (test-results/screenshots/modbus), and the tab at phone width.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { DevicePage } from '../../server/contract/device.ts';
import { modbusPointColumns } from '../../server/contract/modbus.ts';
import type { ProductPage } from '../../server/contract/product.ts';
import type { Ui } from '../helpers/browser.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';
import { ModbusSlave } from '../helpers/modbus.ts';
import { valuesOfXlsx, xlsxOf } from '../helpers/xlsx.ts';
import { E2E_POLL } from '../helpers/e2e-wait.ts';

const PRODUCT = 'E2E电表';
const DEVICE = 'E2E-Meter-01';
const REGISTRATION = 'DTU-E2E-0001';
const PHONE = { width: 390, height: 844 };

let tcpPort: number;
let gateway: E2eGateway;
let ui: Ui;
let productId: string;
let deviceId: string;
let dtu: ModbusSlave | null = null;

useE2eSpec('modbus', startE2eGateway, async (ctx) => {
  ({ gateway, ui } = ctx);
  await gateway.provision();
  // The binary runs with --tcp-port 0 and prints the port it got once it is ready.
  const printed = /device TCP access .* on port (\d+)/.exec(gateway.output());
  if (!printed) throw new Error(`no TCP access port in the gateway's output:\n${gateway.output()}`);
  tcpPort = Number(printed[1]);
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

afterAll(() => {
  ModbusSlave.killAll();
});

async function call<T>(url: string, body?: unknown): Promise<T> {
  const { token } = await gateway.login();
  const res = await fetch(`${gateway.url}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Opens an Arco select and picks the option with that test id. */
async function choose(select: string, option: string): Promise<void> {
  await ui.clickTestId(select);
  await ui.clickTestId(option);
}

/** The file the click downloads (downloads carry the bearer token, so they are blobs). */
async function download(testId: string): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([ui.page.waitForEvent('download'), ui.clickTestId(testId)]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

/** A property with a holding-register descriptor, through the thing-model drawer. */
async function addRegisterProperty(p: { name: string; identifier: string; rw: boolean; type: 'INT' | 'DOUBLE'; address: string; raw: string; scale?: string }): Promise<void> {
  await ui.clickTestId('tm-create');
  await ui.expectVisible('tm-drawer-submit');
  await ui.clickTestId('tm-function-type-properties');
  await ui.fill('tm-name', p.name);
  await ui.fill('tm-identifier', p.identifier);
  if (p.rw) await ui.clickTestId('tm-access-mode-rw');
  await choose('tm-type', `tm-type-${p.type}`);
  await ui.fill('tm-min', '0');
  await ui.fill('tm-max', '1000');
  await ui.clickTestId('tm-modbus-enabled');
  await choose('tm-modbus-operation', p.rw ? 'tm-modbus-operation-HOLDING_REGISTER_READ_WRITE' : 'tm-modbus-operation-HOLDING_REGISTER_READ');
  await ui.fill('tm-modbus-address', p.address);
  await choose('tm-modbus-data-type', `tm-modbus-data-type-${p.raw}`);
  if (p.scale) await ui.fill('tm-modbus-scale', p.scale);
}

describe('a Modbus product set up in the browser', () => {
  it('creates a TCP MODBUS-RTU product with REGISTER_SEND, polling every second', async () => {
    await ui.goto('/device-manage/product');
    await ui.clickTestId('product-create');
    await ui.expectVisible('product-drawer');
    await ui.fill('product-form-name', PRODUCT);
    await ui.clickTestId('product-form-transport-TCP');
    await ui.clickTestId('product-form-tcp-protocol-MODBUS_RTU');
    await choose('product-form-tcp-auth', 'product-form-tcp-auth-REGISTER_SEND');
    await ui.expectVisible('product-form-poll-interval');
    await ui.fill('product-form-poll-interval', '1000');
    await ui.screenshot('product-drawer-modbus');
    await ui.clickTestId('product-drawer-submit');
    await ui.expectHidden('product-drawer');
    const page = await call<ProductPage>(`/api/yt/device_profile?name=${encodeURIComponent(PRODUCT)}`);
    const product = page.items.find((p) => p.name === PRODUCT)!;
    expect(product).toMatchObject({ transportType: 'TCP', tcpProtocolType: 'MODBUS_RTU', tcpAuthType: 'REGISTER_SEND', pollIntervalMs: 1000, modbusGapMax: 8 });
    productId = product.id;
  });

  it('adds a voltage and a setpoint with Modbus descriptors and publishes them', async () => {
    await ui.goto(`/device-manage/product/${productId}?tab=thingModel`);
    await addRegisterProperty({ name: '电压', identifier: 'voltage', rw: false, type: 'DOUBLE', address: '0010', raw: 'UINT16_AB', scale: '0.1' });
    await ui.screenshot('property-modbus-descriptor');
    await ui.clickTestId('tm-drawer-submit');
    await ui.expectHidden('tm-drawer-submit');
    await addRegisterProperty({ name: '设定值', identifier: 'setpoint', rw: true, type: 'INT', address: '0012', raw: 'INT16_AB' });
    await ui.clickTestId('tm-drawer-submit');
    await ui.expectHidden('tm-drawer-submit');
    // Items go to the draft without a question; the draft banner publishes.
    await ui.clickTestId('tm-publish');
    await ui.clickTestId('tm-publish-confirm');
    await ui.expectVisible('tm-state-published');
  });

  it('shows the poll request plan: both registers in one coalesced 03 request', async () => {
    await ui.clickTestId('product-tab-modbus');
    await ui.expectVisible('modbus-plan-table');
    await ui.expectText('modbus-plan-summary', text('zh_CN', 'modbus:plan.summary', { ms: 1000, gap: 8, count: 1 }));
    const row = ui.page.locator('[data-testid="modbus-plan-table"] tbody tr').first();
    await ui.expectLocatorText(row, '0x0010–0x0012');
    await ui.expectLocatorText(row, 'voltage');
    await ui.expectLocatorText(row, 'setpoint');
    await ui.expectLocatorText(row, text('zh_CN', 'modbus:plan.object.holdingRegisters'));
    await ui.clickTestId('modbus-plan-source-published');
    await ui.expectText('modbus-plan-summary', text('zh_CN', 'modbus:plan.summary', { ms: 1000, gap: 8, count: 1 }));
    await ui.screenshotMatrix('modbus-plan', () => ui.expectVisible('modbus-plan-table'));
  });

  it('exports the point table as CSV and as .xlsx', async () => {
    const csv = await download('modbus-export-csv');
    expect(csv.name).toBe(`modbus-points-${PRODUCT}.csv`);
    const lines = csv.bytes.toString('utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines[0]).toBe(modbusPointColumns.join(','));
    expect(lines).toContain('voltage,电压,DOUBLE,0x0010,UINT16_AB,0.1,,1,HOLDING_REGISTER_READ');

    const xlsx = await download('modbus-export-xlsx');
    expect(xlsx.name).toBe(`modbus-points-${PRODUCT}.xlsx`);
    const rows = await valuesOfXlsx(xlsx.bytes);
    expect(rows[0]).toEqual([...modbusPointColumns]);
    expect(rows.map((r) => r[0])).toEqual(['identifier', 'voltage', 'setpoint']);
  });

  it('imports a point table with one good and one bad row and says which row failed and why', async () => {
    const file = await xlsxOf([
      [...modbusPointColumns],
      ['current', '电流', 'DOUBLE', '0x0014', 'UINT16_AB', '0.01', '', '1', 'HOLDING_REGISTER_READ'],
      ['broken', '坏点', 'DOUBLE', '0x0016', 'NOT_A_TYPE', '1', '', '1', 'HOLDING_REGISTER_READ'],
    ]);
    await ui.chooseFile('modbus-import-file', { name: 'points.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file });
    await ui.expectText('modbus-import-counts', text('zh_CN', 'modbus:table.created', { created: 1, updated: 0 }));
    await ui.expectText('modbus-import-rejected-count', text('zh_CN', 'modbus:table.rejectedCount', { count: 1 }));
    await ui.expectText('modbus-import-rejected', 'broken');
    await ui.screenshot('modbus-import-result');
    await ui.clickTestId('modbus-import-close');
    await ui.expectHidden('modbus-import-result');
    // The draft plan now feeds the imported point too; the published one is unchanged until publishing.
    await ui.clickTestId('modbus-plan-source-draft');
    await ui.expectLocatorText(ui.page.locator('[data-testid="modbus-plan-table"] tbody tr').first(), 'current');
  });
});

describe('a Modbus device behind a DTU', () => {
  it('creates the device with address code 01 and its own registration string', async () => {
    await ui.goto('/device-manage/device');
    await ui.clickTestId('device-create');
    await ui.fill('device-form-name', DEVICE);
    await ui.expectVisible('device-form-registration');
    await ui.fill('device-form-address-code', '01');
    await ui.clickTestId('device-form-registration-format-HEX');
    await ui.fill('device-form-registration', 'not hex');
    await ui.clickTestId('device-drawer-submit');
    await ui.expectFieldError('device-form-registration', text('zh_CN', 'errors:device.registration'));
    await ui.clickTestId('device-form-registration-format-ASCII');
    await ui.fill('device-form-registration', REGISTRATION);
    await ui.screenshot('device-drawer-tcp');
    await ui.clickTestId('device-drawer-submit');
    await ui.expectHidden('device-drawer');
    const page = await call<DevicePage>(`/api/yt/device?name=${encodeURIComponent(DEVICE)}`);
    const device = page.items.find((d) => d.name === DEVICE)!;
    expect(device).toMatchObject({ addressCode: '01', registration: { format: 'ASCII', value: REGISTRATION }, modbusTcp: null });
    deviceId = device.id;
  });

  it('shows the link and the live values once the DTU registers', async () => {
    dtu = await ModbusSlave.dtu(tcpPort, Buffer.from(REGISTRATION, 'ascii'), 'REGISTER_SEND', [1]);
    await dtu.set(1, 'hr', 0x10, [2301]);
    await dtu.set(1, 'hr', 0x12, [42]);
    await ui.goto(`/device-manage/device/${deviceId}/tcp`);
    await ui.expectText('tcp-link-state', text('zh_CN', 'modbus:link.connected'));
    await ui.expectText('tcp-link-registration', REGISTRATION);
    await ui.expectText('tcp-link-mode', text('zh_CN', 'modbus:link.mode.DTU'));
    await ui.expectText('modbus-value-voltage', '230.1');
    await ui.expectText('modbus-value-setpoint', '42');
    await ui.expectText('modbus-outcome-voltage', text('zh_CN', 'modbus:outcome.OK'));
    await ui.expectVisible('tcp-link-frame');
    expect(Number(await ui.testId('tcp-counter-answered').innerText())).toBeGreaterThan(0);
    await ui.screenshotMatrix('tcp-link-tab', () => ui.expectText('modbus-value-voltage', '230.1'));
  });

  it('reads a changed register now, one point and all', async () => {
    await dtu!.set(1, 'hr', 0x10, [2205]);
    await ui.clickTestId('modbus-read-voltage');
    await ui.expectText('modbus-value-voltage', '220.5');
    await ui.expectPageText(text('zh_CN', 'modbus:points.readDone', { count: 1 }));
    await dtu!.set(1, 'hr', 0x12, [43]);
    await ui.clickTestId('modbus-read-all');
    await ui.expectText('modbus-value-setpoint', '43');
  });

  it("writes the setpoint and shows the slave's answer; the slave's register holds the value", async () => {
    await ui.clickTestId('modbus-write-setpoint');
    await ui.expectVisible('modbus-write-form');
    await ui.expectText('modbus-write-target', 'setpoint');
    await ui.fill('modbus-write-value-setpoint', '77');
    await ui.clickTestId('modbus-write-send');
    await ui.expectText('modbus-write-outcome', text('zh_CN', 'modbus:outcome.OK'));
    await ui.screenshot('modbus-write-answer');
    expect(await dtu!.get(1, 'hr', 0x12)).toEqual([77]);
    await ui.clickTestId('modbus-write-cancel');
    await ui.expectHidden('modbus-write-form');
    await ui.expectText('modbus-value-setpoint', '77');
  });

  it('fits the tab on a phone', async () => {
    await ui.page.setViewportSize(PHONE);
    await ui.reload();
    await ui.expectText('modbus-value-voltage', '220.5');
    const overflow = await ui.page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await ui.screenshot('tcp-link-tab-phone');
    await ui.testId('modbus-points').scrollIntoViewIfNeeded();
    await ui.screenshot('tcp-link-points-phone');
  });
});

describe('a custom-protocol TCP device', () => {
  it('shows its raw frames in hex and says it has no Modbus points', async () => {
    await ui.page.setViewportSize({ width: 1440, height: 900 });
    const product = await call<{ id: string }>('/api/yt/device_profile', {
      name: 'E2E自定义TCP',
      deviceType: 'DIRECT_CONNECTION',
      transportType: 'TCP',
      tcpProtocolType: 'CUSTOM',
      tcpAuthType: 'REGISTER_SEND',
    });
    const device = await call<{ id: string; registration: { value: string } }>('/api/yt/device', { name: 'E2E-Custom-01', deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id });
    const socket: Socket = connect(tcpPort, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    try {
      // REGISTER_SEND with no registration string given: the code the gateway generated, then the device's own bytes.
      socket.write(device.registration.value);
      await expect.poll(async () => (await call<{ connected: boolean }>(`/api/yt/device/${device.id}/tcp`)).connected, E2E_POLL).toBe(true);
      socket.write(Buffer.from([0xaa, 0x55, 0x01, 0x7e]));
      // The points call is refused for a custom device (a 400 the browser logs): expected here.
      ui.allowConsoleError(/modbus\/points/);
      await ui.goto(`/device-manage/device/${device.id}/tcp`);
      await ui.expectText('modbus-points-unavailable', text('zh_CN', 'modbus:points.notModbus'));
      await ui.expectText('tcp-link-frame', 'AA 55 01 7E');
      await ui.expectText('tcp-link-state', text('zh_CN', 'modbus:link.connected'));
      await ui.screenshot('tcp-link-custom');
    } finally {
      socket.destroy();
    }
  });
});
