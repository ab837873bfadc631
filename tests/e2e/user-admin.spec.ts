/**
 * Users and roles in the browser, through the built x64 binary in Chromium: the administrator
 * creates a customer of one organization on System → User; the customer signs in, sees the reduced
 * menu and only their organization's device, finds no edit button, and a direct edit call is
 * refused with 403 code 20; an alarm of their device they acknowledge and clear. The administrator then resets the customer's password: at the next
 * sign-in the customer must choose a new one before anything else, and only the new one works.
 * Screens in zh_CN/en_US × light/dark (test-results/screenshots/users).
 */
import { describe, expect, it } from 'vitest';
import type { TokenPair } from '../../server/contract/auth.ts';
import type { Device } from '../../server/contract/device.ts';
import type { Organization } from '../../server/contract/organization.ts';
import type { Product } from '../../server/contract/product.ts';
import type { Ui } from '../helpers/browser.ts';
import { temperatureProperty } from '../helpers/e2e-devices.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';
import { E2E_POLL } from '../helpers/e2e-wait.ts';

const ORG = 'E2E工厂';
const OTHER_ORG = 'E2E其他';
const CUSTOMER = { username: 'viewer1', password: 'Viewer#2024ok' };
/** The password the administrator sets, and the one the customer then chooses. */
const RESET = { username: CUSTOMER.username, password: 'Reset#2024ok' };
const CHOSEN = { username: CUSTOMER.username, password: 'Chosen#2024ok' };

let gateway: E2eGateway;
let ui: Ui;
let admin: TokenPair;
let mine: Device;
let theirs: Device;

