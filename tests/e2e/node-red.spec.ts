/**
 * The soft gateway in the browser, through the built x64 binary in Chromium: an administrator
 * creates a Node-RED instance, waits for it to run, opens its editor in a new tab (a ticket that
 * becomes the editor's cookie), deploys through the editor's own origin, and finds the snapshot
 * that deploy took on the instance's page. Screens in test-results/screenshots/node-red.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Ui } from '../helpers/browser.ts';
import { E2E_ADMIN, startE2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';
import { E2E_POLL, E2E_TIMEOUT_MS } from '../helpers/e2e-wait.ts';

const NODE_RED_DIR = join(import.meta.dirname, '../../node_modules/node-red');
/** Node-RED boots in seconds, longer on a loaded machine. */
// Node-RED starts in 1.5-4 s alone; four times the shared wait covers a loaded CI machine.
const BOOT_MS = 4 * E2E_TIMEOUT_MS;

let ui: Ui;
let instanceId = '';
let editor: Page;

useE2eSpec(
  'node-red',
  () => startE2eGateway({ args: ['--node-red-dir', NODE_RED_DIR] }),
  async (ctx) => {
    ({ ui } = ctx);
    await ctx.gateway.provision();
    await ui.goto('/login');
    await signIn(ui, E2E_ADMIN);
    await ui.expectVisible('main-layout');
  },
);

/** A full deploy through the gateway's proxy from the page's own origin (its editor cookie), as the editor does; the HTTP status. */
function deployFromPage(instanceId: string, flows: Record<string, unknown>[]): Promise<number> {
  return ui.page.evaluate(
    async ({ id, body }) => {
      const res = await fetch(`/soft-gateway/node-red/${id}/editor/flows`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Node-RED-API-Version': 'v2', 'Node-RED-Deployment-Type': 'full' },
        body: JSON.stringify({ flows: body }),
      });
      return res.status;
    },
    { id: instanceId, body: flows },
  );
}

