/**
 * Inline checks of the device forms with the contract's patterns and limits, so the console
 * refuses exactly what the server refuses. Each check answers a key of the `errors` namespace
 * (the texts the server uses for the same refusal) or null.
 */
import {
  LABEL_MAX,
  LATITUDE_MAX,
  LATITUDE_MIN,
  LONGITUDE_MAX,
  LONGITUDE_MIN,
  type DeviceLocationBody,
} from '../../../server/contract/device.ts';
import { BATCH_MAX, BATCH_MIN } from '../../../server/contract/device-import.ts';
import { ADDRESS_CODE_PATTERN, ALIAS_MAX, DESCRIPTION_MAX, NAME_MAX, NAME_PATTERN } from '../../../server/contract/validation.ts';

export type FieldErrorKey =
  | 'field.required'
  | 'field.name'
  | 'field.alias'
  | 'field.label'
  | 'field.addressCode'
  | 'field.longitude'
  | 'field.latitude'
  | 'field.locationIncomplete'
  | 'field.description'
  | 'field.address'
  | 'field.batchCount';

const namePattern = new RegExp(NAME_PATTERN);
const addressCodePattern = new RegExp(ADDRESS_CODE_PATTERN);
const decimal = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function text(value: unknown): string {
  return value === null || value === undefined ? '' : String(value).trim();
}

export function nameProblem(value: unknown): FieldErrorKey | null {
  const v = text(value);
  if (!v) return 'field.required';
  return v.length <= NAME_MAX && namePattern.test(v) ? null : 'field.name';
}

export function aliasProblem(value: unknown): FieldErrorKey | null {
  return text(value).length > ALIAS_MAX ? 'field.alias' : null;
}

export function labelProblem(value: unknown): FieldErrorKey | null {
  return text(value).length > LABEL_MAX ? 'field.label' : null;
}

export function descriptionProblem(value: unknown): FieldErrorKey | null {
  return text(value).length > DESCRIPTION_MAX ? 'field.description' : null;
}

export function addressProblem(value: unknown): FieldErrorKey | null {
  return text(value).length > DESCRIPTION_MAX ? 'field.address' : null;
}

/** Optional: empty is fine, otherwise two hex digits 00–FF. */
export function addressCodeProblem(value: unknown): FieldErrorKey | null {
  const v = text(value);
  return !v || addressCodePattern.test(v) ? null : 'field.addressCode';
}

/** Address code as stored: trimmed, upper case, null when empty. */
export function normalizeAddressCode(value: unknown): string | null {
  const v = text(value);
  return v ? v.toUpperCase() : null;
}

/** A coordinate typed as text: null when empty, NaN when it is not a plain decimal number. */
export function parseCoordinate(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  const v = text(value);
  if (!v) return null;
  return decimal.test(v) ? Number(v) : Number.NaN;
}

export interface LocationInput {
  longitude: unknown;
  latitude: unknown;
  address?: unknown;
}

/** Per-field problems of the location modal: each coordinate in range, both or neither. */
export function locationProblems(input: LocationInput): Partial<Record<'longitude' | 'latitude' | 'address', FieldErrorKey>> {
  const lng = parseCoordinate(input.longitude);
  const lat = parseCoordinate(input.latitude);
  const out: Partial<Record<'longitude' | 'latitude' | 'address', FieldErrorKey>> = {};
  if (lng !== null && !(lng >= LONGITUDE_MIN && lng <= LONGITUDE_MAX)) out.longitude = 'field.longitude';
  if (lat !== null && !(lat >= LATITUDE_MIN && lat <= LATITUDE_MAX)) out.latitude = 'field.latitude';
  if (lng === null && lat !== null && !out.latitude) out.longitude = 'field.locationIncomplete';
  if (lat === null && lng !== null && !out.longitude) out.latitude = 'field.locationIncomplete';
  const address = addressProblem(input.address);
  if (address) out.address = address;
  return out;
}

/** The location call's body; call only when `locationProblems` is empty. Empty clears the position. */
export function locationBody(input: LocationInput): DeviceLocationBody {
  const address = text(input.address);
  return {
    longitude: parseCoordinate(input.longitude),
    latitude: parseCoordinate(input.latitude),
    address: address || null,
  };
}

/** Batch generation count: a whole number from 1 to 1000. */
export function batchCountProblem(value: unknown): FieldErrorKey | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= BATCH_MIN && value <= BATCH_MAX ? null : 'field.batchCount';
}

/** Where a point sits on an equirectangular map of `width` × `height` (for the small static map). */
export function mapPoint(longitude: number, latitude: number, width: number, height: number): { x: number; y: number } {
  return {
    x: ((longitude - LONGITUDE_MIN) / (LONGITUDE_MAX - LONGITUDE_MIN)) * width,
    y: ((LATITUDE_MAX - latitude) / (LATITUDE_MAX - LATITUDE_MIN)) * height,
  };
}

/** A check as an Arco form rule; `text` turns the `errors` key into the message shown. */
export function ruleOf(
  check: (value: unknown) => FieldErrorKey | null,
  text: (key: FieldErrorKey) => string,
): { validator: (value: unknown, callback: (error?: string) => void) => void } {
  return {
    validator: (value, callback) => {
      const key = check(value);
      callback(key ? text(key) : undefined);
    },
  };
}
