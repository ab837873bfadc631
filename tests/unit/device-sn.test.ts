import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDeviceSn } from '../../server/lib/device-sn.ts';
import { tempDir } from '../helpers/app.ts';

function machineIdFile(content: string): string {
  const file = join(tempDir(), 'machine-id');
  writeFileSync(file, content);
  return file;
}

describe('device serial number', () => {
  it('uses the configured serial number first', () => {
    const file = machineIdFile('0123456789abcdef0123456789abcdef\n');
    expect(resolveDeviceSn({ configured: ' SN-42 ', dataDir: tempDir(), machineIdFiles: [file] })).toBe('SN-42');
  });

  it('derives a stable EC- serial from the machine id without revealing it', () => {
    const file = machineIdFile('0123456789abcdef0123456789abcdef\n');
    const a = resolveDeviceSn({ configured: null, dataDir: tempDir(), machineIdFiles: [file] });
    const b = resolveDeviceSn({ configured: null, dataDir: tempDir(), machineIdFiles: [file] });
    expect(a).toMatch(/^EC-[0-9A-F]{12}$/);
    expect(b).toBe(a);
    expect(a.toLowerCase()).not.toContain('0123456789ab');
  });

  it('gives different machines different serial numbers', () => {
    const a = resolveDeviceSn({ configured: null, dataDir: tempDir(), machineIdFiles: [machineIdFile('a'.repeat(32))] });
    const b = resolveDeviceSn({ configured: null, dataDir: tempDir(), machineIdFiles: [machineIdFile('b'.repeat(32))] });
    expect(a).not.toBe(b);
  });

  it('without a machine id, generates one serial and keeps it in the data dir across restarts', () => {
    const dataDir = tempDir();
    const sources = { configured: null, dataDir, machineIdFiles: [join(dataDir, 'absent'), machineIdFile('not hex!')] };
    const first = resolveDeviceSn(sources);
    expect(first).toMatch(/^EC-[0-9A-F]{12}$/);
    expect(readFileSync(join(dataDir, 'device-sn'), 'utf8').trim()).toBe(first);
    expect(resolveDeviceSn(sources)).toBe(first);
  });
});
