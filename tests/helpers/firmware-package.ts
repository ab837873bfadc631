/**
 * Signed firmware packages for tests: one Ed25519 key pair per test process (its public key in a
 * PEM file, as `--firmware-public-key` takes it), and `.fw` files around any bytes. Apart from the
 * gateway helpers (firmware.ts) because the e2e specs, which must not load the server, use it too.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIRMWARE_FORMAT, type FirmwareManifest } from '../../server/contract/firmware.ts';
import { firmwareHeader, runningArch, sha256Hex } from '../../server/lib/firmware/firmware-format.ts';

export interface FirmwareKeys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public key as a PEM file. */
  publicKeyFile: string;
}

let keys: FirmwareKeys | null = null;

export function firmwareKeys(): FirmwareKeys {
  if (keys) return keys;
  const pair = generateKeyPairSync('ed25519');
  // Outside the per-test temporary dirs: the key outlives each test (a few hundred bytes in /tmp).
  const publicKeyFile = join(mkdtempSync(join(tmpdir(), 'edge-fw-key-')), 'firmware-public.pem');
  writeFileSync(publicKeyFile, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  keys = { ...pair, publicKeyFile };
  return keys;
}

/** A `.fw` of `binary`, signed by `key` (the test key by default), for this machine's arch unless told. */
export function signedPackage(binary: Buffer, manifest: Partial<FirmwareManifest> = {}, key = firmwareKeys().privateKey): Buffer {
  const full: FirmwareManifest = {
    format: FIRMWARE_FORMAT,
    version: '1.0.0',
    commit: 'test',
    arch: runningArch() ?? 'x64',
    minVersion: '0.0.0-0',
    sha256: sha256Hex(binary),
    size: binary.length,
    buildTime: Date.now(),
    ...manifest,
  };
  return Buffer.concat([firmwareHeader(full, key), binary]);
}
