/**
 * Network configuration through the built binary (file applier, so the host is never touched):
 * a LAN address change is refused beside the field when its gateway is outside the subnet, then
 * reviewed as a diff, applied, shown pending with a countdown, and kept with Confirm.
 * Screens in zh_CN/en_US × light/dark (test-results/screenshots/network).
 */
import { describe, expect, it } from 'vitest';
import { consolePaths } from '../../server/contract/console-paths.ts';
import { networkRoutes, type NetworkState } from '../../server/contract/network.ts';
import { startE2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';

let token = '';

const ctx = useE2eSpec('network', startE2eGateway, async ({ gateway, ui }) => {
  const admin = await gateway.provision();
  token = (await gateway.login()).token;
  await ui.goto('/login');
  await signIn(ui, admin);
  await ui.expectVisible('main-layout');
});

async function networkState(): Promise<NetworkState> {
  const res = await fetch(`${ctx.gateway.url}${networkRoutes.get.url}`, { headers: { authorization: `Bearer ${token}` } });
  return (await res.json()) as NetworkState;
}

describe('network configuration', () => {
  it('refuses a gateway outside the LAN subnet beside the field', async () => {
    const { ui } = ctx;
    await ui.goto(consolePaths.networkConfiguration);
    await ui.expectVisible('network-section-lan');
    await ui.expectText('network-applier', text('zh_CN', 'network:applier.file'));
    await ui.screenshotMatrix('network-lan', () => ui.expectVisible('network-section-lan'));
    await ui.fill('network-lan-ipAddress', '10.123.45.1');
    await ui.fill('network-lan-subnetMask', '255.255.255.0');
    await ui.fill('network-lan-gateway', '10.9.9.9');
    // The refusal is the plan call's 400, which the browser logs.
    ui.allowConsoleError(/\/api\/yt\/network\/plan/);
    await ui.clickTestId('network-lan-review');
    await ui.expectFieldError('network-lan-gateway', text('zh_CN', 'errors:network.gateway'));
  });

  it('shows the diff, applies, counts down and keeps the change once confirmed', async () => {
    const { ui } = ctx;
    await ui.fill('network-lan-gateway', '');
    await ui.clickTestId('network-lan-review');
    await ui.expectVisible('network-plan');
    await ui.expectNoFieldError('network-lan-gateway');
    await ui.expectPageText('lan.ipAddress');
    await ui.expectPageText('10.123.45.1');
    await ui.screenshot('network-plan');
    await ui.clickTestId('network-apply');
    await ui.expectVisible('network-pending');
    const pending = await networkState();
    expect(pending.pending).toBeDefined();
    expect(pending.lan.ipAddress).toBe('10.123.45.1');
    await ui.screenshotMatrix('network-pending', () => ui.expectVisible('network-countdown'));
    await ui.clickTestId('network-confirm');
    await ui.expectPageText(text('zh_CN', 'network:pending.confirmed'));
    await ui.expectHidden('network-pending');
    const kept = await networkState();
    expect(kept.pending).toBeUndefined();
    expect(kept.lan.ipAddress).toBe('10.123.45.1');
  });
});
