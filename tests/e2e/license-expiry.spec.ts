/**
 * A licence that runs out while the administrator is signed in: the next
 * licence-gated call answers code 99, the console resets the session and lands on the
 * expired-licence page, and a fresh licence uploaded there with the administrator's credentials
 * brings the console back. The gateway is provisioned over HTTP as a factory script does it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { StorageKey } from '../../web/lib/storage.ts';
import type { Ui } from '../helpers/browser.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { text } from '../helpers/locale-text.ts';

/**
 * Long enough to provision, sign in, take the screenshots and open a page on a loaded 2-core CI
 * machine (8 s ran out before the second step there), short enough to wait out: the second step
 * waits for the expiry itself, so a fast machine only waits longer.
 */
const SHORT_TERM_MS = 40_000;

let gateway: E2eGateway;
let ui: Ui;

useE2eSpec('license-expiry', startE2eGateway, async (ctx) => {
  ({ gateway, ui } = ctx);
});

/** Polls the public licence status until the gateway itself considers the licence expired. */
async function waitForExpiry(deadline: number): Promise<void> {
  while ((await gateway.licenseStatus()) !== 'EXPIRED') {
    if (Date.now() > deadline) throw new Error('the short licence did not expire in time');
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('an expired licence', () => {
  let expiresAt = 0;

  it('lets the administrator in while the short licence is valid', async () => {
    expiresAt = Date.now() + SHORT_TERM_MS;
    await gateway.provision({ licence: gateway.license({ expiresAt }), platformName: 'Expiry GW' });
    expect(await gateway.licenseStatus()).toBe('VALID');

    await ui.goto('/login');
    await signIn(ui, E2E_ADMIN);
    await ui.expectPath('/dashboard/workbench');
    await ui.expectText('brand', 'Expiry GW');
    await ui.screenshot('signed-in');
  });

  it('sends the console to the expired-licence page on the next licence-gated call (code 99) without a reload', async () => {
    // Wait on a page that makes no calls of its own (the workbench refreshes itself), so opening
    // the device list from the menu makes the first licence-gated call after expiry.
    await ui.goto('/no/such/page');
    await ui.expectVisible('exception');
    await waitForExpiry(expiresAt + 10_000);
    ui.allowConsoleError(/status of 403/);
    await ui.clickTestId('menu-DeviceManage');
    await ui.clickTestId('menu-Device');
    await ui.expectPath('/expired-upload-license');
    await ui.expectVisible('expired-license-page');
    await ui.expectText('expired-license-page', text('zh_CN', 'license:expired.title'));
    await ui.expectVisible('expired-expires-at');
    expect(await ui.stored(StorageKey.TOKEN)).toBeNull();
    await ui.screenshotMatrix('expired-license', () => ui.expectVisible('expired-expires-at'));
  });

  it('keeps the console and the login page on the expired-licence page after a reload', async () => {
    for (const path of ['/dashboard/workbench', '/login']) {
      await ui.goto(path);
      await ui.expectPath('/expired-upload-license');
      await ui.expectVisible('expired-expires-at');
    }
  });

  it('takes a fresh licence with the administrator credentials and returns to the console', async () => {
    await ui.fill('expired-username', E2E_ADMIN.username);
    await ui.fill('expired-password', E2E_ADMIN.password);
    await ui.chooseFile('expired-license-file', {
      name: 'renewed.lic',
      mimeType: 'application/octet-stream',
      buffer: readFileSync(gateway.licenseFile({ days: 365, customer: 'Renewed customer' })),
    });
    await ui.expectText('expired-license-page', 'renewed.lic');
    await ui.screenshot('expired-license-filled');
    await ui.clickTestId('expired-submit');
    await ui.expectPath('/dashboard/workbench');
    await ui.expectVisible('main-layout');
    await ui.expectText('user-menu', E2E_ADMIN.username);
    expect(await gateway.licenseStatus()).toBe('VALID');
    await ui.screenshot('back-in-console');
  });
});
