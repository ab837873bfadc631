/**
 * Client attributes a device reports (MQTT `v1/devices/me/attributes`, the gateway's attributes,
 * HTTP `…/attributes`) against the product's published thing model. An attribute whose key is a
 * model property is checked as telemetry is (type, range, step, length, enum) and stored with the
 * reason as its flag when it does not fit, never dropped. Any other key is kept without a flag:
 * devices report attributes (firmware version, serial number) that no model describes, which is
 * not a fault, whereas an unknown telemetry key is.
 */
import type { TelemetryValue } from '../../contract/telemetry.ts';
import type { PublishedModel } from '../thing-model/published-model.ts';
import { checkPropertyValue } from '../thing-model/thing-model-check.ts';
import type { ParsedValue } from './device-payload.ts';
import type { AttributeRow } from './telemetry-rows.ts';

/** Why attribute `key` does not fit its property of `model`; null when it does or names no property. */
export function attributeFlag(model: PublishedModel, key: string, value: TelemetryValue): string | null {
  const result = checkPropertyValue(model, key, value);
  return result.ok || result.code === 'unknownIdentifier' ? null : result.reason;
}

/** The rows to store for reported attributes, in their property's type where it converts, each flagged when it does not fit the model. */
export function checkedAttributes(checks: { attribute(deviceProfileId: string, row: AttributeRow): void }, deviceProfileId: string, values: readonly ParsedValue[]): AttributeRow[] {
  return values.map((v) => {
    const row: AttributeRow = { key: v.key, value: v.value, lastUpdateTs: v.ts };
    checks.attribute(deviceProfileId, row);
    return row;
  });
}
