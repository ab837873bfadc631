/**
 * The foundation's walk through the built x64 binary in Chromium, as a new administrator does it: first
 * boot and the activation wizard (licence from `npm run license`), sign-in, the shell (menu,
 * language, theme, settings drawer), profile, password change, the exception page and logout.
 * Each step asserts what the user sees. The steps share one gateway and one tab and run in order.
 * Main screens are also captured in zh_CN/en_US × light/dark (test-results/screenshots/foundation).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate, getRgbStr } from '@arco-design/color';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/build.ts';
import { StorageKey } from '../../web/lib/storage.ts';
import type { Language } from '../../server/contract/languages.ts';
import { startBinary, type RunningBinary } from '../helpers/binary.ts';
import { solidPng, type Ui } from '../helpers/browser.ts';
import { signIn as signInAs, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';

/** Step 6 of the dark primary palette Arco derives from the green preset (#00B42A). */
const GREEN_DARK_6 = getRgbStr(generate('#00B42A', { list: true, dark: true })[5]!);

const ADMIN = 'admin';
const PASSWORD = 'Edge@Console1';
const NEW_PASSWORD = 'Edge#Console2';
const PLATFORM_NAME = 'E2E 边缘网关';
const CUSTOMER = 'E2E Customer';

/** The console's menu: groups in sort order, each with its visible entries (menu.json keys). */
const MENU: [group: string, entries: string[]][] = [
  ['dashboard', ['workbench']],
  ['deviceManage', ['product', 'device', 'category']],
  ['softGateway', ['nodeRed', 'protocolModule']],
  ['maintenance', ['alarmRecord']],
  ['ruleEngine', ['sceneLinkage']],
  ['visualization', ['template', 'sandbox', 'report']],
  ['videoCenter', ['video']],
  ['system', ['organization', 'edgeState', 'cloudEvent', 'systemConfiguration', 'user', 'notice', 'myNotice', 'auditLog']],
  ['operationManage', ['logoManage', 'bannerManage', 'guideManage', 'firmwareManage', 'licenseManage']],
];

function expectedMenu(lang: Language): string[][] {
  return MENU.map(([group, entries]) => [group, ...entries].map((key) => text(lang, `menu:${key}`)));
}

let gateway: RunningBinary;
let ui: Ui;
let licFile: string;

/** The binary trusting a key from the licence tool, which also issues the licence, as a new user would do it. */
async function startWithToolKey(): Promise<RunningBinary> {
  const keyDir = mkdtempSync(join(tmpdir(), 'edge-e2e-foundation-'));
  licFile = join(keyDir, 'edge.lic');
  const tool = (...args: string[]): void => {
    execFileSync(join(root, 'node_modules/.bin/tsx'), ['scripts/license.ts', ...args], { cwd: root, stdio: 'pipe' });
  };
  tool('keygen', '--out', keyDir);
  tool('issue', '--private-key', join(keyDir, 'license-private.pem'), '--device', '*', '--days', '30', '--customer', CUSTOMER, '--out', licFile);
  const bin = await startBinary({ args: ['--license-public-key', join(keyDir, 'license-public.pem')] });
  return {
    ...bin,
    async kill() {
      await bin.kill();
      rmSync(keyDir, { recursive: true, force: true });
    },
  };
}

useE2eSpec('foundation', startWithToolKey, async (ctx) => {
  ({ gateway, ui } = ctx);
});

/** The sidebar's menu as the user reads it: each group's title followed by its entries. */
async function sidebarMenu(): Promise<string[][]> {
  return ui.page.locator('.side-menu .arco-menu-inner > [data-testid^="menu-"]').evaluateAll((groups) =>
    groups.map((g) => [...g.querySelectorAll('.app-menu__label')].map((l) => l.textContent?.trim() ?? '')),
  );
}

async function openUserMenu(): Promise<void> {
  await ui.clickTestId('user-menu');
  await ui.page.locator('[data-testid="user-menu"][aria-expanded="true"]').waitFor();
  await ui.expectVisible('user-menu-profile');
}

/** Esc closes the popover once focus has moved into it, as it does for a keyboard user. */
async function closeUserMenu(): Promise<void> {
  await ui.page.waitForFunction(() => document.activeElement?.closest('.user-menu') !== null);
  await ui.page.keyboard.press('Escape');
  await ui.page.locator('[data-testid="user-menu"][aria-expanded="false"]').waitFor();
  await ui.expectHidden('user-menu-profile');
}

function signIn(password: string): Promise<void> {
  return signInAs(ui, { username: ADMIN, password });
}

