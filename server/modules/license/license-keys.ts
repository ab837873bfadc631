/**
 * Trusted licence public keys: parsing PEM text, the key id a `.lic` file names its signer by, and
 * reading the `--license-public-key` files. There is no built-in key: a gateway trusts only keys
 * embedded at build time or given on the command line.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../config.ts';

/** SHA-256 (hex) of the key's SPKI DER encoding: stable whatever the PEM's line wrapping. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex');
}

/** Parses PEM text as an Ed25519 public key; throws a message saying what is wrong otherwise. */
export function parseLicensePublicKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new Error('not a PEM public key');
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`not an Ed25519 key (found ${key.asymmetricKeyType ?? 'unknown'})`);
  }
  return key;
}

/** The trusted keys by key id, from PEM strings (build-time keys and `--license-public-key` files). */
export function trustedKeyMap(pems: readonly string[]): Map<string, KeyObject> {
  const map = new Map<string, KeyObject>();
  pems.forEach((pem, i) => {
    let key: KeyObject;
    try {
      key = parseLicensePublicKey(pem);
    } catch (err) {
      throw new Error(`trusted licence key #${i + 1}: ${(err as Error).message}`);
    }
    map.set(keyIdOf(key), key);
  });
  return map;
}

/**
 * Reads the PEM files given with `--license-public-key`. A file that cannot be read or holds no
 * Ed25519 public key stops start-up with an error naming the file: a gateway that silently ignored
 * its only trusted key would refuse every licence without saying why.
 */
export function readLicenseKeyFiles(files: readonly string[]): string[] {
  return files.map((file) => {
    let pem: string;
    try {
      pem = readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(`--license-public-key ${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    try {
      parseLicensePublicKey(pem);
    } catch (err) {
      throw new ConfigError(`--license-public-key ${file}: ${(err as Error).message}`);
    }
    return pem;
  });
}
