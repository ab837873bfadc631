/**
 * Operation management in the browser, through the built x64 binary in Chromium: the administrator
 * renames the platform and the brand in the same tab changes without a reload (the operation
 * shell's header, then the console's sidebar and the page title); a banner created shows on the
 * login page of a signed-out visitor; a guide entry shows on the workbench's quick entries.
 * Screens in zh_CN/en_US × light/dark (test-results/screenshots/operation).
 */
import { describe, expect, it } from 'vitest';
import { solidPng, type Ui } from '../helpers/browser.ts';
import { E2E_ADMIN, startE2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';
import { E2E_POLL, E2E_TIMEOUT_MS } from '../helpers/e2e-wait.ts';

const PLATFORM = '边缘运营平台';
const png = (rgb: [number, number, number]) => ({ name: 'image.png', mimeType: 'image/png', buffer: solidPng(64, 64, rgb) });

let ui: Ui;
let baseUrl: string;

useE2eSpec('operation', startE2eGateway, async (ctx) => {
  ({ ui } = ctx);
  baseUrl = ctx.gateway.url;
  await ctx.gateway.provision();
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

describe('operation management', () => {
  it('applies a new platform name and logo to the brand and title at once, in the same tab', async () => {
    await ui.goto('/operation-manage/logo');
    await ui.expectVisible('operation-layout');
    await ui.fill('branding-name', PLATFORM);
    await ui.chooseFile('branding-logo', png([40, 120, 220]));
    await ui.expectVisible('branding-logo-preview');
    await ui.chooseFile('branding-icon', png([220, 120, 40]));
    await ui.expectVisible('branding-icon-preview');
    await ui.fill('branding-slogan', '让每台网关都好用');
    await ui.clickTestId('branding-save');
    await ui.expectPageText(text('zh_CN', 'operation:branding.saved'));
    await ui.expectText('brand', PLATFORM);
    await ui.screenshotMatrix('operation-branding', () => ui.expectVisible('branding-page'));

    // Back to the console by the shell's own link: a client-side navigation, no reload.
    await ui.clickTestId('op-nav-workbench');
    await ui.expectVisible('main-layout');
    await ui.expectText('brand', PLATFORM);
    await expect.poll(() => ui.page.title(), E2E_POLL).toContain(PLATFORM);
  });

  it('shows a created banner on the login page', async () => {
    await ui.goto('/operation-manage/banner');
    await ui.expectText('banner-page', text('zh_CN', 'operation:banner.empty'));
    await ui.clickTestId('banner-create');
    await ui.fill('banner-form-name', '新品发布');
    await ui.chooseFile('banner-form-image', png([90, 160, 90]));
    await ui.expectVisible('banner-form-image-preview');
    await ui.fill('banner-form-url', 'https://example.com/news');
    await ui.clickTestId('banner-drawer-submit');
    await ui.expectHidden('banner-drawer');
    await ui.expectPageText('新品发布');
    await ui.screenshotMatrix('operation-banners', () => ui.expectVisible('banner-page'));

    const visitor = await ui.page.context().browser()!.newContext();
    try {
      const page = await visitor.newPage();
      await page.goto(`${baseUrl}/login`);
      await page.getByTestId('login-banners').getByText('新品发布').waitFor({ timeout: E2E_TIMEOUT_MS * 2 });
      await page.getByTestId('login-page').getByText(PLATFORM).first().waitFor({ timeout: E2E_TIMEOUT_MS * 2 });
      await page.screenshot({ path: 'test-results/screenshots/operation/login-with-banner.png', fullPage: true });
    } finally {
      await visitor.close();
    }
  });

  it('shows a created guide entry on the workbench quick entries', async () => {
    await ui.goto('/operation-manage/guide');
    await ui.clickTestId('guide-create');
    await ui.fill('guide-form-name', '组织管理指南');
    await ui.chooseFile('guide-form-image', png([160, 90, 160]));
    await ui.expectVisible('guide-form-image-preview');
    await ui.fill('guide-form-url', '/system/organization');
    await ui.clickTestId('guide-drawer-submit');
    await ui.expectHidden('guide-drawer');
    await ui.screenshotMatrix('operation-guides', () => ui.expectVisible('guide-page'));

    await ui.clickTestId('op-nav-workbench');
    await ui.expectVisible('wb-quick');
    await ui.page.getByTestId('wb-quick').getByText('组织管理指南').waitFor({ timeout: E2E_TIMEOUT_MS * 2 });
  });

  it('lists the firmware packages and the licence in the operation shell', async () => {
    await ui.goto('/operation-manage/firmware');
    await ui.expectVisible('op-firmware-running');
    await ui.screenshotMatrix('operation-firmware', () => ui.expectVisible('op-firmware-page'));
    await ui.clickTestId('op-nav-license');
    await ui.expectVisible('license-tab-status');
    await ui.screenshotMatrix('operation-license', () => ui.expectVisible('license-tab-status'));
  });
});