async function call<T>(token: string, method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${gateway.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const raw = await res.text();
  return { status: res.status, body: (raw ? JSON.parse(raw) : undefined) as T };
}

useE2eSpec('users', startE2eGateway, async (ctx) => {
  ({ gateway, ui } = ctx);
  await gateway.provision();
  admin = await gateway.login();
  const org = (await call<Organization>(admin.token, 'POST', '/api/yt/organization', { name: ORG })).body;
  const other = (await call<Organization>(admin.token, 'POST', '/api/yt/organization', { name: OTHER_ORG })).body;
  const product = (await call<Product>(admin.token, 'POST', '/api/yt/device_profile', { name: 'E2E产品', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' })).body;
  const device = (name: string, organizationId: string) =>
    call<Device>(admin.token, 'POST', '/api/yt/device', { name, deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id, organizationId });
  mine = (await device('E2E-Mine-01', org.id)).body;
  theirs = (await device('E2E-Theirs-01', other.id)).body;
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

describe('users and roles', () => {
  it('lists the administrator on System → User', async () => {
    await ui.goto('/system/user');
    await ui.expectVisible('user-page');
    await ui.expectPageText(E2E_ADMIN.username);
    await ui.expectPageText(text('zh_CN', 'userAdmin:role.SYS_ADMIN'));
    await ui.screenshotMatrix('user-list', () => ui.expectVisible('user-page'));
    // A phone's width: the table scrolls sideways inside the page, the page itself does not.
    // Loaded at that width, as a phone opens it (the narrow layout is chosen as the page renders).
    const desktop = ui.page.viewportSize()!;
    await ui.page.setViewportSize({ width: 390, height: 844 });
    try {
      await ui.reload();
      await ui.expectVisible('user-create');
      expect(await ui.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await ui.screenshot('user-list-phone');
    } finally {
      await ui.page.setViewportSize(desktop);
      await ui.reload();
    }
  });

  it('creates a customer of one organization with a password they sign in with', async () => {
    await ui.clickTestId('user-create');
    await ui.expectVisible('user-drawer');
    await ui.fill('user-form-username', CUSTOMER.username);
    await ui.fill('user-form-realName', '值班员');
    await ui.fill('user-form-password', CUSTOMER.password);
    await ui.clickTestId('user-form-organizations');
    await ui.page.locator('.arco-tree-select-popup .arco-tree-node-title', { hasText: ORG }).first().click();
    await ui.testId('user-drawer').getByText(text('zh_CN', 'userAdmin:createTitle')).first().click();
    await ui.screenshot('user-drawer-create');
    await ui.clickTestId('user-drawer-submit');
    await ui.expectHidden('user-drawer');
    await ui.expectPageText(text('zh_CN', 'userAdmin:created'));
    await ui.expectPageText(CUSTOMER.username);
    await ui.expectPageText(ORG);
  });

  it('signs the customer in to a reduced menu', async () => {
    await ui.clickTestId('user-menu');
    await ui.clickTestId('user-menu-logout');
    await ui.clickTestId('logout-confirm-ok');
    await ui.expectVisible('login-username');
    await signIn(ui, CUSTOMER);
    await ui.expectVisible('main-layout');
    // Entries of closed groups are in the page but not on show.
    for (const shown of ['menu-Workbench', 'menu-Device', 'menu-AlarmRecord', 'menu-Organization']) {
      expect(await ui.testId(shown).count(), shown).toBe(1);
    }
    for (const hidden of ['menu-User', 'menu-Category', 'menu-SystemConfiguration', 'menu-CloudEvent', 'menu-SoftGateway', 'menu-VideoCenter']) {
      expect(await ui.testId(hidden).count(), hidden).toBe(0);
    }
    // The workbench's quick entries follow the same permissions as the menu.
    await ui.expectVisible('wb-quick-device');
    for (const hidden of ['wb-quick-category', 'wb-quick-deviceImport']) {
      expect(await ui.testId(hidden).count(), hidden).toBe(0);
    }
  });

  it('shows the customer only their organization’s device, without edit buttons', async () => {
    await ui.goto('/device-manage/device');
    await ui.expectVisible(`device-open-${mine.name}`);
    await ui.expectPageText(text('zh_CN', 'table:total', { total: 1 }));
    for (const hidden of [`device-edit-${mine.name}`, `device-delete-${mine.name}`, 'device-create', 'device-import', `device-open-${theirs.name}`]) {
      expect(await ui.testId(hidden).count(), hidden).toBe(0);
    }
    await ui.screenshotMatrix('customer-devices', () => ui.expectVisible(`device-open-${mine.name}`));
  });

  it('refuses the customer a device edit by a direct call (403 code 20), another organization’s device (404) and the users page', async () => {
    const customer = await gateway.login(CUSTOMER);
    const edit = await call<{ code: number }>(customer.token, 'PUT', '/api/yt/device', {
      id: mine.id,
      name: 'renamed',
      deviceType: mine.deviceType,
      deviceProfileId: mine.deviceProfileId,
    });
    expect(edit.status).toBe(403);
    expect(edit.body.code).toBe(20);
    // Signing out in the browser ended every session of the administrator: a new one.
    admin = await gateway.login();
    expect((await call(admin.token, 'GET', `/api/yt/device/${mine.id}`)).body).toMatchObject({ name: mine.name });
    expect((await call(customer.token, 'GET', `/api/yt/device/${theirs.id}`)).status).toBe(404);

    await ui.goto('/system/user');
    await ui.expectPageText(text('zh_CN', 'exception:forbidden'));
    await ui.screenshot('customer-forbidden');
  });

  it('lets the customer acknowledge and clear an alarm of their device', async () => {
    admin = await gateway.login();
    const ok = async <T,>(method: string, url: string, body?: unknown): Promise<T> => {
      const res = await call<T>(admin.token, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(200);
      return res.body;
    };
    await ok('POST', '/api/yt/things_model', temperatureProperty(mine.deviceProfileId));
    await ok('POST', `/api/yt/things_model/${mine.deviceProfileId}/publish`);
    await ok('POST', '/api/yt/scene_linkage', {
      name: '客户设备高温',
      enabled: true,
      triggers: [
        { type: 'DEVICE_TRIGGER', deviceTriggerType: 'TIME_SERIES', deviceProfileId: mine.deviceProfileId, deviceIds: [mine.id], key: 'temperature', operation: 'GREATER', valueType: 'NUMERIC', value: 80, conditionType: 'SIMPLE' },
      ],
      conditions: [],
      actions: [{ type: 'MSG_NOTIFY', severity: 'MAJOR', alarmType: '高温告警', message: '温度过高' }],
      clearRules: [null],
    });
    const { credentialsId } = await ok<{ credentialsId: string }>('GET', `/api/yt/device/${mine.id}/credentials`);
    const sent = await fetch(`${gateway.url}/api/v1/${credentialsId}/telemetry`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ temperature: 91.5 }) });
    expect(sent.status).toBe(200);
    const customer = await gateway.login(CUSTOMER);
    await expect.poll(async () => (await call<{ total: number }>(customer.token, 'GET', '/api/yt/alarm')).body.total, E2E_POLL).toBe(1);
    const alarm = (await call<{ items: { id: string }[] }>(customer.token, 'GET', '/api/yt/alarm')).body.items[0]!;

    await ui.goto('/maintenance/alarm-record');
    await ui.page.evaluate(() => document.querySelectorAll<HTMLElement>('.arco-notification-close-btn').forEach((b) => b.click()));
    await ui.expectText(`alarm-status-${alarm.id}`, text('zh_CN', 'alarm:status.ACTIVE_UNACK'));
    await ui.clickTestId(`alarm-ack-${alarm.id}`);
    await ui.clickTestId(`alarm-ack-${alarm.id}-confirm`);
    await ui.expectText(`alarm-status-${alarm.id}`, text('zh_CN', 'alarm:status.ACTIVE_ACK'));
    await ui.clickTestId(`alarm-clear-${alarm.id}`);
    await ui.clickTestId(`alarm-clear-${alarm.id}-confirm`);
    await ui.expectText(`alarm-status-${alarm.id}`, text('zh_CN', 'alarm:status.CLEARED_ACK'));
    await ui.screenshot('customer-alarm-handled');
  });

  it('makes the customer choose a new password after an administrator reset it, before anything else, and then only the new one works', async () => {
    await ui.clickTestId('user-menu');
    await ui.clickTestId('user-menu-logout');
    await ui.clickTestId('logout-confirm-ok');
    await signIn(ui, E2E_ADMIN);
    await ui.expectVisible('main-layout');
    await ui.goto('/system/user');
    const users = await call<{ items: { id: string; username: string }[] }>((await gateway.login()).token, 'GET', `/api/yt/user?username=${CUSTOMER.username}`);
    const customerId = users.body.items.find((u) => u.username === CUSTOMER.username)!.id;
    await ui.clickTestId(`user-reset-${customerId}`);
    await ui.fill('user-reset-password', RESET.password);
    await ui.fill('user-reset-confirm', RESET.password);
    await ui.screenshot('user-reset-password');
    await ui.clickTestId('user-reset-submit');
    await ui.expectPageText(text('zh_CN', 'userAdmin:resetDone'));
    // The old password is refused at once.
    const old = await fetch(`${gateway.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CUSTOMER) });
    expect(old.status).toBe(401);

    await ui.clickTestId('user-menu');
    await ui.clickTestId('user-menu-logout');
    await ui.clickTestId('logout-confirm-ok');
    await signIn(ui, RESET);
    await ui.expectVisible('pwd-forced-hint');
    // Neither Esc nor a click beside the dialog closes it, and it has no close button.
    await ui.page.keyboard.press('Escape');
    await ui.page.mouse.click(5, 5);
    await ui.expectVisible('pwd-forced-hint');
    expect(await ui.page.locator('.arco-modal-close-icon').count()).toBe(0);
    expect(await ui.testId('pwd-cancel').count()).toBe(0);
    await ui.screenshotMatrix('forced-password-change', () => ui.expectVisible('pwd-forced-hint'));

    await ui.fill('pwd-current', RESET.password);
    await ui.fill('pwd-new', CHOSEN.password);
    await ui.fill('pwd-confirm', CHOSEN.password);
    await ui.clickTestId('pwd-submit');
    await ui.expectVisible('login-username');
    const reset = await fetch(`${gateway.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(RESET) });
    expect(reset.status).toBe(401);
    await signIn(ui, CHOSEN);
    await ui.expectVisible('main-layout');
    await ui.expectVisible('menu-Workbench');
    expect(await ui.testId('pwd-forced-hint').count()).toBe(0);
    await ui.screenshot('after-forced-change');
  });
});
