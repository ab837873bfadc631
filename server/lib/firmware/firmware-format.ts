/**
 * The `.fw` file: a signed manifest in front of the gateway binary, laid out so that a gateway can
 * verify it while it streams in, without holding 40 MB in memory or trusting a byte before its
 * signature is checked:
 *
 *   0       8 bytes   magic "EDGEFW" 0x00 0x01 (format 1)
 *   8       4 bytes   manifest length M, unsigned big-endian, at most MANIFEST_MAX_BYTES
 *   12      M bytes   manifest, UTF-8 JSON (FirmwareManifest)
 *   12+M    64 bytes  Ed25519 signature of bytes [0, 12+M): magic, length and manifest
 *   76+M    size      the binary; the manifest's sha256 and size cover exactly these bytes
 *
 * The signature is checked as soon as the header is in (a package from an unknown key or for the
 * wrong architecture is refused after a few hundred bytes); the binary's hash only at its end.
 */
import { createHash, sign, verify, type Hash, type KeyObject } from 'node:crypto';
import type { FirmwareArch, FirmwareManifest } from '../../contract/firmware.ts';
import { firmwareArches, FIRMWARE_FORMAT, FIRMWARE_VERSION_PATTERN } from '../../contract/firmware.ts';

export const FIRMWARE_MAGIC = Buffer.from([0x45, 0x44, 0x47, 0x45, 0x46, 0x57, 0x00, 0x01]);
export const MANIFEST_MAX_BYTES = 16 * 1024;
const SIGNATURE_BYTES = 64;
const PREFIX_BYTES = FIRMWARE_MAGIC.length + 4;

/** Why a package is refused; each is an error key `error.firmware.<reason>`. */
export type FirmwareRejectReason = 'badFormat' | 'unknownKey' | 'wrongArch' | 'tampered' | 'truncated';

