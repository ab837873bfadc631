/**
 * A self-signed X.509 v3 certificate, DER-encoded by hand and signed with node:crypto: Node can
 * parse certificates (`crypto.X509Certificate`) but not write them, and the gateway may not carry a
 * package for the one certificate it makes at first boot (its MQTT-over-TLS identity). Tests use it
 * for device client certificates too. Keys: ECDSA P-256 (ecdsa-with-SHA256) or RSA
 * (sha256WithRSAEncryption).
 */
import { randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

export interface CertificateRequest {
  /** The key pair the certificate is for; it signs itself. */
  privateKey: KeyObject;
  publicKey: KeyObject;
  commonName: string;
  /** subjectAltName dNSName entries (a TLS client checks the host it dialled against these). */
  dnsNames?: string[];
  /** subjectAltName iPAddress entries, IPv4 or IPv6 text. */
  ipAddresses?: string[];
  notBefore: Date;
  notAfter: Date;
  /** extendedKeyUsage: a TLS server's or a TLS client's certificate. */
  usage: 'server' | 'client';
}

// --- DER (X.690) ---------------------------------------------------------------------------------

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const sequence = (...items: Buffer[]): Buffer => tlv(0x30, ...items);
const set = (...items: Buffer[]): Buffer => tlv(0x31, ...items);
const octetString = (data: Buffer): Buffer => tlv(0x04, data);
const utf8String = (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8'));
const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 | n, inner);
const NULL = Buffer.from([0x05, 0x00]);
const TRUE = Buffer.from([0x01, 0x01, 0xff]);

/** A non-negative INTEGER from big-endian bytes (a leading 0 keeps the sign bit clear). */
function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && (bytes[start + 1]! & 0x80) === 0) start++;
  const trimmed = bytes.subarray(start);
  return tlv(0x02, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) groups.unshift((v & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** BIT STRING with no unused bits (signatures, which are whole bytes). */
const bitString = (data: Buffer): Buffer => tlv(0x03, Buffer.from([0]), data);

/** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050. */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  const year = date.getUTCFullYear();
  return year < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

// --- X.509 (RFC 5280) ----------------------------------------------------------------------------

const OID = {
  commonName: '2.5.4.3',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
};

function signatureAlgorithm(key: KeyObject): Buffer {
  switch (key.asymmetricKeyType) {
    case 'ec':
      if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('only the P-256 curve is supported');
      return sequence(oid(OID.ecdsaWithSha256));
    case 'rsa':
      return sequence(oid(OID.sha256WithRsa), NULL);
    default:
      throw new Error(`unsupported key type: ${key.asymmetricKeyType}`);
  }
}

function name(commonName: string): Buffer {
  return sequence(set(sequence(oid(OID.commonName), utf8String(commonName))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(oid(id), TRUE, octetString(value)) : sequence(oid(id), octetString(value));
}

function ipBytes(ip: string): Buffer {
  if (isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  if (!isIPv6(ip)) throw new Error(`not an IP address: ${ip}`);
  const [head, tail] = ip.split('::') as [string, string | undefined];
  const groups = (part: string): number[] => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(g, i * 2));
  return out;
}

function extensions(req: CertificateRequest): Buffer {
  // digitalSignature (bit 0) for any key; keyEncipherment (bit 2) too for RSA's key exchange.
  const rsa = req.publicKey.asymmetricKeyType === 'rsa';
  const keyUsage = rsa ? Buffer.from([0x03, 0x02, 0x05, 0xa0]) : Buffer.from([0x03, 0x02, 0x07, 0x80]);
  const altNames = [
    ...(req.dnsNames ?? []).map((dns) => tlv(0x82, Buffer.from(dns, 'ascii'))),
    ...(req.ipAddresses ?? []).map((ip) => tlv(0x87, ipBytes(ip))),
  ];
  const list = [
    // An end-entity certificate (cA false): it is trusted as itself (pinned), never as an issuer.
    extension(OID.basicConstraints, true, sequence()),
    extension(OID.keyUsage, true, keyUsage),
    extension(OID.extKeyUsage, false, sequence(oid(req.usage === 'server' ? OID.serverAuth : OID.clientAuth))),
  ];
  if (altNames.length > 0) list.push(extension(OID.subjectAltName, false, sequence(...altNames)));
  return explicit(3, sequence(...list));
}

/** The certificate as PEM (`-----BEGIN CERTIFICATE-----`). */
export function selfSignedCertificate(req: CertificateRequest): string {
  const algorithm = signatureAlgorithm(req.privateKey);
  // RFC 5280 4.1.2.2: positive, at most 20 bytes; 16 random bytes make collisions moot.
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const issuer = name(req.commonName);
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))), // v3
    integer(serial),
    algorithm,
    issuer,
    sequence(time(req.notBefore), time(req.notAfter)),
    issuer, // self-signed: subject = issuer
    req.publicKey.export({ type: 'spki', format: 'der' }),
    extensions(req),
  );
  // ECDSA signatures come out DER-encoded (Ecdsa-Sig-Value), as X.509 wants them.
  const signature = sign('sha256', tbs, req.privateKey);
  const der = sequence(tbs, algorithm, bitString(signature));
  const base64 = der.toString('base64').replace(/.{1,64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE-----\n${base64}-----END CERTIFICATE-----\n`;
}
