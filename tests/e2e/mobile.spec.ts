/**
 * The console on a phone (390 × 844), through the built x64 binary: no sidebar but a menu button
 * whose drawer navigates and closes, filters one per line, tables scrolling inside their card,
 * drawers the full width, and no page wider than the screen. Screens in zh_CN/en_US × light/dark
 * go to test-results/screenshots/mobile: login, workbench, the menu drawer, device list, device
 * detail, a form drawer and product list.
 */
import { describe, expect, it } from 'vitest';
import type { Device } from '../../server/contract/device.ts';
import { deviceDetailPath } from '../../server/contract/console-paths.ts';
import type { Ui } from '../helpers/browser.ts';
import { seedDevice } from '../helpers/e2e-devices.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';

const PHONE = { width: 390, height: 844 };
const DEVICE = 'E2E-Phone-Sensor-01';

let gateway: E2eGateway;
let ui: Ui;
let device: Device;

useE2eSpec('mobile', startE2eGateway, async (ctx) => {
  ({ gateway, ui } = ctx);
  await gateway.provision();
  ({ device } = await seedDevice(gateway, { product: '手机布局产品', device: DEVICE, alias: '一号车间温湿度传感器' }));
  await ui.page.setViewportSize(PHONE);
  await ui.goto('/login');
  await ui.expectVisible('login-page');
});

/** Neither the page nor the console's content area is wider than the screen. */
async function expectNoSidewaysOverflow(): Promise<void> {
  const widths = await ui.page.evaluate(() => {
    const content = document.querySelector('.main-content');
    return {
      page: document.scrollingElement!.scrollWidth,
      content: content ? content.scrollWidth - content.clientWidth : 0,
      screen: window.innerWidth,
    };
  });
  expect(widths.page).toBeLessThanOrEqual(widths.screen);
  expect(widths.content).toBe(0);
}

describe('the console at 390 px', () => {
  it('shows the login page within the screen', async () => {
    await expectNoSidewaysOverflow();
    await ui.screenshotMatrix('login', () => ui.expectVisible('login-page'));
  });

  it('hides the sidebar and opens the whole menu in a drawer from the header', async () => {
    await signIn(ui, E2E_ADMIN);
    await ui.expectVisible('workbench');
    expect(await ui.page.locator('.main-sider').count()).toBe(0);
    await expectNoSidewaysOverflow();
    await ui.screenshotMatrix('workbench', () => ui.expectVisible('workbench'));

    const openMenu = async (): Promise<void> => {
      await ui.clickTestId('menu-drawer-open');
      await ui.expectVisible('menu-drawer');
    };
    await openMenu();
    await ui.screenshotMatrix('menu-drawer', openMenu);
  });

  it('navigates from the menu drawer, which closes on the choice', async () => {
    await ui.expectVisible('menu-drawer');
    await ui.clickTestId('menu-DeviceManage');
    await ui.clickTestId('menu-Device');
    await ui.expectPath('/device-manage/device');
    await ui.expectHidden('menu-drawer');
    await ui.expectVisible(`device-open-${DEVICE}`);
  });

  it('stacks the device filters one per line on one-line labels, the table scrolling inside its card', async () => {
    await expectNoSidewaysOverflow();
    const labels = ui.page.locator('.ec-resource__filters .arco-form-label-item label');
    const boxes = await labels.evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ top: r.top, height: r.height })));
    expect(boxes.length).toBeGreaterThan(3);
    // One line of 14 px text; a label wrapped one character per line is several times taller.
    for (const box of boxes) expect(box.height).toBeLessThan(30);
    // One filter per line: every label starts below the one before it.
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.top).toBeGreaterThan(boxes[i - 1]!.top);
    const table = await ui.page.evaluate(() => {
      const inner = document.querySelector('[data-testid="device-table"] .arco-table-content-inner');
      return inner ? { scroll: inner.scrollWidth, client: inner.clientWidth } : null;
    });
    expect(table).not.toBeNull();
    expect(table!.scroll).toBeGreaterThan(table!.client);
    await ui.screenshotMatrix('device-list', () => ui.expectVisible(`device-open-${DEVICE}`));
  });

  it('opens the create drawer the full width of the screen', async () => {
    const openDrawer = async (): Promise<void> => {
      await ui.clickTestId('device-create');
      await ui.expectVisible('device-drawer-submit');
    };
    await openDrawer();
    await ui.settle();
    const drawer = await ui.page.locator('.arco-drawer').filter({ has: ui.testId('device-drawer-submit') }).boundingBox();
    // Sub-pixel layout may leave a fraction of a pixel either way.
    expect(drawer?.x).toBeCloseTo(0, 0);
    expect(drawer?.width).toBeCloseTo(PHONE.width, 0);
    await ui.screenshotMatrix('device-create-drawer', openDrawer);
  });

  it('shows the device detail within the screen', async () => {
    await ui.goto(deviceDetailPath(device.id));
    await ui.expectVisible('device-detail');
    await expectNoSidewaysOverflow();
    await ui.screenshotMatrix('device-detail', () => ui.expectVisible('device-detail'));
  });

  it("keeps the import wizard's step labels within the screen", async () => {
    await ui.goto('/device-manage/device?import=csv');
    await ui.expectVisible('import-steps');
    await expectNoSidewaysOverflow();
    const steps = await ui.testId('import-steps').boundingBox();
    expect(steps!.x + steps!.width).toBeLessThanOrEqual(PHONE.width);
    await ui.screenshotMatrix('import-wizard', () => ui.expectVisible('import-steps'));
  });

  it('shows the product list within the screen', async () => {
    await ui.goto('/device-manage/product');
    await ui.expectVisible('product-page');
    await expectNoSidewaysOverflow();
    await ui.screenshotMatrix('product-list', () => ui.expectVisible('product-page'));
  });
});
