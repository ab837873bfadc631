/**
 * Firmware tool (docs/FIRMWARE.md): `npm run firmware -- keygen|sign|verify …`.
 * The format and its verifier are the gateway's own (server/lib/firmware/firmware-format.ts), so
 * a package this tool verifies is one the gateway accepts.
 */
import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { firmwareArches, FIRMWARE_FORMAT, FIRMWARE_VERSION_PATTERN, type FirmwareArch, type FirmwareManifest } from '../server/contract/firmware.ts';
import { firmwareHeader, FirmwareRejection, FirmwareVerifier } from '../server/lib/firmware/firmware-format.ts';

export const FIRMWARE_PRIVATE_KEY = 'firmware-private.pem';
export const FIRMWARE_PUBLIC_KEY = 'firmware-public.pem';
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

const USAGE = `Usage: npm run firmware -- <command> [options]

Commands:
  keygen --out DIR
      Write a new Ed25519 key pair: DIR/${FIRMWARE_PRIVATE_KEY} (mode 0600, keep it secret) and
      DIR/${FIRMWARE_PUBLIC_KEY} (give it to gateways with --firmware-public-key). Never overwrites.

  sign --private-key FILE --arch x64|arm64 --out FILE.fw [--binary FILE]
       [--version V] [--min-version V] [--commit SHA]
      Wrap a built binary (default dist/bin/edge-console-linux-<arch>) in a signed package.
      --version defaults to package.json's, --commit to git's HEAD, --min-version (the oldest
      running version allowed to update to it) to 0.0.0.

  verify --public-key FILE --fw FILE [--arch x64|arm64]
      Check a package as a gateway would; prints its manifest or why it is refused (exit 1).
`;

class UsageError extends Error {}

function need(values: Record<string, string | undefined>, name: string): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function keyFrom(file: string, kind: 'private' | 'public'): KeyObject {
  let key: KeyObject;
  try {
    const pem = readFileSync(file, 'utf8');
    key = kind === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
  } catch (err) {
    throw new UsageError(`${file}: not a readable PEM ${kind} key (${(err as Error).message})`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new UsageError(`${file}: not an Ed25519 key`);
  return key;
}

function keygen(values: Record<string, string | undefined>): string[] {
  const dir = resolve(need(values, 'out'));
  const files = [join(dir, FIRMWARE_PRIVATE_KEY), join(dir, FIRMWARE_PUBLIC_KEY)] as const;
  for (const file of files) if (existsSync(file)) throw new UsageError(`${file} already exists; refusing to overwrite it`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pair = generateKeyPairSync('ed25519');
  writeFileSync(files[0], pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  writeFileSync(files[1], pair.publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644, flag: 'wx' });
  return [`private key: ${files[0]} (keep it secret)`, `public key:  ${files[1]}`];
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function versionArg(raw: string, name: string): string {
  if (!new RegExp(FIRMWARE_VERSION_PATTERN).test(raw)) throw new UsageError(`--${name} ${raw}: expected major.minor.patch[-pre]`);
  return raw;
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

async function signCommand(values: Record<string, string | undefined>): Promise<string[]> {
  const arch = need(values, 'arch') as FirmwareArch;
  if (!firmwareArches.includes(arch)) throw new UsageError(`--arch ${arch}: expected x64 or arm64`);
  const out = need(values, 'out');
  if (!out.endsWith('.fw')) throw new UsageError(`--out ${out}: the package name must end in .fw`);
  const key = keyFrom(need(values, 'private-key'), 'private');
  const binary = values.binary ?? join(root, `dist/bin/edge-console-linux-${arch}`);
  if (!existsSync(binary)) throw new UsageError(`--binary ${binary}: missing (build it: npx tsx scripts/binary.ts)`);
  const pkgVersion = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const manifest: FirmwareManifest = {
    format: FIRMWARE_FORMAT,
    version: versionArg(values.version ?? pkgVersion, 'version'),
    commit: (values.commit ?? gitCommit()).slice(0, 64),
    arch,
    minVersion: versionArg(values['min-version'] ?? '0.0.0', 'min-version'),
    sha256: await sha256OfFile(binary),
    size: statSync(binary).size,
    buildTime: Date.now(),
  };
  // Written aside and renamed: a failed run never leaves a half package under the final name.
  const partial = `${out}.partial`;
  const file = createWriteStream(partial);
  file.write(firmwareHeader(manifest, key));
  await pipeline(createReadStream(binary), file);
  renameSync(partial, out);
  return [`firmware ${manifest.version} (${arch}, ${manifest.size} bytes): ${resolve(out)}`];
}

async function verifyCommand(values: Record<string, string | undefined>): Promise<string[]> {
  const key = keyFrom(need(values, 'public-key'), 'public');
  const arch = values.arch as FirmwareArch | undefined;
  const verifier = new FirmwareVerifier({ trustedKeys: [key], arch });
  const stream = createReadStream(need(values, 'fw'));
  stream.on('data', (chunk) => {
    try {
      verifier.update(chunk as Buffer);
    } catch (err) {
      stream.destroy(err as Error);
    }
  });
  await once(stream, 'end');
  return [JSON.stringify(verifier.finish(), null, 2)];
}

const OPTIONS = {
  out: { type: 'string' },
  'private-key': { type: 'string' },
  'public-key': { type: 'string' },
  arch: { type: 'string' },
  binary: { type: 'string' },
  version: { type: 'string' },
  'min-version': { type: 'string' },
  commit: { type: 'string' },
  fw: { type: 'string' },
} as const;

/** Runs one command line; resolves to the process exit code. */
export async function runFirmwareCli(argv: string[], io = { out: (l: string) => console.log(l), err: (l: string) => console.error(l) }): Promise<number> {
  const [command, ...args] = argv;
  try {
    const { values } = parseArgs({ args, options: OPTIONS, strict: true });
    const commands: Record<string, (v: typeof values) => string[] | Promise<string[]>> = { keygen, sign: signCommand, verify: verifyCommand };
    const run = command ? commands[command] : undefined;
    if (!run) {
      io.err(USAGE);
      return command === '--help' ? 0 : 2;
    }
    for (const line of await run(values)) io.out(line);
    return 0;
  } catch (err) {
    if (err instanceof FirmwareRejection) {
      io.err(`refused: ${err.message}`);
      return 1;
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (err instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      io.err(`firmware: ${(err as Error).message}`);
      return 2;
    }
    throw err;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runFirmwareCli(process.argv.slice(2));
}
