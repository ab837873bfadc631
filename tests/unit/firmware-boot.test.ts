import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markGood, planBoot } from '../../server/lib/firmware/firmware-boot.ts';
import { firmwarePaths, readFirmwareState, writeFirmwareState, type FirmwarePaths } from '../../server/lib/firmware/firmware-state.ts';
import { tempDir } from '../helpers/app.ts';

const quiet = (): void => {};
const ID = '0123456789abcdef';

/** A data dir with a trial of 2.0.0 staged: its binary, the newer database with a WAL, the pre-update copy. */
function staged(): FirmwarePaths {
  const paths = firmwarePaths(tempDir('edge-fw-boot-'));
  mkdirSync(paths.bin, { recursive: true });
  writeFileSync(`${paths.bin}/${ID}`, 'new binary');
  writeFileSync(paths.database, 'migrated by 2.0.0');
  writeFileSync(`${paths.database}-wal`, 'newer wal');
  writeFileSync(paths.preUpdateDb, 'as before the update');
  writeFirmwareState(paths, { phase: 'trial', current: null, trial: { packageId: ID, version: '2.0.0', attempts: 0 }, last: null });
  return paths;
}

describe('firmware boot plan', () => {
  it('counts each trial start before making it, and at the fourth restores the pre-update database instead', () => {
    const paths = staged();
    for (const attempt of [1, 2, 3]) {
      expect(planBoot(paths, quiet, '1.0.0')).toEqual({ kind: 'child', binary: `${paths.bin}/${ID}`, trial: true });
      expect(readFirmwareState(paths).trial?.attempts).toBe(attempt);
    }
    expect(planBoot(paths, quiet, '1.0.0')).toEqual({ kind: 'here' });
    expect(readFileSync(paths.database, 'utf8')).toBe('as before the update');
    // The newer WAL would be replayed into the restored file.
    expect(existsSync(`${paths.database}-wal`)).toBe(false);
    expect(existsSync(paths.preUpdateDb)).toBe(false);
    expect(readFirmwareState(paths)).toMatchObject({ phase: 'good', current: null, trial: null, last: { result: 'rolledBack', reason: 'crashed', version: '2.0.0' } });
  });

  it('runs a kept trial at every later start, until a package manager replaces the binary it was kept over', () => {
    const paths = staged();
    planBoot(paths, quiet, '1.0.0');
    markGood(paths, quiet, '1.0.0');
    expect(existsSync(paths.preUpdateDb)).toBe(false);
    expect(planBoot(paths, quiet, '1.0.0')).toEqual({ kind: 'child', binary: `${paths.bin}/${ID}`, trial: false });
    // dpkg -i of 3.0.0 (or of an older base, on purpose): the base runs.
    expect(planBoot(paths, quiet, '3.0.0')).toEqual({ kind: 'here' });
    expect(readFirmwareState(paths).current).toBeNull();
  });

  it('starts the base binary when the state file is unreadable', () => {
    const paths = firmwarePaths(tempDir('edge-fw-boot-'));
    mkdirSync(paths.dir, { recursive: true });
    writeFileSync(paths.state, '{ half a rec');
    expect(planBoot(paths, quiet, '1.0.0')).toEqual({ kind: 'here' });
  });
});