describe('soft gateway: Node-RED', () => {
  it('creates an instance from the list and shows it running', async () => {
    await ui.goto('/soft-gateway/node-red');
    await ui.expectVisible('node-red-page');
    await ui.clickTestId('node-red-create');
    await ui.expectVisible('node-red-drawer');
    await ui.fill('node-red-form-name', 'meters');
    await ui.clickTestId('node-red-drawer-submit');
    await ui.expectHidden('node-red-drawer');
    const status = ui.page.locator('[data-testid^="node-red-status-"]').first();
    await status.filter({ hasText: text('zh_CN', 'nodeRed:status.RUNNING') }).waitFor({ timeout: BOOT_MS });
    instanceId = (await status.getAttribute('data-testid'))!.slice('node-red-status-'.length);
    await ui.screenshot('node-red-list-running');
  }, BOOT_MS + 30_000);

  it('opens the editor in a new tab with a ticket and deploys through it', async () => {
    const [tab] = await Promise.all([ui.page.context().waitForEvent('page'), ui.clickTestId(`node-red-open-${instanceId}`)]);
    editor = tab;
    await editor.waitForURL(new RegExp(`/soft-gateway/node-red/${instanceId}/editor/$`), { timeout: E2E_TIMEOUT_MS * 2 });
    // The editor's palette and workspace load only when its admin API answers (the cookie works).
    await editor.locator('#red-ui-palette').waitFor({ timeout: E2E_TIMEOUT_MS * 2 });
    const status = await editor.evaluate(async () => {
      const res = await fetch('flows', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'Node-RED-API-Version': 'v2', 'Node-RED-Deployment-Type': 'full' },
        body: JSON.stringify({ flows: [{ id: 'e2etab', type: 'tab', label: 'E2E flow' }] }),
      });
      return res.status;
    });
    expect(status).toBe(200);
    await editor.reload();
    await editor.locator('#red-ui-workspace-tabs').getByText('E2E flow').waitFor({ timeout: E2E_TIMEOUT_MS * 2 });
    // The gateway's own palette is installed in the instance: each edge node in the palette, with its edit form.
    for (const type of ['edge telemetry in', 'edge telemetry out', 'edge command', 'edge alarm', 'edge TCP in', 'edge TCP out']) {
      await editor.locator(`.red-ui-palette-node[data-palette-type="${type}"]`).waitFor({ state: 'attached', timeout: E2E_TIMEOUT_MS });
      expect(await editor.locator(`script[data-template-name="${type}"]`).count()).toBe(1);
    }
    const edgeIn = editor.locator('.red-ui-palette-node[data-palette-type="edge telemetry in"]');
    await edgeIn.waitFor({ timeout: E2E_TIMEOUT_MS });
    await edgeIn.scrollIntoViewIfNeeded();
    await editor.screenshot({ path: join(import.meta.dirname, '../../test-results/screenshots/node-red/editor-edge-palette.png') });
    await editor.screenshot({ path: join(import.meta.dirname, '../../test-results/screenshots/node-red/editor.png') });
    await editor.close();
  }, 150_000);

  it('lists the snapshot the deploy took on the instance page', async () => {
    await ui.clickTestId(`node-red-detail-${instanceId}`);
    await ui.expectVisible('node-red-detail-page');
    await ui.expectVisible('node-red-snapshots');
    await ui.page
      .locator('[data-testid^="node-red-snapshot-source-"]')
      .filter({ hasText: text('zh_CN', 'nodeRed:source.DEPLOY') })
      .first()
      .waitFor({ timeout: E2E_TIMEOUT_MS });
    await ui.screenshotMatrix('node-red-detail', () => ui.expectVisible('node-red-snapshots'));
  });

  it('previews a snapshot as a picture and compares it with the one before', async () => {
    // A second deploy through the editor's path (the cookie is scoped to it): a wired flow in a group.
    const status = await deployFromPage(instanceId, [
        { id: 'e2etab', type: 'tab', label: 'E2E flow' },
        { id: 'grp', type: 'group', z: 'e2etab', name: 'Meter polling', x: 40, y: 40, w: 520, h: 100, nodes: ['inj', 'dbg'] },
        { id: 'inj', type: 'inject', z: 'e2etab', g: 'grp', name: 'every 5 s', x: 150, y: 90, wires: [['dbg']] },
        { id: 'dbg', type: 'debug', z: 'e2etab', g: 'grp', name: 'reading', x: 430, y: 90, wires: [] },
    ]);
    expect(status).toBe(200);
    await ui.reload();
    const newest = ui.page.locator('[data-testid^="node-red-preview-"]:not([data-testid="node-red-preview-current"])').first();
    await newest.waitFor({ timeout: E2E_TIMEOUT_MS });
    const open = async (): Promise<void> => {
      await ui.page.locator('[data-testid^="node-red-preview-"]:not([data-testid="node-red-preview-current"])').first().click();
      await ui.expectVisible('flow-canvas-e2etab');
    };
    await open();
    await ui.expectVisible('flow-preview');
    await ui.page.locator('[data-testid="flow-canvas-e2etab"] [data-node-id="inj"]').waitFor({ timeout: E2E_TIMEOUT_MS });
    // Compare with the snapshot before it: two nodes and a group added.
    await ui.clickTestId('flow-preview-compare');
    await ui.page.locator('.arco-select-option').nth(2).click();
    await ui.expectVisible('flow-diff');
    await ui.page.locator('[data-testid="flow-canvas-e2etab"] [data-change="added"]').first().waitFor({ timeout: E2E_TIMEOUT_MS });
    await ui.screenshot('node-red-flow-diff');
    await ui.screenshotMatrix('node-red-flow-preview', open);
  }, 120_000);

  it('follows the log live and exposes HTTP-in nodes only while the switch is on', async () => {
    await ui.goto(`/soft-gateway/node-red/${instanceId}`);
    await ui.expectVisible('node-red-detail-page');
    const log = ui.page.getByTestId('node-red-log');
    await log.filter({ hasText: 'Started flows' }).waitFor({ timeout: E2E_TIMEOUT_MS });
    const started = async (): Promise<number> => ((await log.textContent()) ?? '').split('Started flows').length - 1;
    const before = await started();
    // A deploy from the page's own origin, with no reload: the log shows the new "Started flows" by itself.
    const deployed = await deployFromPage(instanceId, [
        { id: 'e2etab', type: 'tab', label: 'E2E flow' },
        { id: 'in', type: 'http in', z: 'e2etab', name: 'hello', url: '/hello', method: 'get', x: 120, y: 60, wires: [['res']] },
        { id: 'res', type: 'http response', z: 'e2etab', name: 'answer', statusCode: '200', x: 320, y: 60, wires: [] },
    ]);
    expect(deployed).toBe(200);
    await expect.poll(started, E2E_POLL).toBeGreaterThan(before);

    // The 404s of the endpoint while it is not exposed are the point, not page errors.
    ui.allowConsoleError(/\/http\/hello/);
    const hello = (): Promise<number> => ui.page.evaluate(async (id) => (await fetch(`/soft-gateway/node-red/${id}/http/hello`, { credentials: 'omit' })).status, instanceId);
    expect(await hello()).toBe(404);
    await ui.clickTestId('node-red-expose-http');
    await ui.expectVisible('node-red-http-path');
    await expect.poll(hello, E2E_POLL).toBe(200);
    await ui.screenshotMatrix('node-red-detail-ops', () => ui.expectVisible('node-red-http-path'));
    await ui.clickTestId('node-red-expose-http');
    await ui.expectHidden('node-red-http-path');
    await expect.poll(hello, E2E_POLL).toBe(404);
  }, 120_000);

  it('uploads a protocol module and lists it with its vendor', async () => {
    await ui.goto('/soft-gateway/protocol-module');
    await ui.expectVisible('protocol-module-page');
    const file = {
      name: 'dlt645-meter',
      type: 'DL/T 645',
      corporateName: 'Acme Meters Ltd',
      flow: [{ id: 'a', type: 'inject', z: 't', x: 100, y: 60, wires: [['b']] }, { id: 'b', type: 'debug', z: 't', x: 300, y: 60, wires: [] }],
    };
    await ui.chooseFile('protocol-module-upload', { name: 'dlt645-meter.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await ui.expectPageText('Acme Meters Ltd');
    await ui.screenshotMatrix('protocol-module-list', () => ui.expectPageText('Acme Meters Ltd'));
  }, 120_000);
});
