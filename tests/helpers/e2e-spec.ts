/**
 * What every e2e spec file sets up the same way: one gateway and one browser tab for the whole
 * file (started together), a picture of the screen when a step fails, the console check after
 * each step, and both stopped at the end. Steps in a file run in order and share the tab.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser, type BrowserSession, type Ui } from './browser.ts';
import type { Admin } from './e2e-gateway.ts';

export interface SpecContext<G> {
  gateway: G;
  browser: BrowserSession;
  ui: Ui;
}

/**
 * Registers the hooks and returns the context, filled in before the first step runs.
 * `prepare` runs once both are up (provisioning, signing in, opening the first page).
 */
export function useE2eSpec<G extends { url: string; kill(): Promise<void> }>(
  spec: string,
  startGateway: () => Promise<G>,
  prepare?: (ctx: SpecContext<G>) => Promise<void>,
): SpecContext<G> {
  const ctx = {} as SpecContext<G>;
  beforeAll(async () => {
    [ctx.gateway, ctx.browser] = await Promise.all([startGateway(), launchBrowser()]);
    ctx.ui = await ctx.browser.newUi(ctx.gateway.url, spec);
    await prepare?.(ctx);
  });
  afterEach(async ({ task }) => {
    if (!ctx.ui) return;
    if (task.result?.errors?.length) await ctx.ui.screenshot('FAILED');
    ctx.ui.assertNoConsoleErrors();
  });
  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.gateway?.kill();
  });
  return ctx;
}

/** Signs in through the login page on show (the caller asserts where it leads). */
export async function signIn(ui: Ui, admin: Admin): Promise<void> {
  await ui.fill('login-username', admin.username);
  await ui.fill('login-password', admin.password);
  await ui.clickTestId('login-submit');
}
