/**
 * Licence tool (README, Licences): `npm run license -- keygen|issue|verify …`.
 * Signing and verifying are the server's own modules, so a licence this tool accepts is one the
 * gateway accepts.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateLicenseKeyPair, issueLicense } from '../server/modules/license/license-issue.ts';
import { keyIdOf, parseLicensePublicKey, trustedKeyMap } from '../server/modules/license/license-keys.ts';
import { verifyLicense } from '../server/modules/license/license-verify.ts';
import { translate } from '../server/lib/messages.ts';

export const PRIVATE_KEY_FILE = 'license-private.pem';
export const PUBLIC_KEY_FILE = 'license-public.pem';

const USAGE = `Usage: npm run license -- <command> [options]

Commands:
  keygen --out DIR
      Write a new Ed25519 key pair: DIR/${PRIVATE_KEY_FILE} (mode 0600, keep it secret)
      and DIR/${PUBLIC_KEY_FILE} (give it to the gateway with --license-public-key or embed
      it at build time). Existing files are never overwritten.

  issue --private-key FILE --device SN|'*' --days N --out FILE.lic
        [--customer NAME] [--max-devices N] [--features a,b]
      Sign a licence for one device serial number, or '*' for any device, valid N days.
      --max-devices 0 (the default) means no limit.

  verify --public-key FILE --lic FILE [--device SN]
      Check a licence as a gateway would; with --device, also check the device binding.
      Prints the payload, or the reason it is refused (exit code 1).

  --help
      Show this text.
`;

/** A mistake in how the tool was called: usage problem, exit code 2. */
class UsageError extends Error {}

export interface KeyFiles {
  privateKeyFile: string;
  publicKeyFile: string;
}

function keyFilesIn(dir: string): KeyFiles {
  return { privateKeyFile: join(dir, PRIVATE_KEY_FILE), publicKeyFile: join(dir, PUBLIC_KEY_FILE) };
}

/** Writes a new key pair into `dir`; refuses if either file exists (a lost private key cannot be recovered). */
export function writeKeyPair(dir: string): KeyFiles & { keyId: string } {
  const files = keyFilesIn(dir);
  for (const file of [files.privateKeyFile, files.publicKeyFile]) {
    if (existsSync(file)) throw new UsageError(`${file} already exists; refusing to overwrite it`);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pair = generateLicenseKeyPair();
  writeFileSync(files.privateKeyFile, pair.privateKeyPem, { mode: 0o600, flag: 'wx' });
  chmodSync(files.privateKeyFile, 0o600);
  writeFileSync(files.publicKeyFile, pair.publicKeyPem, { mode: 0o644, flag: 'wx' });
  return { ...files, keyId: keyIdOf(parseLicensePublicKey(pair.publicKeyPem)) };
}

/**
 * A development key pair in `dir` (e.g. `.keys/`), created only if missing, for `npm start` and
 * `npm run demo` to trust `dir/license-public.pem`.
 */
export function ensureDevKeys(dir: string): KeyFiles & { created: boolean } {
  const files = keyFilesIn(dir);
  if (existsSync(files.privateKeyFile) && existsSync(files.publicKeyFile)) return { ...files, created: false };
  return { ...writeKeyPair(dir), created: true };
}

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${what} ${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** `positive`: a number > 0 (days may be fractional); `count`: a whole number ≥ 0. */
function numberArg(raw: string, name: string, kind: 'positive' | 'count'): number {
  const n = Number(raw);
  const ok = raw.trim() !== '' && Number.isFinite(n) && (kind === 'count' ? Number.isInteger(n) && n >= 0 : n > 0);
  if (!ok) throw new UsageError(`--${name}: expected ${kind === 'count' ? 'a whole number ≥ 0' : 'a positive number'}, got "${raw}"`);
  return n;
}

function keygen(args: string[], out: (line: string) => void): void {
  const { values } = parseArgs({ args, options: { out: { type: 'string' } }, strict: true });
  const written = writeKeyPair(resolve(required(values, 'out')));
  out(`private key: ${written.privateKeyFile} (keep it secret)`);
  out(`public key:  ${written.publicKeyFile}`);
  out(`key id:      ${written.keyId}`);
}

function issue(args: string[], out: (line: string) => void): void {
  const { values } = parseArgs({
    args,
    options: {
      'private-key': { type: 'string' },
      device: { type: 'string' },
      days: { type: 'string' },
      customer: { type: 'string' },
      'max-devices': { type: 'string' },
      features: { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
  });
  const keyFile = required(values, 'private-key');
  const device = required(values, 'device').trim();
  const days = numberArg(required(values, 'days'), 'days', 'positive');
  const outFile = required(values, 'out');
  if (!outFile.toLowerCase().endsWith('.lic')) throw new UsageError(`--out ${outFile}: the licence file name must end in .lic`);
  const maxDevices = values['max-devices'] === undefined ? 0 : numberArg(values['max-devices'], 'max-devices', 'count');
  const features = (values.features ?? '').split(',').map((f) => f.trim()).filter(Boolean);
  // Arguments are checked before any file is read, so every typo is reported as itself.
  const privateKeyPem = readText(keyFile, '--private-key');
  let lic: Buffer;
  try {
    lic = issueLicense({ privateKeyPem, device, days, customer: values.customer ?? '', maxDevices, features });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  writeFileSync(outFile, lic);
  out(`licence for device ${device}, valid ${days} day(s): ${resolve(outFile)}`);
}

function verifyCommand(args: string[], out: (line: string) => void): boolean {
  const { values } = parseArgs({
    args,
    options: { 'public-key': { type: 'string' }, lic: { type: 'string' }, device: { type: 'string' } },
    strict: true,
  });
  const keyFile = required(values, 'public-key');
  const pem = readText(keyFile, '--public-key');
  let keys;
  try {
    keys = trustedKeyMap([pem]);
  } catch {
    throw new UsageError(`--public-key ${keyFile}: not an Ed25519 public key`);
  }
  const lic = readText(required(values, 'lic'), '--lic');
  const checked = verifyLicense(lic, keys, values.device ?? null, Date.now());
  if (!checked.ok) {
    out(`refused: ${translate('en_US', checked.key, checked.params)} (${checked.key})`);
    return false;
  }
  out(JSON.stringify(checked.payload, null, 2));
  return true;
}

/** Runs one command line; returns the process exit code. */
export function runLicenseCli(
  argv: string[],
  io: { out: (line: string) => void; err: (line: string) => void } = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
): number {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'keygen':
        keygen(args, io.out);
        return 0;
      case 'issue':
        issue(args, io.out);
        return 0;
      case 'verify':
        return verifyCommand(args, io.out) ? 0 : 1;
      case '--help':
      case '-h':
      case 'help':
        io.out(USAGE);
        return 0;
      case undefined:
        io.err(USAGE);
        return 2;
      default:
        throw new UsageError(`unknown command "${command}" (keygen, issue, verify or --help)`);
    }
  } catch (err) {
    // parseArgs reports unknown or value-less options with its own error codes.
    const code = (err as NodeJS.ErrnoException).code;
    if (err instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      io.err(`license: ${(err as Error).message}`);
      return 2;
    }
    throw err;
  }
}

const invokedDirectly = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) process.exitCode = runLicenseCli(process.argv.slice(2));
