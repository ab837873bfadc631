/**
 * The offline manual (/offline-word) through the built binary: a workbench help dialog opens it at
 * its section, the commands carry this gateway's real MQTT port (ephemeral here, so never a
 * default), and search filters sections and marks the term in Chinese and in English. Screens in
 * zh_CN/en_US × light/dark (test-results/screenshots/offline-manual).
 */
import { describe, expect, it } from 'vitest';
import { consolePaths } from '../../server/contract/console-paths.ts';
import { deviceAccessRoutes, type DeviceAccess } from '../../server/contract/device-access.ts';
import { startE2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';

const ctx = useE2eSpec('offline-manual', startE2eGateway, async ({ gateway, ui }) => {
  const admin = await gateway.provision();
  await ui.goto('/login');
  await signIn(ui, admin);
  await ui.expectVisible('main-layout');
});

async function deviceAccess(): Promise<DeviceAccess> {
  const { token } = await ctx.gateway.login();
  const res = await fetch(`${ctx.gateway.url}${deviceAccessRoutes.info.url}`, { headers: { authorization: `Bearer ${token}` } });
  return (await res.json()) as DeviceAccess;
}

/** Where the element's top sits in the window, in px (the anchor scrolled it there). */
async function topOf(testId: string): Promise<number> {
  return ctx.ui.testId(testId).evaluate((el) => el.getBoundingClientRect().top);
}

async function search(term: string): Promise<void> {
  await ctx.ui.fill('manual-search', term);
  await ctx.ui.expectVisible('manual-search-count');
}

describe('offline manual', () => {
  it('opens from the workbench MQTT help at its MQTT section, with the gateway port in the commands', async () => {
    const { ui } = ctx;
    await ui.goto(consolePaths.workbench);
    await ui.clickTestId('help-mqtt');
    await ui.expectVisible('help-body-mqtt');
    await ui.clickTestId('help-open-manual');
    await ui.expectPath(consolePaths.offlineWord);
    expect(new URL(ui.page.url()).hash).toBe('#mqtt');

    const section = await ui.expectVisible('manual-section-mqtt');
    // Scrolled to the section, which has the focus, rather than left at the top of the manual.
    await ui.page.waitForFunction(() => document.activeElement?.id === 'mqtt');
    expect(await topOf('manual-section-mqtt')).toBeLessThan(200);
    expect(await topOf('manual-section-getting-started')).toBeLessThan(0);

    const { mqttPort, mqttsPort } = await deviceAccess();
    expect(mqttPort).not.toBe(1883);
    const code = await section.getByTestId('manual-code').allTextContents();
    expect(code.some((c) => c.includes(`mosquitto_pub -h 127.0.0.1 -p ${mqttPort} -u '<ACCESS_TOKEN>'`))).toBe(true);
    expect(code.some((c) => c.includes(`-p ${mqttsPort} --cafile gateway-mqtts.pem`))).toBe(true);
    await ui.expectText('manual-section-mqtt', text('zh_CN', 'manual:tlsOn', { port: mqttsPort! }));
    await ui.screenshotMatrix('manual-mqtt', () => ui.expectVisible('manual-section-mqtt'));
  });

  it('opens the provisioning and licence sections from their workbench help dialogs', async () => {
    const { ui } = ctx;
    for (const [help, anchor] of [
      ['help-provisioning', 'provisioning'],
      ['help-license', 'license'],
    ] as const) {
      await ui.goto(consolePaths.workbench);
      await ui.clickTestId(help);
      await ui.clickTestId('help-open-manual');
      await ui.expectVisible(`manual-section-${anchor}`);
      await ui.page.waitForFunction((id) => document.activeElement?.id === id, anchor);
      expect(await topOf(`manual-section-${anchor}`)).toBeLessThan(200);
    }
  });

  it('filters sections by a Chinese term and marks it, and says when nothing matches', async () => {
    const { ui } = ctx;
    await ui.goto(consolePaths.offlineWord);
    await ui.expectVisible('manual-section-getting-started');
    await search('预配');
    await ui.expectVisible('manual-section-provisioning');
    await ui.expectHidden('manual-section-mqtt');
    await ui.expectHidden('manual-section-getting-started');
    const marks = ui.testId('manual-section-provisioning').locator('mark');
    expect(await marks.count()).toBeGreaterThan(0);
    expect(await marks.first().textContent()).toBe('预配');
    // The table of contents lists only what matched.
    await ui.expectVisible('manual-toc-provisioning');
    await ui.expectHidden('manual-toc-mqtt');
    await ui.screenshot('manual-search-zh');

    await search('不存在的词语xyz');
    await ui.expectText('manual-search-count', text('zh_CN', 'manual:noMatch'));
    await ui.expectVisible('manual-no-match');

    await ui.fill('manual-search', '');
    await ui.expectVisible('manual-section-mqtt');
  });

  it('finds an English term in the English manual, from the keyboard', async () => {
    const { ui } = ctx;
    await ui.storeSettings({ language: 'en_US' });
    await ui.goto(consolePaths.offlineWord);
    await ui.expectText('manual-section-tcp', 'Not built yet');
    await ui.testId('manual-search').focus();
    await ui.page.keyboard.type('Modbus');
    await ui.page.keyboard.press('Enter');
    await ui.expectVisible('manual-section-tcp');
    await ui.expectHidden('manual-section-http');
    await ui.expectText('manual-search-count', text('en_US', 'manual:matches', { count: 2 }));
    expect(await ui.testId('manual-section-tcp').locator('mark').first().textContent()).toBe('Modbus');
    await ui.screenshotMatrix('manual-search', async () => {
      await search('Modbus');
      await ui.expectVisible('manual-section-tcp');
    });
    await ui.storeSettings({ language: 'zh_CN' });
  });
});
