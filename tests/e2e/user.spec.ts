/**
 * Personal features and notices in the browser, through the built x64 binary in Chromium: the
 * settings drawer's modes kept across a reload and followed to a second browser (they live on the
 * server), a notice written with the rich text editor, published and read in "my notices", the
 * unsaved-changes confirmation of a form, the logout confirmation, and the audit log of it all.
 * Screens are captured in zh_CN/en_US × light/dark (test-results/screenshots/personal).
 */
import { describe, expect, it } from 'vitest';
import { launchBrowser, type Ui } from '../helpers/browser.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';

const NOTICE_TITLE = 'E2E 停电通知';

let ui: Ui;
let gateway: E2eGateway;

useE2eSpec('personal', startE2eGateway, async (ctx) => {
  ({ ui, gateway } = ctx);
  await ctx.gateway.provision();
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

async function openDrawer(): Promise<void> {
  await ui.clickTestId('settings-drawer-open');
  await ui.expectVisible('settings-drawer');
}

async function closeDrawer(): Promise<void> {
  await ui.page.keyboard.press('Escape');
  await ui.expectHidden('settings-drawer');
}

describe('personal features', () => {
  it('keeps the navigation mode, page width and gray mode across a reload and in another browser', async () => {
    await openDrawer();
    await ui.clickTestId('settings-nav-top');
    await ui.page.locator('.main-layout--top').waitFor();
    await ui.clickTestId('settings-width-fixed');
    await ui.page.locator('.page-body--fixed').waitFor();
    await ui.clickTestId('settings-gray');
    await ui.page.waitForFunction(() => document.documentElement.style.filter.includes('grayscale'));
    await ui.screenshot('settings-top-fixed-gray');
    await ui.clickTestId('settings-nav-mix');
    await ui.page.locator('.main-layout--mix').waitFor();
    await closeDrawer();

    await ui.reload();
    await ui.page.locator('.main-layout--mix').waitFor();
    await ui.page.locator('.page-body--fixed').waitFor();
    expect(await ui.page.evaluate(() => document.documentElement.style.filter)).toContain('grayscale');

    // A browser with an empty profile: the settings come from the server after sign-in.
    const other = await launchBrowser();
    try {
      const second = await other.newUi(gateway.url, 'personal-second-browser');
      await second.goto('/login');
      await signIn(second, E2E_ADMIN);
      await second.expectVisible('main-layout');
      await second.page.locator('.main-layout--mix').waitFor();
      await second.page.locator('.page-body--fixed').waitFor();
      await second.page.waitForFunction(() => document.documentElement.style.filter.includes('grayscale'));
      expect(await second.settings()).toMatchObject({ navMode: 'mix', pageWidth: 'fixed', grayMode: true });
      second.assertNoConsoleErrors();
    } finally {
      await other.close();
    }

    // Back to the sidebar, full width and colour for the pictures that follow.
    await openDrawer();
    await ui.clickTestId('settings-nav-sidebar');
    await ui.clickTestId('settings-width-fluid');
    await ui.clickTestId('settings-gray');
    await ui.page.waitForFunction(() => !document.documentElement.style.filter.includes('grayscale'));
    await ui.page.locator('.main-layout--sidebar').waitFor();
    await closeDrawer();
  });

  it('asks before closing a notice form with unsaved changes, and stays when told to', async () => {
    await ui.goto('/system/notice');
    await ui.expectVisible('notice-page');
    await ui.clickTestId('notice-create');
    await ui.expectVisible('notice-drawer');
    await ui.fill('notice-form-title', 'draft');
    await ui.clickTestId('notice-drawer-cancel');
    await ui.expectText('leave-confirm-cancel', text('zh_CN', 'common:stay'));
    await ui.screenshot('notice-unsaved-confirm');
    await ui.clickTestId('leave-confirm-cancel');
    await ui.expectVisible('notice-drawer');
    expect(await ui.testId('notice-form-title').inputValue()).toBe('draft');
    await ui.clickTestId('notice-drawer-cancel');
    await ui.clickTestId('leave-confirm-ok');
    await ui.expectHidden('notice-drawer');
  });

  it('asks before leaving a settings page with an unsaved edit through the menu', async () => {
    await ui.goto('/system/system-configuration?tab=storage');
    await ui.fill('map-tile-url', 'http://192.168.1.20:8080/tiles/{z}/{x}/{y}.png');
    await ui.clickTestId('menu-Organization');
    await ui.expectVisible('leave-confirm-cancel');
    await ui.clickTestId('leave-confirm-cancel');
    await ui.expectPath('/system/system-configuration');
    // Undoing the edit leaves nothing unsaved: the menu then goes straight on.
    await ui.fill('map-tile-url', '');
    await ui.clickTestId('menu-Organization');
    await ui.expectPath('/system/organization');
    await ui.goto('/system/notice');
    await ui.expectVisible('notice-page');
  });

  it('writes a notice with the editor, publishes it to all users, and reads it in my notices', async () => {
    await ui.clickTestId('notice-create');
    await ui.expectVisible('notice-drawer');
    await ui.fill('notice-form-title', NOTICE_TITLE);
    await ui.clickTestId('notice-form-content-area');
    await ui.page.keyboard.type('明晚 22:00 ');
    await ui.clickTestId('notice-form-content-bold');
    await ui.page.keyboard.type('全厂停电');
    await ui.screenshot('notice-drawer-filled');
    await ui.clickTestId('notice-drawer-submit');
    await ui.expectHidden('notice-drawer');
    await ui.expectPageText(text('zh_CN', 'notice:created'));

    const row = ui.page.locator('[data-testid^="notice-publish-"]:not([data-testid$="-confirm"])').first();
    const id = (await row.getAttribute('data-testid'))!.slice('notice-publish-'.length);
    await ui.expectText(`notice-status-${id}`, text('zh_CN', 'notice:status.DRAFT'));
    // The saved draft in its edit drawer, in both languages and themes (clean, so a reload leaves it freely).
    const openEdit = async (): Promise<void> => {
      await ui.clickTestId(`notice-edit-${id}`);
      await ui.expectVisible('notice-form-content-area');
    };
    await ui.screenshotMatrix('notice-drawer', openEdit);
    expect(await ui.testId('notice-form-content-area').innerHTML()).toContain('<b>全厂停电</b>');
    await ui.clickTestId('notice-drawer-cancel');
    await ui.expectHidden('notice-drawer');
    await ui.clickTestId(`notice-publish-${id}`);
    await ui.clickTestId(`notice-publish-${id}-confirm`);
    await ui.expectText(`notice-status-${id}`, text('zh_CN', 'notice:status.PUBLISHED'));
    await ui.screenshotMatrix('notice-list', () => ui.expectVisible(`notice-status-${id}`));

    await ui.goto('/system/my-notice');
    await ui.expectText(`my-notice-title-${id}`, NOTICE_TITLE);
    await ui.expectText(`my-notice-read-${id}`, text('zh_CN', 'notice:readState.unread'));
    await ui.clickTestId(`my-notice-view-${id}`);
    await ui.expectVisible('my-notice-content');
    expect(await ui.testId('my-notice-content').innerHTML()).toMatch(/<b>全厂停电<\/b>/);
    await ui.screenshot('my-notice-open');
    await ui.clickTestId('my-notice-close');
    await ui.expectText(`my-notice-read-${id}`, text('zh_CN', 'notice:readState.read'));
    await ui.screenshotMatrix('my-notice', () => ui.expectVisible(`my-notice-read-${id}`));
  });

  it('shows the sign-in and the notice changes in the audit log', async () => {
    await ui.goto('/system/audit-log?action=notice');
    await ui.expectVisible('audit-log-page');
    // Descriptions come from the locale files by the call's operationId, not the routes' English.
    await ui.expectPageText(text('zh_CN', 'auditLog:operations.postYtNoticeIdPublish'));
    await ui.expectPageText(text('zh_CN', 'auditLog:operations.postYtNotice'));
    // The method and route are internal: shown only in the action's tooltip.
    expect(await ui.page.getByText('POST /api/yt/notice/:id/publish').count()).toBe(0);
    await ui.page.locator('[data-testid^="audit-action-"]').first().hover();
    await ui.expectPageText('POST /api/yt/notice');
    await ui.screenshot('audit-log-descriptions-zh_CN');
    await ui.goto('/system/audit-log');
    await ui.expectPageText(text('zh_CN', 'auditLog:actions.signIn'));
    // A user name narrows the log to that user.
    await ui.page.locator('[data-testid^="audit-user-"]').first().click();
    await ui.page.waitForFunction(() => new URLSearchParams(location.search).has('userId'));
    await ui.expectPageText(text('zh_CN', 'auditLog:actions.signIn'));
    await ui.screenshotMatrix('audit-log', () => ui.expectVisible('audit-log-page'));
  });

  it('fits the notice, my-notice and audit pages on a phone', async () => {
    await ui.page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [path, ready, shot] of [
        ['/system/notice', 'notice-page', 'phone-notice'],
        ['/system/my-notice', 'my-notice-page', 'phone-my-notice'],
        ['/system/audit-log', 'audit-log-page', 'phone-audit-log'],
      ] as const) {
        await ui.goto(path);
        await ui.expectVisible(ready);
        const widths = await ui.page.evaluate(() => {
          const content = document.querySelector('.main-content');
          return { page: document.scrollingElement!.scrollWidth, content: content ? content.scrollWidth - content.clientWidth : 0, screen: window.innerWidth };
        });
        expect(widths.page).toBeLessThanOrEqual(widths.screen);
        expect(widths.content).toBe(0);
        await ui.screenshot(shot);
      }
    } finally {
      await ui.page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('asks before signing out, and stays signed in on cancel', async () => {
    await ui.clickTestId('user-menu');
    await ui.clickTestId('user-menu-logout');
    await ui.expectText('logout-confirm-ok', text('zh_CN', 'layout:logout.ok'));
    await ui.screenshot('logout-confirm');
    await ui.clickTestId('logout-confirm-cancel');
    await ui.expectVisible('main-layout');
    await ui.clickTestId('user-menu');
    await ui.clickTestId('user-menu-logout');
    await ui.clickTestId('logout-confirm-ok');
    await ui.expectVisible('login-username');
  });
});
