/**
 * The cloud's CA certificate as the gateway checks it before storing: the contract's rule (PEM
 * certificate blocks within the size) and then node's X509Certificate on every block, so garbage
 * is refused on save with the field named, not discovered at the next TLS handshake.
 */
import { X509Certificate } from 'node:crypto';
import { certificateBlocks, cloudCaProblem } from '../../contract/rules/cloud-ca.ts';
import { violationError } from '../../lib/field-errors.ts';

export interface CaSummary {
  subject: string;
  /** Epoch ms. */
  validTo: number;
}

const FIELD = 'platformCaPem';

/** The summary of the first certificate of `pem`; throws a 400 naming the field when any block does not parse. */
export function checkCloudCa(pem: string): CaSummary {
  const refused = cloudCaProblem(pem);
  if (refused) throw violationError([{ field: FIELD, ...refused }]);
  const certificates = certificateBlocks(pem)!.map((block) => {
    try {
      return new X509Certificate(block);
    } catch {
      throw violationError([{ field: FIELD, key: 'error.cloud.caInvalid' }]);
    }
  });
  const first = certificates[0]!;
  // OpenSSL's "Nov 27 18:55:37 2026 GMT", which Date reads.
  return { subject: first.subject.replace(/\n/g, ', '), validTo: Date.parse(first.validTo) };
}
