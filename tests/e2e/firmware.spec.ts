/**
 * The gateway's own firmware update in the browser (system configuration → firmware), through the
 * built x64 binary started with `--firmware-public-key` of a key made for the run: a signed package
 * uploads with a progress bar that moves to the end and is listed as uploaded; a package with one
 * byte flipped is refused with the server's reason; a downgrade is refused at apply until "allow
 * downgrade" is ticked, and then the gateway restarts into it. The package holds a stand-in binary
 * that exits at start, so the trial is rolled back after its 3 starts and the console, once the
 * gateway answers again, says so: apply, trial and rollback stay cheap here (the real successor
 * binary is covered by tests/integration/firmware-update.test.ts).
 * Screens in zh_CN/en_US × light/dark during and after an upload (test-results/screenshots/firmware).
 */
import type { CDPSession, Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consolePaths } from '../../server/contract/console-paths.ts';
import { E2E_ADMIN, startE2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { E2E_TIMEOUT_MS } from '../helpers/e2e-wait.ts';
import { firmwareKeys, signedPackage } from '../helpers/firmware-package.ts';
import { text } from '../helpers/locale-text.ts';

/** A stand-in binary that exits at once; padded so an upload at the throttled rate below takes seconds. */
const crashing = Buffer.from('#!/bin/sh\nexit 1\n'.padEnd(1024 * 1024, '#'));
/** The binary reports package.json's version; these lie either side of it. */
const NEWER = '9.0.0';
const OLDER = '0.0.1';

const ctx = useE2eSpec('firmware', () => startE2eGateway({ args: ['--firmware-public-key', firmwareKeys().publicKeyFile] }), async ({ gateway, ui }) => {
  await gateway.provision();
  await ui.goto('/login');
  await signIn(ui, E2E_ADMIN);
  await ui.expectVisible('main-layout');
});

let cdp: CDPSession | null = null;

/**
 * Limits the browser's upload rate (bytes/s; null lifts it), so the progress a user sees on a
 * ~40 MB package over a real link shows on a loopback one.
 */
async function uploadRate(bytesPerSecond: number | null): Promise<void> {
  cdp ??= await ctx.ui.page.context().newCDPSession(ctx.ui.page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond ?? -1 });
}

function chooseFirmware(content: Buffer, name = 'edge.fw'): Promise<void> {
  return ctx.ui.chooseFile('firmware-file', { name, mimeType: 'application/octet-stream', buffer: content });
}

