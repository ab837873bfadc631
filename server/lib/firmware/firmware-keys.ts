/**
 * The keys a gateway trusts to sign its firmware: those embedded at build time and the
 * `--firmware-public-key` files. None is built in by default, so a gateway nobody gave a key
 * refuses every package rather than trusting a key everyone could find.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../config.ts';

function ed25519(pem: string, where: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new ConfigError(`${where}: not a PEM public key`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new ConfigError(`${where}: not an Ed25519 key`);
  return key;
}

/**
 * Every trusted firmware key. A file that cannot be read or holds no Ed25519 key stops the start
 * naming it: a gateway silently missing its only key would refuse every update without saying why.
 */
export function firmwareTrustedKeys(embedded: readonly string[], files: readonly string[]): KeyObject[] {
  const fromFiles = files.map((file) => {
    let pem: string;
    try {
      pem = readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(`--firmware-public-key ${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    return ed25519(pem, `--firmware-public-key ${file}`);
  });
  return [...embedded.map((pem, i) => ed25519(pem, `embedded firmware key #${i + 1}`)), ...fromFiles];
}
