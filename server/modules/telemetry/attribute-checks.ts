/**
 * Client attributes a device reports (MQTT `v1/devices/me/attributes`, the gateway's attributes,
 * HTTP `…/attributes`) against the product's published thing model. An attribute whose key is a
 * model property is checked as telemetry is (type, range, step, length, enum) and stored with the
 * reason as its flag when it does not fit, never dropped. Any other key is kept without a flag:
 * devices report attributes (firmware version, serial number) that no model describes, which is
 * not a fault, whereas an unknown telemetry key is (the thing-model module's device-data-checks.ts).
 */
import type { ParsedValue } from '../../lib/device-payload.ts';
import type { AttributeRow } from './telemetry-rows.ts';

/** The rows to store for reported attributes, in their property's type where it converts, each flagged when it does not fit the model. */
export function checkedAttributes(checks: { attribute(deviceProfileId: string, row: AttributeRow): void }, deviceProfileId: string, values: readonly ParsedValue[]): AttributeRow[] {
  return values.map((v) => {
    const row: AttributeRow = { key: v.key, value: v.value, lastUpdateTs: v.ts };
    checks.attribute(deviceProfileId, row);
    return row;
  });
}
