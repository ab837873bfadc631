/**
 * The cloud platform settings in the browser, through the built x64 binary in Chromium: the
 * wizard's step 2 with its new fields (TLS, the cloud's HTTP address), a refused HTTP address
 * shown inline, a connection test to a host that does not exist with its answer on screen, then
 * the system configuration's cloud card storing TLS and the HTTP address across a reload. Screens
 * are captured in zh_CN/en_US × light/dark (test-results/screenshots/cloud-config).
 */
import { describe, expect, it } from 'vitest';
import { cloudLinkRoutes } from '../../server/contract/cloud-link.ts';
import { SETUP_CODE_HEADER } from '../../server/contract/license.ts';
import type { Ui } from '../helpers/browser.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { uploadLicence } from '../helpers/e2e-first-boot.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';

let ui: Ui;
let gateway: E2eGateway;

/** Whether this gateway has the connection test (the cloud connector); without it the console says so. */
async function hasConnectionTest(): Promise<boolean> {
  const res = await fetch(`${gateway.url}${cloudLinkRoutes.test.url}`, {
    method: 'POST',
    headers: { [SETUP_CODE_HEADER]: gateway.setupCode ?? '', 'content-type': 'application/json' },
    body: JSON.stringify({ platformAddress: 'no-such-host.invalid', platformPort: 1883, platformKey: 'k', platformSecret: '' }),
  });
  return res.status !== 404;
}

useE2eSpec('cloud-config', startE2eGateway, async (ctx) => {
  ({ ui, gateway } = ctx);
  await uploadLicence(gateway);
});

describe('cloud platform settings', () => {
  it('shows the TLS switch and the HTTP address in the wizard, and refuses an HTTP address that is not http(s)', async () => {
    await ui.goto('/guide');
    await ui.expectVisible('guide-step-cloud');
    await ui.screenshotMatrix('guide-cloud', () => ui.expectVisible('guide-cloud-http-url'));
    await ui.fill('guide-setup-code', gateway.setupCode!);
    await ui.fill('guide-cloud-address', 'no-such-host.invalid');
    await ui.fill('guide-cloud-port', '1883');
    await ui.fill('guide-cloud-key', 'edge-access-token');
    await ui.fill('guide-cloud-http-url', 'ftp://cloud.example.com');
    await ui.clickTestId('guide-cloud-test');
    await ui.expectFieldError('guide-cloud-http-url', text('zh_CN', 'errors:cloud.httpUrlInvalid', { max: 256 }));
    await ui.screenshot('guide-cloud-http-url-invalid');
  });

  it('tests the connection to a host that does not exist and shows the answer, without saving', async () => {
    await ui.fill('guide-cloud-http-url', 'http://no-such-host.invalid:8080');
    const testable = await hasConnectionTest();
    if (!testable) ui.allowConsoleError(/status of 404/);
    await ui.clickTestId('guide-cloud-test');
    const result = await ui.expectVisible('guide-cloud-test-result');
    if (testable) {
      expect(await result.getAttribute('data-result')).toBe('error');
      await ui.expectText('guide-cloud-test-result', 'no-such-host.invalid');
    } else {
      expect(await result.getAttribute('data-result')).toBe('warning');
      await ui.expectText('guide-cloud-test-result', text('zh_CN', 'guide:cloud.testUnavailable'));
    }
    await ui.screenshot('guide-cloud-test-result');
    // Phone width: the four buttons wrap instead of running off the card.
    const desktop = ui.page.viewportSize()!;
    await ui.page.setViewportSize({ width: 390, height: 844 });
    await ui.testId('guide-cloud-submit').scrollIntoViewIfNeeded();
    const submit = (await ui.testId('guide-cloud-submit').boundingBox())!;
    expect(submit.x + submit.width).toBeLessThanOrEqual(390);
    await ui.screenshot('guide-cloud-phone');
    await ui.page.setViewportSize(desktop);
    // Still skippable: standalone, configured later under system configuration.
    await ui.clickTestId('guide-cloud-skip');
    await ui.expectVisible('guide-step-admin');
  });

  it('stores TLS and the HTTP address from the system configuration, shown again after a reload', async () => {
    // Skipping the cloud did not use the setup code, so the admin step asks for it again.
    await ui.fill('guide-setup-code', gateway.setupCode!);
    await ui.fill('guide-admin-username', E2E_ADMIN.username);
    await ui.fill('guide-admin-password', E2E_ADMIN.password);
    await ui.fill('guide-admin-confirm', E2E_ADMIN.password);
    await ui.clickTestId('guide-admin-submit');
    await ui.expectPath('/login');
    await signIn(ui, E2E_ADMIN);
    await ui.expectVisible('main-layout');

    await ui.goto('/system/system-configuration?tab=cloud');
    await ui.expectText('system-cloud-intro', text('zh_CN', 'systemConfig:cloud.notConfigured'));
    await ui.fill('system-cloud-address', 'cloud.example.com');
    await ui.fill('system-cloud-port', '8883');
    await ui.fill('system-cloud-key', 'edge-access-token');
    await ui.clickTestId('system-cloud-tls');
    await ui.fill('system-cloud-http-url', 'https://cloud.example.com');
    await ui.clickTestId('system-cloud-save');
    await ui.expectPageText(text('zh_CN', 'systemConfig:cloud.saved'));

    await ui.reload();
    await ui.expectText('system-cloud-intro', text('zh_CN', 'systemConfig:cloud.intro'));
    expect(await ui.testId('system-cloud-http-url').inputValue()).toBe('https://cloud.example.com');
    expect(await ui.testId('system-cloud-tls').getAttribute('aria-checked')).toBe('true');
    await ui.screenshotMatrix('system-cloud', () => ui.expectVisible('system-cloud'));
  });
});
