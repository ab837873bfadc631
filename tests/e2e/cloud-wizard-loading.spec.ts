/**
 * The activation wizard's "cloud data loading" wait with a real cloud (mosquitto), through the
 * built x64 binary in Chromium: a CA file that is not a certificate is refused beside its field, a
 * real one (made here with openssl) is taken and shown as stored, then the cloud is saved and the wait shows real progress read with the setup code (connected,
 * devices announced, stored data sent) before any administrator exists. Screens in zh_CN/en_US ×
 * light/dark (test-results/screenshots/cloud-wizard-loading).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import type { Ui } from '../helpers/browser.ts';
import { uploadLicence } from '../helpers/e2e-first-boot.ts';
import { startE2eGateway, type E2eGateway } from '../helpers/e2e-gateway.ts';
import { useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.ts';
import { E2E_TIMEOUT_MS } from '../helpers/e2e-wait.ts';

let ui: Ui;
let gateway: E2eGateway;
let broker: Mosquitto;

useE2eSpec('cloud-wizard-loading', startE2eGateway, async (ctx) => {
  ({ ui, gateway } = ctx);
  broker = await startMosquitto([], { untilStopped: true });
  await uploadLicence(gateway);
});

afterAll(async () => {
  await broker?.remove();
});

/** A self-signed CA certificate in PEM (its key is thrown away with the directory). */
function caCertificate(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-ca-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=E2E Cloud CA'], { cwd: dir, stdio: 'ignore' });
    return readFileSync(join(dir, 'ca.pem'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The cloud step's fields: mosquitto, with an access token. */
async function fillCloud(): Promise<void> {
  await ui.fill('guide-cloud-address', '127.0.0.1');
  await ui.fill('guide-cloud-port', String(broker.port));
  await ui.fill('guide-cloud-key', 'edge-access-token');
}

/** Saves the cloud step as it stands and waits until every step of the wait is done. */
async function saveAndWait(): Promise<void> {
  await ui.clickTestId('guide-cloud-submit');
  await ui.expectVisible('cloud-loading');
  for (const step of ['cloud-loading-connected', 'cloud-loading-devices', 'cloud-loading-backlog']) {
    await ui.page.waitForSelector(`[data-testid="${step}"][data-done="true"]`, { timeout: E2E_TIMEOUT_MS });
  }
}

describe('cloud data loading in the wizard', () => {
  it('refuses a CA file that is not a certificate, beside its field', async () => {
    await ui.goto('/guide');
    await ui.expectVisible('guide-step-cloud');
    await ui.chooseFile('guide-cloud-ca', { name: 'cloud-ca.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from('not a certificate at all\n') });
    await ui.expectText('guide-cloud-ca-error', text('zh_CN', 'errors:cloud.caInvalid'));
    await ui.testId('guide-cloud-ca-error').scrollIntoViewIfNeeded();
    await ui.screenshot('guide-cloud-ca-invalid');
    await ui.chooseFile('guide-cloud-ca', { name: 'cloud-ca.pem', mimeType: 'application/x-pem-file', buffer: caCertificate() });
    await ui.expectText('guide-cloud-ca-current', 'cloud-ca.pem');
  });

  it('shows connected, devices announced and stored data sent, read with the setup code before an administrator exists', async () => {
    await ui.fill('guide-setup-code', gateway.setupCode!);
    await fillCloud();
    await saveAndWait();
    await ui.expectText('cloud-loading-devices', text('zh_CN', 'guide:cloud.loadingDevices'));
    await ui.screenshot('guide-cloud-loading');
    // The CA went with the settings (TLS off: kept for when it is turned on): the form names it.
    await ui.clickTestId('cloud-loading-continue');
    await ui.clickTestId('guide-admin-back');
    await ui.expectText('guide-cloud-ca-current', 'E2E Cloud CA');
    await ui.testId('guide-cloud-ca-current').scrollIntoViewIfNeeded();
    await ui.screenshot('guide-cloud-ca-stored');
    await saveAndWait();
    // Each language and theme: back from the admin step, save again, the same wait.
    await ui.screenshotMatrix('guide-cloud-loading', async () => {
      await ui.clickTestId('guide-admin-back');
      await ui.expectVisible('guide-step-cloud');
      // The stored settings prefill the form (the secret stays empty: an access token).
      await ui.page.waitForFunction(() => (document.querySelector('[data-testid="guide-cloud-port"]') as HTMLInputElement | null)?.value !== '');
      await saveAndWait();
    });
    await ui.clickTestId('cloud-loading-continue');
    await ui.expectVisible('guide-step-admin');
  });
});
