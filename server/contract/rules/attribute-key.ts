/**
 * The key of a telemetry value or attribute: what devices may report and users may set as a shared
 * attribute (the device receives the key as it is). The device payload parser and the console's
 * shared-attribute form both ask this rule.
 */
import { DEVICE_KEYS_RESERVED } from '../device-api.ts';
import { TELEMETRY_KEY_MAX } from '../telemetry.ts';
import { problem, type Problem } from './problem.ts';

export function attributeKeyProblem(key: string): Problem | null {
  if (key.length === 0 || key.length > TELEMETRY_KEY_MAX) return problem('error.transport.badKey', { max: TELEMETRY_KEY_MAX });
  if (DEVICE_KEYS_RESERVED.includes(key)) return problem('error.transport.reservedKey', { key });
  return null;
}
