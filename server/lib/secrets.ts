/**
 * Per-install secrets, generated at first boot and never built in: the JWT signing key and the
 * setup code. Files are written with mode 0600 so only the service user can read them.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';

export interface Secrets {
  jwtKey: Buffer;
  setupCode: string;
  /** True when this call created them (first boot). */
  created: boolean;
}

const SETUP_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O/1/I: read off a console log

/** Writes `content` readable by the service user only. */
export function writePrivate(file: string, content: string): void {
  writeFileSync(file, content, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function loadSecrets(dataDir: string): Secrets {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secretFile = join(dataDir, 'secrets.json');
  const codeFile = join(dataDir, 'setup-code');
  let created = false;
  if (!existsSync(secretFile)) {
    writePrivate(secretFile, JSON.stringify({ jwtKey: randomBytes(48).toString('base64') }));
    created = true;
  }
  if (!existsSync(codeFile)) {
    let code = '';
    for (let i = 0; i < 12; i++) code += SETUP_ALPHABET[randomInt(SETUP_ALPHABET.length)];
    writePrivate(codeFile, `${code}\n`);
  }
  const { jwtKey } = JSON.parse(readFileSync(secretFile, 'utf8')) as { jwtKey: string };
  return {
    jwtKey: Buffer.from(jwtKey, 'base64'),
    setupCode: readFileSync(codeFile, 'utf8').trim(),
    created,
  };
}
