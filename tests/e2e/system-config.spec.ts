/**
 * System configuration through the built binary: the basic-info tab shows what the gateway read
 * about itself and saves a time zone (file mode: recorded, the host untouched); the licence tab
 * shows the days left; a factory reset in the browser waits through the gateway's in-process
 * restart on the wait screen and lands on the activation wizard, with a new setup code.
 * Screens in zh_CN/en_US × light/dark (test-results/screenshots/system-config).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consolePaths } from '../../server/contract/console-paths.ts';
import { startE2eGateway, type Admin } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { E2E_TIMEOUT_MS } from '../helpers/e2e-wait.ts';

let admin: Admin;

const ctx = useE2eSpec('system-config', startE2eGateway, async ({ gateway, ui }) => {
  admin = await gateway.provision();
  await ui.goto('/login');
  await signIn(ui, admin);
  await ui.expectVisible('main-layout');
});

describe('system configuration', () => {
  it('shows the basic info read from the gateway and saves a time zone', async () => {
    const { ui } = ctx;
    await ui.goto(consolePaths.systemConfiguration);
    await ui.expectVisible('system-info-sn');
    expect((await ui.testId('system-info-version').textContent())?.length).toBeGreaterThan(0);
    await ui.clickTestId('time-zone');
    await ui.page.keyboard.type('Asia/Shanghai');
    await ui.page.locator('.arco-select-option', { hasText: /^Asia\/Shanghai$/ }).click();
    await ui.clickTestId('time-save');
    await ui.expectText('system-info-zone', 'Asia/Shanghai');
    const recorded = JSON.parse(readFileSync(join(ctx.gateway.dataDir, 'network', 'time.json'), 'utf8')) as { timeZone: string };
    expect(recorded.timeZone).toBe('Asia/Shanghai');
    await ui.screenshotMatrix('basic-info', () => ui.expectVisible('system-info-sn'));
  });

  it('shows the licence with its days left in the licence tab', async () => {
    const { ui } = ctx;
    await ui.goto(`${consolePaths.systemConfiguration}?tab=license`);
    await ui.expectVisible('license-tab-days-left');
    expect(await ui.testId('license-tab-days-left').textContent()).toMatch(/\d+/);
    await ui.screenshotMatrix('license', () => ui.expectVisible('license-tab-days-left'));
  });

  it('resets to factory settings, waits through the restart and lands on the activation wizard', async () => {
    const { ui, gateway } = ctx;
    const oldCode = readFileSync(join(gateway.dataDir, 'setup-code'), 'utf8').trim();
    // The wait screen polls through the restart, when the browser sees refused connections.
    ui.allowConsoleError(/ERR_CONNECTION_REFUSED|Failed to load resource/);
    await ui.goto(`${consolePaths.systemConfiguration}?tab=reset`);
    await ui.fill('reset-password', admin.password);
    await ui.fill('reset-confirm', 'RESET');
    await ui.screenshot('reset-form');
    await ui.clickTestId('reset-submit');
    await ui.clickTestId('reset-confirm-ok');
    await ui.expectPath(consolePaths.factoryReset);
    await ui.page.waitForSelector('[data-testid="reset-wait"][data-phase="ready"]', { timeout: E2E_TIMEOUT_MS * 4 });
    expect(readFileSync(join(gateway.dataDir, 'setup-code'), 'utf8').trim()).not.toBe(oldCode);
    // One picture, not the matrix: a reload of a gateway at first boot goes to the wizard, as it should.
    await ui.screenshot('reset-wait');
    await ui.clickTestId('reset-wait-wizard');
    await ui.expectPath(consolePaths.guide);
    await ui.page.waitForSelector('[data-testid^="guide-step-"]', { timeout: E2E_TIMEOUT_MS * 2 });
  });
});
