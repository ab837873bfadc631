/**
 * Keeping a firmware update on a running gateway process: the source server
 * (tests/helpers/source-server.ts) plays both the installed binary and the new version (a package
 * holding its launcher script). The SEA binary is not the package content here; it runs the same main.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyPackage, firmwareGateways, firmwareList } from '../helpers/firmware.ts';
import { firmwareKeys } from '../helpers/firmware-package.ts';
import { tempDir } from '../helpers/app.ts';
import { httpStatus } from '../helpers/binary.ts';
import { startE2eGateway } from '../helpers/e2e-gateway.ts';
import { sourceServer } from '../helpers/source-server.ts';

const WAIT = { timeout: 90_000, interval: 250 } as const;
const gateways = firmwareGateways();

describe('a healthy firmware update', () => {
  it('keeps a new version that reports ready and stays healthy, which a kill -9 of the gateway does not undo', async () => {
    const gw = await gateways.start(['--firmware-ready-timeout-ms', '120000', '--firmware-health-window-ms', '1500']);
    // The "new version" is the source server again, started through its own launcher script.
    const next = readFileSync(sourceServer(tempDir('edge-fw-next-')));
    const id = await applyPackage(gw, next, '9.1.0');
    await expect.poll(async () => (await firmwareList(gw))?.lastOutcome, WAIT).toMatchObject({ result: 'installed', version: '9.1.0' });
    expect((await firmwareList(gw))!.packages).toEqual([expect.objectContaining({ id, status: 'installed' })]);

    // A power cut: the whole gateway (parent and the child it runs) gone at once, then started again.
    process.kill(gw.pid, 'SIGKILL');
    await expect.poll(() => httpStatus(`${gw.url}/api/health`), WAIT).toBe(0);
    const again = await startE2eGateway({ binary: sourceServer(tempDir('edge-fw-bin-')), dataDir: gw.dataDir, args: ['--firmware-public-key', firmwareKeys().publicKeyFile], timeoutMs: 90_000 });
    gateways.track(again);
    expect(again.output()).toContain('starting the installed 9.1.0');
  }, 240_000);
});
