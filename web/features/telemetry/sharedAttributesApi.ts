/**
 * A device's attributes over ThingsBoard's REST paths (server/contract/shared-attributes.ts): the
 * shared ones the attribute tab edits, and the value text its form reads.
 */
import { sharedAttributeRoutes } from '../../../server/contract/shared-attributes.ts';
import type { AttributeValue } from '../../../server/contract/telemetry.ts';
import { api } from '../../lib/api-client.ts';

export function listSharedAttributes(deviceId: string): Promise<AttributeValue[]> {
  return api(sharedAttributeRoutes.values, { params: { id: deviceId, scope: 'SHARED_SCOPE' } });
}

export function listClientAttributes(deviceId: string): Promise<AttributeValue[]> {
  return api(sharedAttributeRoutes.values, { params: { id: deviceId, scope: 'CLIENT_SCOPE' } });
}

/** Silent: the form shows a refusal beside its fields. */
export async function saveSharedAttribute(deviceId: string, key: string, value: unknown): Promise<void> {
  await api(sharedAttributeRoutes.save, { params: { id: deviceId, scope: 'SHARED_SCOPE' }, body: { [key]: value }, silent: true });
}

export async function deleteSharedAttribute(deviceId: string, key: string): Promise<void> {
  await api(sharedAttributeRoutes.delete, { params: { id: deviceId, scope: 'SHARED_SCOPE' }, query: { keys: key } });
}

/** The form's value text: JSON when it reads as JSON (`21.5`, `true`, `{"a":1}`), else the text itself. */
export function parseAttributeValue(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value === null ? text : value;
  } catch {
    return text;
  }
}

/**
 * A stored value as the form's text: a string as it is unless it would read back as something else
 * (`"21.5"`), then quoted; anything else as JSON.
 */
export function attributeValueText(value: unknown): string {
  return typeof value === 'string' && parseAttributeValue(value) === value ? value : JSON.stringify(value);
}
