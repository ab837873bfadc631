import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FirmwareManifest } from '../../server/contract/firmware.ts';
import { compareVersions, FirmwareVerifier, type FirmwareRejectReason } from '../../server/lib/firmware/firmware-format.ts';
import { runFirmwareCli } from '../../scripts/firmware.ts';
import { signedPackage } from '../helpers/firmware-package.ts';

const signer = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');
const binary = Buffer.from('#!/bin/sh\necho pretend to be a gateway\n'.repeat(50));

function pack(overrides: Partial<FirmwareManifest> = {}, body = binary, key = signer.privateKey): Buffer {
  return signedPackage(body, { arch: 'x64', version: '1.2.3', ...overrides }, key);
}

/** Feeds `file` in chunks of `chunk` bytes; the reason it was refused, or the manifest. */
function check(file: Buffer, opts: { chunk?: number; arch?: 'x64' | 'arm64'; keys?: typeof signer.publicKey[] } = {}): FirmwareRejectReason | FirmwareManifest {
  const verifier = new FirmwareVerifier({ trustedKeys: opts.keys ?? [signer.publicKey], arch: opts.arch ?? 'x64' });
  const step = opts.chunk ?? 7;
  try {
    for (let i = 0; i < file.length; i += step) verifier.update(file.subarray(i, i + step));
    return verifier.finish();
  } catch (err) {
    return (err as { reason: FirmwareRejectReason }).reason;
  }
}

describe('firmware package format', () => {
  it('accepts a signed package fed in chunks of any size, and says where the binary starts', () => {
    const file = pack();
    for (const chunk of [1, 7, 4096, file.length]) expect(check(file, { chunk })).toMatchObject({ version: '1.2.3', arch: 'x64' });
    const verifier = new FirmwareVerifier({ trustedKeys: [signer.publicKey] });
    verifier.update(file);
    expect(file.subarray(verifier.binaryOffset)).toEqual(binary);
  });

  it('refuses a package with any single byte changed', () => {
    const file = pack();
    // Every byte of the header and a spread of the binary's, including its last.
    const offsets = [...Array(file.length - binary.length).keys(), ...[0, 1, 500, binary.length - 1].map((i) => file.length - binary.length + i)];
    for (const at of offsets) {
      const bad = Buffer.from(file);
      bad[at] = bad[at]! ^ 0x01;
      expect(check(bad), `byte ${at}`).not.toHaveProperty('version');
    }
  });

  it('refuses a package signed by a key the gateway does not trust', () => {
    expect(check(pack({}, binary, stranger.privateKey))).toBe('unknownKey');
    expect(check(pack(), { keys: [] })).toBe('unknownKey');
  });

  it('refuses a package built for the other architecture', () => {
    expect(check(pack({ arch: 'arm64' }))).toBe('wrongArch');
  });

  it('refuses a truncated package wherever it is cut, and one with bytes appended', () => {
    const file = pack();
    for (const length of [0, 5, 12, 40, file.length - binary.length, file.length - 1]) {
      expect(check(file.subarray(0, length)), `cut at ${length}`).toBe('truncated');
    }
    expect(check(Buffer.concat([file, Buffer.from('x')]))).toBe('tampered');
  });

  it('refuses a file that is not a firmware package', () => {
    expect(check(Buffer.from('PK\u0003\u0004 a zip file, not firmware at all'))).toBe('badFormat');
  });

  it('orders versions with a pre-release before its release', () => {
    expect(compareVersions('1.0.0', '0.9.9')).toBe(1);
    expect(compareVersions('1.0.0-rc.1', '1.0.0')).toBe(-1);
    expect(compareVersions('0.0.0-dev', '0.0.1')).toBe(-1);
    expect(compareVersions('1.10.0', '1.9.0')).toBe(1);
    expect(compareVersions('2.0.0', '2.0.0')).toBe(0);
    // A built binary's version carries its commit: 0.1.3+7895d51 is 0.1.3.
    expect(compareVersions('0.1.3+7895d51', '0.1.3')).toBe(0);
    expect(compareVersions('0.1.3+7895d51', '0.1.2')).toBe(1);
  });
});

describe('npm run firmware', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const quiet = { out: () => {}, err: () => {} };

  it('makes a key pair, signs a binary and verifies the package it wrote', async () => {
    expect(await runFirmwareCli(['keygen', '--out', dir], quiet)).toBe(0);
    expect(await runFirmwareCli(['keygen', '--out', dir], quiet)).toBe(2);
    writeFileSync(join(dir, 'bin'), binary);
    const fw = join(dir, 'edge.fw');
    const args = ['sign', '--private-key', join(dir, 'firmware-private.pem'), '--arch', 'arm64', '--binary', join(dir, 'bin'), '--version', '2.0.0', '--out', fw];
    expect(await runFirmwareCli(args, quiet)).toBe(0);
    const lines: string[] = [];
    expect(await runFirmwareCli(['verify', '--public-key', join(dir, 'firmware-public.pem'), '--fw', fw, '--arch', 'arm64'], { out: (l) => lines.push(l), err: () => {} })).toBe(0);
    expect(JSON.parse(lines.join('\n'))).toMatchObject({ version: '2.0.0', arch: 'arm64', size: binary.length });
    expect(await runFirmwareCli(['verify', '--public-key', join(dir, 'firmware-public.pem'), '--fw', fw, '--arch', 'x64'], quiet)).toBe(1);
    expect(readFileSync(fw).subarray(-binary.length)).toEqual(binary);
  });
});
