/**
 * Rolling back a firmware update on a running gateway process: the source server
 * (tests/helpers/source-server.ts) plays the installed binary, and the packages hold small
 * stand-ins that fail. The SEA binary is not the package content here; it runs the same main.ts.
 */
import { describe, expect, it } from 'vitest';
import { applyPackage, firmwareGateways, firmwareList } from '../helpers/firmware.ts';

const WAIT = { timeout: 90_000, interval: 250 } as const;
const gateways = firmwareGateways();
const script = (body: string) => Buffer.from(`#!/bin/sh\n${body}\n`);

describe('a failing firmware update', () => {
  it('rolls back a binary that exits at start after 3 starts, and one that never reports ready after the ready timeout', async () => {
    const gw = await gateways.start(['--firmware-ready-timeout-ms', '5000', '--firmware-health-window-ms', '1000']);
    await applyPackage(gw, script('echo "stand-in binary crashing" >&2; exit 3'), '9.0.0');
    await expect.poll(async () => (await firmwareList(gw))?.lastOutcome, WAIT).toMatchObject({ result: 'rolledBack', version: '9.0.0', reason: 'crashed' });
    expect(gw.output().match(/stand-in binary crashing/g)).toHaveLength(3);
    expect((await firmwareList(gw))!).toMatchObject({ phase: 'good', packages: [expect.objectContaining({ version: '9.0.0', status: 'rolledBack' })] });

    await applyPackage(gw, script('echo "stand-in binary hanging" >&2; exec sleep 600'), '9.0.1');
    await expect.poll(async () => (await firmwareList(gw))?.lastOutcome, WAIT).toMatchObject({ result: 'rolledBack', version: '9.0.1', reason: 'notReady' });
    expect(gw.output().match(/stand-in binary hanging/g)).toHaveLength(1);
  }, 240_000);
});
