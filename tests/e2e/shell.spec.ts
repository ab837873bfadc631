/**
 * The console's session guard in a real browser: a rejected access token with a
 * working refresh token is refreshed once and the page carries on; when both are rejected the
 * session is reset and the user lands on Login; without a token a console route asks for sign-in.
 */
import { describe, expect, it } from 'vitest';
import { authRoutes } from '../../server/contract/auth.ts';
import { userRoutes } from '../../server/contract/user.ts';
import { StorageKey } from '../../web/lib/storage.ts';
import type { Ui } from '../helpers/browser.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { E2E_ADMIN, startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';

const GARBAGE_TOKEN = 'not.a.token';

let gateway: E2eGateway;
let ui: Ui;

useE2eSpec('shell', startE2eGateway, async (ctx) => {
  ({ gateway, ui } = ctx);
  await gateway.provision({ platformName: 'Shell GW' });
  // An origin to write storage on, before any console route is opened.
  await ui.goto('/login');
  await ui.expectVisible('login-page');
});

function statusWith(token: string): Promise<number> {
  return fetch(`${gateway.url}${userRoutes.me.url}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
}

function refreshStatus(refreshToken: string): Promise<number> {
  return fetch(`${gateway.url}${authRoutes.token.url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  }).then((r) => r.status);
}

/** Puts a session in storage as if signed in earlier, without the user info cached. */
async function plantSession(token: string, refreshToken: string): Promise<void> {
  await ui.store(StorageKey.TOKEN, token);
  await ui.store(StorageKey.REFRESH_TOKEN, refreshToken);
  await ui.page.evaluate((k) => {
    localStorage.removeItem(k);
    sessionStorage.removeItem(k);
  }, StorageKey.TENANT_INFO);
}

describe('session guard', () => {
  it('refreshes a rejected access token once with the refresh token and carries on', async () => {
    const pair = await gateway.login();
    await plantSession(GARBAGE_TOKEN, pair.refreshToken);
    ui.allowConsoleError(/status of 401/);

    await ui.goto('/dashboard/workbench');
    await ui.expectVisible('main-layout');
    await ui.expectText('user-menu', E2E_ADMIN.username);
    expect(ui.path()).toBe('/dashboard/workbench');
    await ui.screenshot('refreshed');

    const token = await ui.stored<string>(StorageKey.TOKEN);
    const refreshToken = await ui.stored<string>(StorageKey.REFRESH_TOKEN);
    expect(token).not.toBe(GARBAGE_TOKEN);
    expect(await statusWith(token!)).toBe(200);
    // Rotation: the console now holds a new refresh token and the planted one is spent.
    expect(refreshToken).not.toBe(pair.refreshToken);
    expect(await refreshStatus(pair.refreshToken)).toBe(401);
  });

  it('resets the session and shows Login when both tokens are rejected', async () => {
    await plantSession(GARBAGE_TOKEN, GARBAGE_TOKEN);
    ui.allowConsoleError(/status of 401/);
    await ui.goto('/dashboard/workbench');
    await ui.expectPath('/login');
    await ui.expectVisible('login-page');
    expect(await ui.stored(StorageKey.TOKEN)).toBeNull();
    expect(await ui.stored(StorageKey.REFRESH_TOKEN)).toBeNull();
    await ui.screenshot('both-rejected');
  });

  it('keeps a sign-in alive across two tabs that share it when one of them rotates the tokens', async () => {
    const pair = await gateway.login();
    await plantSession(GARBAGE_TOKEN, pair.refreshToken);
    ui.allowConsoleError(/status of 401/);
    // Tab B loads first, on a page that calls nothing behind sign-in (no console layout): it holds
    // the planted pair in memory.
    const other = await ui.page.context().newPage();
    await other.goto(`${gateway.url}/forgot-password`);
    await other.waitForLoadState('networkidle');
    // Tab A's first call is refused, so A rotates the refresh token and stores the new pair.
    await ui.goto('/dashboard/workbench');
    await ui.expectText('user-menu', E2E_ADMIN.username);
    const rotated = await ui.stored<string>(StorageKey.REFRESH_TOKEN);
    expect(rotated).not.toBe(pair.refreshToken);
    // Tab B now needs a call behind sign-in: its access token is refused, and it must take A's
    // pair, not present the spent refresh token (which the server would take as theft).
    await other.evaluate(() => {
      history.pushState(null, '', '/dashboard/workbench');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await other.getByTestId('main-layout').waitFor();
    await other.getByTestId('user-menu').filter({ hasText: E2E_ADMIN.username }).waitFor();
    await other.close();
    // The sign-in survived: A's tokens still work.
    expect(await statusWith((await ui.stored<string>(StorageKey.TOKEN))!)).toBe(200);
    expect(await refreshStatus((await ui.stored<string>(StorageKey.REFRESH_TOKEN))!)).toBe(200);
  });

  it('sends a signed-in user who opens Login on to where signing in would lead', async () => {
    const pair = await gateway.login();
    await plantSession(pair.token, pair.refreshToken);
    await ui.goto('/login?redirect=%2Fdevice-manage%2Fdevice');
    await ui.expectPath('/device-manage/device');
    await ui.expectVisible('main-layout');
    await ui.goto('/login');
    await ui.expectPath('/dashboard/workbench');
  });

  it('asks for sign-in on a console route without a token, and returns there afterwards', async () => {
    await ui.page.evaluate((keys) => {
      for (const k of keys) {
        localStorage.removeItem(k);
        sessionStorage.removeItem(k);
      }
    }, [StorageKey.TOKEN, StorageKey.REFRESH_TOKEN]);
    await ui.goto('/system/organization');
    await ui.expectPath('/login');
    expect(ui.search().get('redirect')).toBe('/system/organization');
    await signIn(ui, E2E_ADMIN);
    await ui.expectPath('/system/organization');
    await ui.expectVisible('main-layout');
  });
});
