/** Checks of the cloud platform form (settings page and wizard step 2) with the contract's patterns. */
import { HOST_PATTERN, IPV4_PATTERN } from '../../../server/contract/validation.ts';

const ipv4 = new RegExp(IPV4_PATTERN);
const host = new RegExp(HOST_PATTERN);

/** An IPv4 address or a host name (3–255 characters, not all digits and dots). */
export function isPlatformAddress(value: string): boolean {
  return ipv4.test(value) || host.test(value);
}

/** The port as a number when the text is a whole number from 1 to 65535, else null. */
export function parsePort(text: string | number | null | undefined): number | null {
  const s = String(text ?? '').trim();
  if (!/^\d{1,5}$/.test(s)) return null;
  const n = Number(s);
  return n >= 1 && n <= 65535 ? n : null;
}
