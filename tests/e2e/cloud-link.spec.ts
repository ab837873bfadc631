/**
 * The cloud link in the browser, through the built x64 binary in Chromium: the edge state page
 * before a cloud is configured, then (cloud saved over HTTP, as the configuration page does, with
 * mosquitto as the cloud) turning CONNECTED by itself over /api/ws, the secret shown on request,
 * and the cloud events list filling as devices are created. Screens in zh_CN/en_US × light/dark
 * (test-results/screenshots/cloud-link).
 */
import { afterAll, describe, it } from 'vitest';
import { cloudRoutes } from '../../server/contract/cloud.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { productRoutes } from '../../server/contract/product.ts';
import type { Ui } from '../helpers/browser.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.ts';

const SECRET = 'E2e-cloud-secret';

let ui: Ui;
let gateway: E2eGateway;
let broker: Mosquitto;

useE2eSpec('cloud-link', startE2eGateway, async (ctx) => {
  ({ ui, gateway } = ctx);
  broker = await startMosquitto([], { untilStopped: true });
  await gateway.provision();
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

afterAll(async () => {
  await broker?.remove();
});

async function call<T>(route: { method: string; url: string }, body: unknown): Promise<T> {
  const { token } = await gateway.login();
  const res = await fetch(`${gateway.url}${route.url}`, {
    method: route.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route.method} ${route.url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

describe('cloud link', () => {
  it('shows the edge state as not configured while the gateway runs standalone', async () => {
    await ui.goto('/system/marginal-state');
    await ui.expectText('edge-status', text('zh_CN', 'cloudLink:edgeState.status.NOT_CONFIGURED'));
    await ui.screenshotMatrix('edge-state-standalone', () => ui.expectVisible('edge-status'));
  });

  it('turns CONNECTED by itself once the cloud is configured, and shows the secret on request', async () => {
    await call(cloudRoutes.save, { platformAddress: '127.0.0.1', platformPort: broker.port, platformKey: 'e2e-edge-key', platformSecret: SECRET });
    await ui.expectText('edge-status', text('zh_CN', 'cloudLink:edgeState.status.CONNECTED'));
    await ui.expectText('edge-key', 'e2e-edge-key');
    await ui.clickTestId('edge-secret-toggle');
    await ui.expectText('edge-secret', SECRET);
    await ui.clickTestId('edge-secret-toggle');
    await ui.screenshotMatrix('edge-state-connected', () => ui.expectVisible('edge-last-connect'));
  });

  it('lists the cloud events of new devices as deployed', async () => {
    const product = await call<{ id: string }>(productRoutes.create, { name: 'E2E云产品', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' });
    for (const name of ['E2E云设备1', 'E2E云设备2']) await call(deviceRoutes.create, { name, deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id });
    await ui.goto('/system/cloud-event');
    await ui.expectPageText('E2E云设备2');
    await ui.expectText('cloud-event-counts', text('zh_CN', 'cloudLink:cloudEvent.counts', { PENDING: 0, DEPLOYED: 2, FAILED: 0 }));
    await ui.screenshotMatrix('cloud-events', () => ui.expectPageText('E2E云设备1'));
  });
});
