/**
 * Checksums of a device firmware as ThingsBoard writes them in `fw_checksum` (its
 * OtaPackageService.generateChecksum, Guava's HashCode.toString()): lower-case hex; CRC32 as
 * Guava prints a 32-bit hash, its four bytes little-endian ("2639f4cb" for CRC 0xcbf43926),
 * which is what ThingsBoard's device SDKs compare against.
 */
import { createHash, type Hash } from 'node:crypto';
import type { OtaChecksumAlgorithm } from '../../contract/ota.ts';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE, zlib's) over chunks: Node 20's zlib has no crc32 of its own. */
class Crc32 {
  private crc = 0xffffffff;
  update(chunk: Buffer): void {
    let c = this.crc;
    for (const byte of chunk) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
    this.crc = c;
  }
  digestLittleEndian(): string {
    const out = Buffer.alloc(4);
    out.writeUInt32LE((this.crc ^ 0xffffffff) >>> 0);
    return out.toString('hex');
  }
}

/** A running checksum: `update` with every chunk, `digest` once at the end. */
export interface Checksum {
  update(chunk: Buffer): void;
  digest(): string;
}

const hashNames: Record<Exclude<OtaChecksumAlgorithm, 'CRC32'>, string> = { SHA256: 'sha256', SHA384: 'sha384', SHA512: 'sha512', MD5: 'md5' };

export function checksumOf(algorithm: OtaChecksumAlgorithm): Checksum {
  if (algorithm === 'CRC32') {
    const crc = new Crc32();
    return { update: (chunk) => crc.update(chunk), digest: () => crc.digestLittleEndian() };
  }
  const hash: Hash = createHash(hashNames[algorithm]);
  return { update: (chunk) => hash.update(chunk), digest: () => hash.digest('hex') };
}