/** Every value the upload's progress bar showed, recorded in the page as it changes. */
async function recordProgress(): Promise<void> {
  await ctx.ui.page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { firmwareProgress: number[] }).firmwareProgress = seen;
    new MutationObserver(() => {
      const now = document.querySelector('[data-testid="firmware-card"] [role="progressbar"]')?.getAttribute('aria-valuenow');
      if (now !== null && now !== undefined && seen[seen.length - 1] !== Number(now)) seen.push(Number(now));
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
}

/** Waits until the upload's progress bar shows a share strictly between none and all. */
async function expectProgressUnderWay(): Promise<void> {
  await ctx.ui.page.waitForFunction(
    () => {
      const now = Number(document.querySelector('[data-testid="firmware-card"] [role="progressbar"]')?.getAttribute('aria-valuenow'));
      return now > 0 && now < 100;
    },
    undefined,
    { timeout: E2E_TIMEOUT_MS },
  );
}

async function openFirmwareTab(): Promise<void> {
  await ctx.ui.goto(`${consolePaths.systemConfiguration}?tab=firmware`);
  await ctx.ui.expectVisible('firmware-card');
}

function packageRow(version: string): Locator {
  return ctx.ui.page.locator('[data-testid="firmware-card"] .arco-table-tr', { hasText: version });
}

describe('gateway firmware update', () => {
  it('uploads a signed package with a moving progress bar and lists it as uploaded', async () => {
    const { ui } = ctx;
    await openFirmwareTab();
    await ui.expectText('firmware-card', text('zh_CN', 'firmware:empty'));
    await recordProgress();
    // ~1 MB at 256 KB/s: a few seconds of progress.
    await uploadRate(256 * 1024);
    await chooseFirmware(signedPackage(crashing, { version: NEWER }));
    await expectProgressUnderWay();
    await ui.expectPageText(text('zh_CN', 'firmware:uploaded', { version: NEWER }));
    await ui.expectLocatorText(packageRow(NEWER), text('zh_CN', 'firmware:status.staged'));
    const seen = await ui.page.evaluate(() => (window as unknown as { firmwareProgress: number[] }).firmwareProgress);
    // Moving: more than one share in between, rising, and the whole file sent.
    expect(seen.filter((p) => p > 0 && p < 100).length).toBeGreaterThan(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(seen.at(-1)).toBe(100);
    await uploadRate(null);
    await ui.screenshotMatrix('uploaded', () => ui.expectLocatorText(packageRow(NEWER), NEWER));
  });

  it('shows the progress bar while a package is on its way', async () => {
    const { ui } = ctx;
    // Slow enough that each picture is taken mid-upload; the reload for the next one abandons it,
    // which the gateway sees as a truncated upload and keeps nothing of.
    await uploadRate(8 * 1024);
    await ui.screenshotMatrix('uploading', async () => {
      await ui.expectVisible('firmware-card');
      await chooseFirmware(signedPackage(crashing, { version: '9.1.0' }));
      await expectProgressUnderWay();
    });
    await ui.reload();
    await uploadRate(null);
    await ui.expectLocatorText(packageRow(NEWER), NEWER);
    expect(await packageRow('9.1.0').count()).toBe(0);
  });

  it('refuses a package with one byte flipped, saying it was altered, and keeps nothing of it', async () => {
    const { ui } = ctx;
    // The refusals below are answers the page shows; the browser logs each failed request too.
    ui.allowConsoleError(/status of (400|409) \(/);
    await openFirmwareTab();
    const tampered = signedPackage(crashing, { version: '9.2.0' });
    const at = tampered.length - 1000;
    tampered[at] = tampered[at]! ^ 0x01;
    await chooseFirmware(tampered);
    await ui.expectPageText(text('zh_CN', 'errors:firmware.tampered'));
    await ui.screenshot('tampered-refused');
    await ui.reload();
    await ui.expectLocatorText(packageRow(NEWER), NEWER);
    expect(await packageRow('9.2.0').count()).toBe(0);
  });

  it('refuses to apply a downgrade until "allow downgrade" is ticked, then restarts into it and reports its rollback', async () => {
    const { ui } = ctx;
    await openFirmwareTab();
    await chooseFirmware(signedPackage(crashing, { version: OLDER }));
    await ui.expectLocatorText(packageRow(OLDER), text('zh_CN', 'firmware:status.staged'));
    const running = (await ui.testId('firmware-card').textContent())?.match(/\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.]+)?/)?.[0];
    expect(running).toBeTruthy();

    const id = (await packageRow(OLDER).locator('[data-testid^="firmware-apply-"]').getAttribute('data-testid'))!.replace('firmware-apply-', '');
    await ui.clickTestId(`firmware-apply-${id}`);
    await ui.clickTestId(`firmware-apply-${id}-confirm`);
    await ui.expectPageText(text('zh_CN', 'errors:firmware.downgrade', { version: OLDER, running: running! }));
    await ui.screenshot('downgrade-refused');

    // Ticked: the gateway restarts into the package, whose binary never starts, and comes back.
    ui.allowConsoleError(/ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE|Failed to load resource/);
    await ui.clickTestId('firmware-allow-downgrade');
    await ui.clickTestId(`firmware-apply-${id}`);
    await ui.clickTestId(`firmware-apply-${id}-confirm`);
    await ui.expectVisible('firmware-restarting');
    await ui.page.getByTestId('firmware-rolled-back').waitFor({ state: 'visible', timeout: E2E_TIMEOUT_MS * 6 });
    await ui.expectText('firmware-rolled-back', text('zh_CN', 'firmware:reason.crashed'));
    await ui.expectLocatorText(packageRow(OLDER), text('zh_CN', 'firmware:status.rolledBack'));
    await ui.screenshotMatrix('rolled-back', () => ui.expectVisible('firmware-rolled-back'));
  });
});
