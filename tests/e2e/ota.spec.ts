/**
 * The product's firmware update dialog in the browser, through the built x64 binary in Chromium:
 * an administrator uploads a device firmware with its checksum algorithm, assigns it to the
 * product's devices, and sees the device's state change live when the device reports `fw_state`
 * over the HTTP device API. Screens in zh_CN/en_US × light/dark (test-results/screenshots/ota).
 */
import { describe, expect, it } from 'vitest';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import { deviceApiRoutes } from '../../server/contract/device-api.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { productRoutes } from '../../server/contract/product.ts';
import type { RouteDef } from '../../server/contract/route.ts';
import type { Ui } from '../helpers/browser.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';

let gateway: E2eGateway;
let ui: Ui;

useE2eSpec('ota', startE2eGateway, async (ctx) => {
  ({ gateway, ui } = ctx);
  await gateway.provision();
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

/** A call as a provisioning script makes it. */
async function call<T>(route: RouteDef, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${gateway.url}${path}`, {
    method: route.method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe('product firmware update', () => {
  it('uploads a firmware, assigns it and shows the device updating live', async () => {
    const { token } = await gateway.login();
    const product = await call<{ id: string }>(productRoutes.create, productRoutes.create.url, { name: 'E2E_OTA产品', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' }, token);
    const device = await call<{ id: string }>(deviceRoutes.create, deviceRoutes.create.url, { name: 'E2E_OTA设备', deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id }, token);
    const credentials = await call<{ credentialsId: string }>(credentialsRoutes.get, credentialsRoutes.get.url.replace(':id', device.id), undefined, token);

    await ui.goto(`/device-manage/product/${product.id}`);
    // An MQTT product has no Modbus point table: its tab is absent once the product's tabs are shown.
    await ui.expectVisible('product-tab-topic');
    expect(await ui.testId('product-tab-modbus').count()).toBe(0);
    await ui.clickTestId('product-detail-ota');
    await ui.expectText('ota-packages', text('zh_CN', 'ota:empty'));
    await ui.fill('ota-title', 'sensor-fw');
    await ui.fill('ota-version', '2.0.0');
    await ui.chooseFile('ota-file', { name: 'sensor.bin', mimeType: 'application/octet-stream', buffer: Buffer.from('firmware bytes') });
    await ui.clickTestId('ota-upload');
    await ui.expectPageText(text('zh_CN', 'ota:uploaded', { title: 'sensor-fw', version: '2.0.0' }));
    await ui.expectText('ota-packages', 'sensor-fw');

    await ui.page.locator('[data-testid^="ota-open-"]').first().click();
    const assign = ui.page.locator('[data-testid^="ota-assign-all-"]').first();
    await assign.click();
    await ui.page.getByRole('button', { name: text('zh_CN', 'ota:assignAll') }).last().click();
    await ui.expectPageText(text('zh_CN', 'ota:assigned', { count: 1 }));
    const state = ui.page.locator(`[data-testid="ota-state-${device.id}"]`);
    await ui.expectLocatorText(state, text('zh_CN', 'ota:state.INITIATED'));

    await call(deviceApiRoutes.telemetry, deviceApiRoutes.telemetry.url.replace(':accessToken', credentials.credentialsId), { fw_state: 'UPDATED' });
    await ui.expectLocatorText(state, text('zh_CN', 'ota:state.UPDATED'));
    await ui.screenshotMatrix('ota-dialog', async () => {
      await ui.clickTestId('product-detail-ota');
      await ui.page.locator('[data-testid^="ota-open-"]').first().click();
      await ui.expectVisible(`ota-state-${device.id}`);
    });
  });
});
