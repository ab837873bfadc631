/**
 * Organizations in the browser, through the built x64 binary in Chromium: an administrator builds
 * up the organization tree — a refusal shown inline, a sub-organization, a delete refused with its
 * reason on screen, a move to the top level — on a gateway provisioned over HTTP as a factory
 * script does. Each step asserts what the user reads. Screens are captured in zh_CN/en_US ×
 * light/dark (test-results/screenshots/organizations).
 */
import { describe, it } from 'vitest';
import { SORT_MAX } from '../../server/contract/validation.ts';
import type { Ui } from '../helpers/browser.ts';
import { E2E_ADMIN, startE2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';

const ROOT_ORG = 'E2E总部';
const CHILD_ORG = 'E2E华东分公司';

let ui: Ui;

useE2eSpec('organizations', startE2eGateway, async (ctx) => {
  ({ ui } = ctx);
  await ctx.gateway.provision();
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

/** The id behind a tree node, read from its `data-testid` (`organization-node-<id>`). */
async function orgNodeId(name: string): Promise<string> {
  const el = ui.page.locator('[data-testid^="organization-node-"]', { hasText: name }).first();
  await el.waitFor();
  return (await el.getAttribute('data-testid'))!.slice('organization-node-'.length);
}

describe('organizations', () => {
  it('creates a top-level organization after refusing a sort outside the int32 range inline', async () => {
    await ui.goto('/system/organization');
    await ui.expectText('organization-empty', text('zh_CN', 'organization:empty'));
    await ui.screenshotMatrix('organization-empty', () => ui.expectVisible('organization-empty').then(() => undefined));

    await ui.clickTestId('organization-create');
    await ui.expectVisible('organization-drawer');
    await ui.fill('organization-form-name', 'bad name!');
    await ui.fill('organization-form-sort', String(SORT_MAX + 1));
    await ui.clickTestId('organization-drawer-submit');
    await ui.expectFieldError('organization-form-name', text('zh_CN', 'errors:field.name'));
    await ui.expectFieldError('organization-form-sort', text('zh_CN', 'errors:field.sort'));
    await ui.screenshot('organization-drawer-invalid');

    await ui.fill('organization-form-name', ROOT_ORG);
    await ui.fill('organization-form-sort', String(SORT_MAX));
    await ui.clickTestId('organization-drawer-submit');
    await ui.expectHidden('organization-drawer');
    await ui.expectPageText(text('zh_CN', 'organization:created'));
    await ui.expectText(`organization-node-${await orgNodeId(ROOT_ORG)}`, text('zh_CN', 'organization:sortTag', { sort: SORT_MAX }));
  });

  it('adds a sub-organization under it and refuses deleting the parent with the reason on screen', async () => {
    const rootId = await orgNodeId(ROOT_ORG);
    await ui.clickTestId(`organization-add-child-${rootId}`);
    await ui.expectText('organization-drawer', text('zh_CN', 'organization:createChildTitle', { parent: ROOT_ORG }));
    await ui.fill('organization-form-name', CHILD_ORG);
    await ui.fill('organization-form-sort', '1');
    await ui.clickTestId('organization-drawer-submit');
    await ui.expectHidden('organization-drawer');
    const childId = await orgNodeId(CHILD_ORG);

    // The refused call shows in the console as a failed resource; the page says why.
    ui.allowConsoleError(/status of 400/);
    await ui.clickTestId(`organization-delete-${rootId}`);
    await ui.clickTestId(`organization-delete-${rootId}-confirm`);
    await ui.expectText('organization-refusal', ROOT_ORG);
    await ui.expectVisible(`organization-node-${rootId}`);
    await ui.screenshot('organization-delete-refused');

    // Moving the child to the top level (clearing its superior organization).
    await ui.clickTestId(`organization-move-${childId}`);
    await ui.expectText('organization-drawer', text('zh_CN', 'organization:moveHint', { name: CHILD_ORG }));
    await ui.screenshot('organization-move');
    await ui.testId('organization-form-parent').hover();
    await ui.page.locator('.arco-drawer .arco-tree-select-clear-icon').click();
    await ui.clickTestId('organization-drawer-submit');
    await ui.expectHidden('organization-drawer');
    await ui.expectPageText(text('zh_CN', 'organization:moved'));
    // Both are top-level now: the parent can go.
    await ui.clickTestId(`organization-delete-${rootId}`);
    await ui.clickTestId(`organization-delete-${rootId}-confirm`);
    await ui.expectPageText(text('zh_CN', 'organization:deleted'));
    await ui.expectHidden(`organization-node-${rootId}`);
    await ui.screenshotMatrix('organization-tree', () => ui.expectVisible(`organization-node-${childId}`).then(() => undefined));
  });
});