/** Opens a user popover item and waits for the control that shows its dialog is ready. */
async function openFromUserMenu(item: string, ready: string): Promise<void> {
  await openUserMenu();
  await ui.clickTestId(item);
  await ui.expectVisible(ready);
}

async function openDrawer(): Promise<void> {
  await ui.clickTestId('settings-drawer-open');
  await ui.expectVisible('settings-drawer');
}

describe('first boot to a signed-in console', () => {
  it('sends the root of a new gateway to the activation wizard', async () => {
    await ui.goto('/');
    await ui.expectPath('/guide');
    await ui.expectVisible('guide-step-license');
    await ui.expectText('guide-page', text('zh_CN', 'guide:title'));
    await ui.screenshotMatrix('guide-license', () => ui.expectVisible('guide-step-license'));
  });

  it('activates with the setup code and a licence from the licence tool, and shows the licence', async () => {
    await ui.fill('guide-setup-code', gateway.setupCode!);
    await ui.chooseFile('guide-license-file', { name: 'edge.lic', mimeType: 'application/octet-stream', buffer: readFileSync(licFile) });
    await ui.expectText('guide-license-details', CUSTOMER);
    await ui.expectPageText(text('zh_CN', 'guide:license.activated'));
    await ui.screenshot('guide-license-activated');
    await ui.clickTestId('guide-license-next');
    await ui.expectVisible('guide-step-cloud');
    await ui.expectText('guide-activated', CUSTOMER);
  });

  it('refuses invalid cloud settings inline, then skips to standalone', async () => {
    await ui.screenshotMatrix('guide-cloud', () => ui.expectVisible('guide-step-cloud'));
    await ui.fill('guide-cloud-address', 'not a host!');
    await ui.fill('guide-cloud-port', '70000');
    await ui.clickTestId('guide-cloud-submit');
    await ui.expectFieldError('guide-cloud-address', text('zh_CN', 'errors:cloud.addressInvalid'));
    await ui.expectFieldError('guide-cloud-port', text('zh_CN', 'guide:cloud.portInvalid'));
    await ui.expectFieldError('guide-cloud-key', text('zh_CN', 'guide:cloud.keyRequired'));
    await ui.screenshot('guide-cloud-invalid');
    await ui.clickTestId('guide-cloud-skip');
    await ui.expectVisible('guide-step-admin');
  });

  it('refuses a weak password and a mismatched confirmation, then creates the administrator', async () => {
    await ui.screenshotMatrix('guide-admin', () => ui.expectVisible('guide-step-admin'));
    // No platform name is chosen yet: the wizard shows the console's own name in the reader's language.
    await ui.expectText('auth-footer', text('zh_CN', 'common:appTitle'));
    await ui.fill('guide-admin-username', ADMIN);
    await ui.fill('guide-admin-password', 'weakpass1');
    await ui.fill('guide-admin-confirm', 'weakpass1');
    await ui.clickTestId('guide-admin-submit');
    await ui.expectFieldError('guide-admin-password', text('zh_CN', 'errors:password.policy'));
    await ui.screenshot('guide-admin-weak-password');

    await ui.fill('guide-admin-password', PASSWORD);
    await ui.fill('guide-admin-confirm', `${PASSWORD}x`);
    await ui.clickTestId('guide-admin-submit');
    await ui.expectFieldError('guide-admin-confirm', text('zh_CN', 'errors:password.mismatch'));
    await ui.expectNoFieldError('guide-admin-password');
    await ui.screenshot('guide-admin-mismatch');

    await ui.fill('guide-admin-confirm', PASSWORD);
    await ui.fill('guide-platform-name', PLATFORM_NAME);
    await ui.clickTestId('guide-admin-submit');
    await ui.expectPath('/login');
    expect(ui.search().get('username')).toBe(ADMIN);
    await ui.expectText('login-page', PLATFORM_NAME);
    expect(await ui.testId('login-username').inputValue()).toBe(ADMIN);
  });

  it('shows the platform name on the login page and refuses a wrong password', async () => {
    await ui.expectText('login-page', text('zh_CN', 'auth:tagline'));
    await ui.screenshotMatrix('login', () => ui.expectText('login-page', PLATFORM_NAME));
    ui.allowConsoleError(/status of 401/);
    await signIn('Wrong@Pass9');
    await ui.expectText('login-error', text('zh_CN', 'errors:auth.badCredentials'));
    expect(ui.path()).toBe('/login');
    await ui.screenshot('login-wrong-password');
  });

  it('signs in to the workbench inside the main layout with the whole menu', async () => {
    await signIn(PASSWORD);
    await ui.expectPath('/dashboard/workbench');
    await ui.expectVisible('main-layout');
    await ui.expectText('brand', PLATFORM_NAME);
    await ui.expectText('user-menu', ADMIN);
    await ui.expectVisible('breadcrumb');
    expect(await sidebarMenu()).toEqual(expectedMenu('zh_CN'));
    expect(await ui.page.title()).toContain(text('zh_CN', 'menu:workbench'));
    await ui.screenshot('workbench-signed-in');
  });

  it('switches to English and to the dark theme from the header', async () => {
    await ui.clickTestId('header-language');
    await ui.expectText('menu-Dashboard', text('en_US', 'menu:dashboard'));
    expect(await sidebarMenu()).toEqual(expectedMenu('en_US'));
    expect(await ui.page.locator('html').getAttribute('lang')).toBe('en');

    await ui.clickTestId('header-theme');
    await ui.page.waitForFunction(() => document.body.getAttribute('arco-theme') === 'dark');
    await ui.screenshotMatrix('workbench', () => ui.expectVisible('main-layout'));
  });

  it('applies the settings drawer at once and keeps them after a reload', async () => {
    await openDrawer();
    await ui.screenshot('settings-drawer');

    await ui.clickTestId('settings-breadcrumb');
    await ui.expectHidden('breadcrumb');
    await ui.clickTestId('settings-breadcrumb');
    await ui.expectVisible('breadcrumb');

    await ui.clickTestId('settings-gray');
    await ui.page.waitForFunction(() => document.documentElement.style.filter.includes('grayscale'));
    await ui.clickTestId('settings-width-fixed');
    await ui.page.locator('.page-body--fixed').waitFor();
    await ui.clickTestId('settings-preset-green');
    // The primary palette follows the preset (the console is in the dark theme here).
    await ui.page.waitForFunction((rgb) => document.body.style.getPropertyValue('--primary-6') === rgb, GREEN_DARK_6);
    await ui.screenshot('settings-drawer-gray-fixed');

    await ui.reload();
    await ui.expectVisible('main-layout');
    await ui.expectVisible('breadcrumb');
    await ui.page.locator('.page-body--fixed').waitFor();
    expect(await ui.page.evaluate(() => document.documentElement.style.filter)).toContain('grayscale');
    expect(await ui.look()).toEqual({ language: 'en_US', theme: 'dark' });
    await ui.expectText('menu-Dashboard', text('en_US', 'menu:dashboard'));
    expect(await ui.settings()).toMatchObject({ grayMode: true, pageWidth: 'fixed', showBreadcrumb: true, language: 'en_US', themeMode: 'dark', colorPreset: '#00B42A' });
    expect(await ui.page.evaluate(() => document.body.style.getPropertyValue('--primary-6'))).toBe(GREEN_DARK_6);

    // Back to colour and full width, so later pictures show the console as most users see it.
    await openDrawer();
    await ui.clickTestId('settings-gray');
    await ui.clickTestId('settings-width-fluid');
    await ui.clickTestId('settings-preset-violet');
    await ui.page.waitForFunction(() => !document.documentElement.style.filter.includes('grayscale'));
    await ui.screenshotMatrix('settings-drawer', openDrawer);
    await ui.page.keyboard.press('Escape');
    await ui.expectHidden('settings-drawer');
  });

  it('edits the profile: a bad phone is refused inline, the saved name and avatar show in the popover', async () => {
    const openProfile = (): Promise<void> => openFromUserMenu('user-menu-profile', 'profile-realname');
    await openProfile();
    expect(await ui.testId('profile-username').inputValue()).toBe(ADMIN);
    await ui.screenshotMatrix('profile-modal', openProfile);

    await ui.fill('profile-realname', 'Ada Operator');
    await ui.fill('profile-phone', '12345');
    await ui.blur('profile-phone');
    await ui.expectFieldError('profile-phone', text('en_US', 'user:info.phoneInvalid'));
    await ui.screenshot('profile-bad-phone');
    await ui.fill('profile-phone', '13800138000');
    await ui.blur('profile-phone');
    await ui.expectNoFieldError('profile-phone');
    await ui.fill('profile-email', 'ada@example.com');
    await ui.chooseFile('profile-avatar', { name: 'avatar.png', mimeType: 'image/png', buffer: solidPng(16, 16, [255, 125, 0]) });
    expect(await ui.expectImageLoaded(ui.testId('profile-avatar-preview'))).toBe(16);
    await ui.screenshot('profile-filled');
    await ui.clickTestId('profile-save');
    await ui.expectPageText(text('en_US', 'user:info.editSuccess'));
    await ui.expectHidden('profile-realname');

    await openUserMenu();
    await ui.expectText('user-menu-name', 'Ada Operator');
    expect(await ui.expectImageLoaded(ui.page.locator('.user-menu__avatar img'))).toBe(16);
    await ui.screenshot('user-popover');
    await closeUserMenu();

    // What was saved is what the server holds: the form shows it again when reopened.
    await openProfile();
    expect(await ui.testId('profile-phone').inputValue()).toBe('13800138000');
    expect(await ui.testId('profile-email').inputValue()).toBe('ada@example.com');
    await ui.clickTestId('profile-cancel');
    await ui.expectHidden('profile-realname');
  });

  it('moves keyboard focus into the settings drawer and the password modal, and back to their buttons when Esc closes them', async () => {
    const focusedIn = (selector: string): Promise<unknown> =>
      ui.page.waitForFunction((sel) => document.activeElement?.closest(sel) !== null, selector);
    const focusedOn = (testId: string): Promise<unknown> =>
      ui.page.waitForFunction((id) => document.activeElement?.getAttribute('data-testid') === id, testId);

    await ui.testId('settings-drawer-open').focus();
    await ui.page.keyboard.press('Enter');
    await ui.expectVisible('settings-drawer');
    await focusedIn('.arco-drawer-wrapper');
    await ui.page.keyboard.press('Escape');
    await ui.expectHidden('settings-drawer');
    await focusedOn('settings-drawer-open');

    await ui.testId('user-menu').focus();
    await ui.page.keyboard.press('Enter');
    await focusedIn('.user-menu');
    await ui.testId('user-menu-password').focus();
    await ui.page.keyboard.press('Enter');
    await ui.expectVisible('pwd-current');
    await focusedIn('.arco-modal-wrapper');
    await ui.page.keyboard.press('Escape');
    await ui.expectHidden('pwd-current');
    await focusedOn('user-menu');
  });

  it('refuses a wrong current password, then changes it and asks to sign in again', async () => {
    const openPassword = (): Promise<void> => openFromUserMenu('user-menu-password', 'pwd-current');
    await openPassword();
    await ui.screenshotMatrix('password-modal', openPassword);

    ui.allowConsoleError(/status of 400/);
    await ui.fill('pwd-current', 'Wrong@Pass9');
    await ui.fill('pwd-new', NEW_PASSWORD);
    await ui.fill('pwd-confirm', NEW_PASSWORD);
    await ui.clickTestId('pwd-submit');
    await ui.expectFieldError('pwd-current', text('en_US', 'errors:password.wrongCurrent'));
    await ui.screenshot('password-wrong-current');

    await ui.fill('pwd-current', PASSWORD);
    await ui.clickTestId('pwd-submit');
    await ui.expectPath('/login');
    await ui.expectPageText(text('en_US', 'user:password.success'));
    expect(await ui.testId('login-username').inputValue()).toBe(ADMIN);
    expect(await ui.stored(StorageKey.TOKEN)).toBeNull();
  });

  it('refuses the old password and accepts the new one', async () => {
    ui.allowConsoleError(/status of 401/);
    await signIn(PASSWORD);
    await ui.expectText('login-error', text('en_US', 'errors:auth.badCredentials'));
    await signIn(NEW_PASSWORD);
    await ui.expectPath('/dashboard/workbench');
    await ui.expectText('user-menu', 'Ada Operator');
  });

  it('shows the exception page inside the layout for an unknown path, with a way back', async () => {
    await ui.goto('/no/such/page');
    await ui.expectPath('/exception');
    await ui.expectVisible('main-layout');
    await ui.expectText('exception', text('en_US', 'exception:notFound'));
    await ui.screenshotMatrix('exception', () => ui.expectVisible('exception'));
    await ui.clickTestId('exception-back');
    await ui.expectPath('/dashboard/workbench');
  });

  it('logs out after confirmation and guards the console afterwards', async () => {
    await openUserMenu();
    await ui.clickTestId('user-menu-logout');
    await ui.expectVisible('logout-confirm-ok');
    await ui.expectPageText(text('en_US', 'layout:logout.content'));
    await ui.screenshot('logout-confirm');
    await ui.clickTestId('logout-confirm-ok');
    await ui.expectPath('/login');
    await ui.expectVisible('login-page');
    expect(await ui.stored(StorageKey.TOKEN)).toBeNull();

    await ui.goto('/dashboard/workbench');
    await ui.expectPath('/login');
    expect(ui.search().get('redirect')).toBe('/dashboard/workbench');
    await ui.screenshot('login-after-logout');
  });
});