export class FirmwareRejection extends Error {
  constructor(
    readonly reason: FirmwareRejectReason,
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

/** The header (magic, length, manifest, signature) for `binary`, signed with `privateKey`. */
export function firmwareHeader(manifest: FirmwareManifest, privateKey: KeyObject): Buffer {
  const json = Buffer.from(JSON.stringify(manifest), 'utf8');
  if (json.length > MANIFEST_MAX_BYTES) throw new Error('manifest too large');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  const signed = Buffer.concat([FIRMWARE_MAGIC, length, json]);
  return Buffer.concat([signed, sign(null, signed, privateKey)]);
}

/** The sha256 (hex) of a whole buffer, as the manifest records it. */
export function sha256Hex(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function parseManifest(json: Buffer): FirmwareManifest {
  let m: Partial<FirmwareManifest>;
  try {
    m = JSON.parse(json.toString('utf8')) as Partial<FirmwareManifest>;
  } catch {
    throw new FirmwareRejection('badFormat', 'manifest is not JSON');
  }
  const version = new RegExp(FIRMWARE_VERSION_PATTERN);
  const ok =
    m.format === FIRMWARE_FORMAT &&
    typeof m.version === 'string' && version.test(m.version) &&
    typeof m.minVersion === 'string' && version.test(m.minVersion) &&
    typeof m.commit === 'string' && m.commit.length <= 64 &&
    (firmwareArches as readonly unknown[]).includes(m.arch) &&
    typeof m.sha256 === 'string' && /^[0-9a-f]{64}$/.test(m.sha256) &&
    Number.isSafeInteger(m.size) && (m.size as number) > 0 &&
    Number.isSafeInteger(m.buildTime);
  if (!ok) throw new FirmwareRejection('badFormat', 'manifest fields missing or malformed');
  return m as FirmwareManifest;
}

export interface FirmwareVerifierOptions {
  /** Ed25519 public keys this gateway trusts; a package signed by none of them is refused. */
  trustedKeys: readonly KeyObject[];
  /** The architecture this gateway runs; omitted, any architecture passes (the signing tool's own check). */
  arch?: FirmwareArch;
}

/**
 * Checks a `.fw` file fed in chunks of any size. `update` throws a FirmwareRejection as soon as
 * the bytes seen so far prove the package bad; `finish` throws unless exactly the signed binary
 * followed. Nothing is decided from unverified bytes: the manifest is parsed only after its
 * signature matched a trusted key.
 */
export class FirmwareVerifier {
  #header: Buffer[] = [];
  #headerBytes = 0;
  #needed = PREFIX_BYTES;
  #manifest: FirmwareManifest | null = null;
  #hash: Hash = createHash('sha256');
  #binaryBytes = 0;

  constructor(private readonly options: FirmwareVerifierOptions) {}

  /** The verified manifest, once the header has been read. */
  get manifest(): FirmwareManifest | null {
    return this.#manifest;
  }

  /** Offset of the binary in the file, once the header has been read. */
  get binaryOffset(): number {
    return this.#manifest ? this.#needed : 0;
  }

  update(chunk: Buffer): void {
    let rest = chunk;
    while (!this.#manifest && rest.length > 0) {
      const take = Math.min(rest.length, this.#needed - this.#headerBytes);
      this.#header.push(rest.subarray(0, take));
      this.#headerBytes += take;
      rest = rest.subarray(take);
      if (this.#headerBytes === this.#needed) this.#advanceHeader();
    }
    if (!this.#manifest || rest.length === 0) return;
    this.#binaryBytes += rest.length;
    if (this.#binaryBytes > this.#manifest.size) throw new FirmwareRejection('tampered', 'bytes past the signed size');
    this.#hash.update(rest);
  }

  /** The manifest, if the whole binary arrived and matches it. */
  finish(): FirmwareManifest {
    const m = this.#manifest;
    if (!m || this.#binaryBytes < m.size) throw new FirmwareRejection('truncated', `${this.#binaryBytes} of ${m?.size ?? '?'} bytes`);
    if (this.#hash.digest('hex') !== m.sha256) throw new FirmwareRejection('tampered', 'sha256 of the binary differs from the manifest');
    return m;
  }

  /** Called each time the header buffer reaches the length it was waiting for. */
  #advanceHeader(): void {
    const header = Buffer.concat(this.#header);
    this.#header = [header];
    if (this.#needed === PREFIX_BYTES) {
      if (!header.subarray(0, FIRMWARE_MAGIC.length).equals(FIRMWARE_MAGIC)) throw new FirmwareRejection('badFormat', 'not an edge-console firmware file');
      const length = header.readUInt32BE(FIRMWARE_MAGIC.length);
      if (length === 0 || length > MANIFEST_MAX_BYTES) throw new FirmwareRejection('badFormat', `manifest length ${length}`);
      this.#needed = PREFIX_BYTES + length + SIGNATURE_BYTES;
      return;
    }
    const signedEnd = this.#needed - SIGNATURE_BYTES;
    const signed = header.subarray(0, signedEnd);
    const signature = header.subarray(signedEnd);
    if (!this.options.trustedKeys.some((key) => verify(null, signed, key, signature))) {
      throw new FirmwareRejection('unknownKey', 'signature matches no trusted key (or the header was altered)');
    }
    const manifest = parseManifest(signed.subarray(PREFIX_BYTES));
    if (this.options.arch && manifest.arch !== this.options.arch) {
      throw new FirmwareRejection('wrongArch', `package for ${manifest.arch}, gateway is ${this.options.arch}`);
    }
    this.#manifest = manifest;
  }
}

/** The architecture of this process in the manifest's terms, or null on one no package targets. */
export function runningArch(): FirmwareArch | null {
  return process.arch === 'x64' || process.arch === 'arm64' ? process.arch : null;
}

/**
 * Orders versions `major.minor.patch[-pre][+build]`: a pre-release sorts before its release, and
 * build metadata (the binary's `+<git sha>`, scripts/build.ts) does not count, as in semver.
 */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string): [number[], string | null] => {
    const [core = '', ...pre] = v.split('+')[0]!.split('-');
    return [core.split('.').map((n) => Number(n) || 0), pre.length ? pre.join('-') : null];
  };
  const [ac, ap] = parse(a);
  const [bc, bp] = parse(b);
  for (let i = 0; i < 3; i++) {
    const d = (ac[i] ?? 0) - (bc[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (ap === bp) return 0;
  if (ap === null) return 1;
  if (bp === null) return -1;
  return ap < bp ? -1 : 1;
}
