/**
 * Registration string rules (server/contract/tcp-device.ts): ASCII printable text or hex digit
 * pairs, 1–64 bytes. The device service stores the normalized form; the device form checks the
 * field with `registrationProblem`; the TCP access server compares the bytes (`registrationBytes`).
 */
import { REGISTRATION_ASCII_PATTERN, REGISTRATION_HEX_PATTERN, type Registration } from '../tcp-device.ts';
import { problem, type Problem } from './problem.ts';

const ascii = new RegExp(REGISTRATION_ASCII_PATTERN);
const hex = new RegExp(REGISTRATION_HEX_PATTERN);

/** The registration as stored (HEX upper case without spaces), or undefined when it breaks its format. */
export function normalizeRegistration(value: Registration): Registration | undefined {
  if (value.format === 'ASCII') return ascii.test(value.value) ? value : undefined;
  return hex.test(value.value) ? { format: 'HEX', value: value.value.replace(/\s+/g, '').toUpperCase() } : undefined;
}

export function registrationProblem(value: Registration): Problem | null {
  return normalizeRegistration(value) ? null : problem('error.device.registration');
}

/** The bytes a DTU sends for a (normalized) registration, as upper-case hex. */
export function registrationHex(value: Registration): string {
  if (value.format === 'HEX') return value.value;
  let hex = '';
  // ASCII only (the format's rule), so one UTF-16 unit is one byte.
  for (let i = 0; i < value.value.length; i++) hex += value.value.charCodeAt(i).toString(16).padStart(2, '0');
  return hex.toUpperCase();
}
