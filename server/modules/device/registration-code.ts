/**
 * The registration code a device of a TCP product gets when none is given: random, and apart from
 * its access token, so that bytes read off the TCP port (which is plain TCP) or guessed there are
 * no credential on MQTT or HTTP, and changing one never changes the other.
 */
import type { Registration } from '../../contract/tcp-device.ts';
import { randomText, UPPER_ALPHANUMERIC } from '../../lib/random-text.ts';
import { registrationHex } from '../../contract/rules/tcp-registration.ts';

/** 36^20 ≈ 10^31 codes; upper case and digits, so it can be typed into a DTU's setup tool without doubt. */
export const REGISTRATION_CODE_LENGTH = 20;

/** A new code no device registers with (`owner` looks a code's bytes up, as upper-case hex). */
export function newRegistrationCode(owner: (hex: string) => string | undefined): Registration {
  for (;;) {
    const code: Registration = { format: 'ASCII', value: randomText(UPPER_ALPHANUMERIC, REGISTRATION_CODE_LENGTH) };
    if (owner(registrationHex(code)) === undefined) return code;
  }
}
