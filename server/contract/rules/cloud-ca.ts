/**
 * The cloud's CA certificate file of the cloud configuration (server/contract/cloud.ts): PEM text
 * of one or more `CERTIFICATE` blocks and nothing else that looks like a key, within the size
 * limit. The server also parses each block (server/modules/cloud/cloud-ca.ts); this is what a
 * browser can check before sending.
 */
import { PLATFORM_CA_MAX_BYTES } from '../cloud.ts';
import { problem, type Problem } from './problem.ts';

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** The PEM blocks of `text` that are certificates; null when it holds anything else in PEM or none. */
export function certificateBlocks(text: string): string[] | null {
  const blocks = [...text.matchAll(BLOCK)];
  if (blocks.length === 0 || blocks.some((b) => b[1] !== 'CERTIFICATE')) return null;
  return blocks.map((b) => b[0]);
}

export function cloudCaProblem(value: unknown): Problem | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || new TextEncoder().encode(value).length > PLATFORM_CA_MAX_BYTES) {
    return problem('error.cloud.caTooLarge', { max: PLATFORM_CA_MAX_BYTES / 1024 });
  }
  return certificateBlocks(value) ? null : problem('error.cloud.caInvalid');
}
