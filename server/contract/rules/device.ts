/**
 * Device field rules (server/contract/device.ts lists them with their keys). The server checks the
 * fields with its schema and applies `locationViolations` and `normalizeAddressCode` itself
 * (server/modules/device/device-rules.ts); the device forms check each field with these functions.
 */
import { LABEL_MAX, LATITUDE_MAX, LATITUDE_MIN, LONGITUDE_MAX, LONGITUDE_MIN } from '../device.ts';
import { BATCH_MAX, BATCH_MIN } from '../device-import.ts';
import type { ErrorKey } from '../errors.ts';
import { ADDRESS_CODE_PATTERN, ALIAS_MAX, DESCRIPTION_MAX, REPORTED_NAME_MAX, REPORTED_NAME_PATTERN } from '../validation.ts';
import { maxLengthProblem, nameProblem, patternProblem, requiredProblem, visibleTextProblem } from './field.ts';
import { problem, type Problem } from './problem.ts';

export const aliasProblem = visibleTextProblem(ALIAS_MAX, 'error.field.alias');
export const labelProblem = visibleTextProblem(LABEL_MAX, 'error.field.label');
export const descriptionProblem = maxLengthProblem(DESCRIPTION_MAX, 'error.field.description');
export const addressProblem = maxLengthProblem(DESCRIPTION_MAX, 'error.field.address');

const reportedNamePattern = patternProblem(REPORTED_NAME_PATTERN, 'error.field.name');
const reportedNameLength = maxLengthProblem(REPORTED_NAME_MAX, 'error.field.name');

/**
 * A name a device reports (a gateway's sub-device, a provisioned device): any printable text up to
 * REPORTED_NAME_MAX, not only white space. The typed rule (`nameProblem`) is for people.
 */
export function reportedNameProblem(value: unknown): Problem | null {
  if (typeof value !== 'string') return problem('error.field.name');
  return requiredProblem(value) ?? reportedNamePattern(value) ?? reportedNameLength(value);
}

/**
 * The name of an edited device: its own name sent back unchanged passes whatever its spelling (a
 * reported name keeps it); a new name is one a person typed and follows `nameProblem`.
 */
export function editedNameProblem(value: unknown, current: string | undefined): Problem | null {
  return current !== undefined && value === current ? null : nameProblem(value);
}

/** Two hex digits 00–FF in either case; empty passes (no address code). */
export const addressCodeProblem = patternProblem(ADDRESS_CODE_PATTERN, 'error.field.addressCode');

/** An address code as stored: trimmed, upper case, null when empty. */
export function normalizeAddressCode(value: string | null | undefined): string | null {
  const code = value?.trim() ?? '';
  return code ? code.toUpperCase() : null;
}

export type LocationField = 'longitude' | 'latitude' | 'address';

/** Both coordinates or neither: the missing one is the field refused. */
export function locationViolations(longitude: number | null, latitude: number | null): { field: LocationField; key: ErrorKey }[] {
  if ((longitude === null) === (latitude === null)) return [];
  return [{ field: longitude === null ? 'longitude' : 'latitude', key: 'error.field.locationIncomplete' }];
}

/**
 * Every problem of a position: each coordinate in range (NaN is an unreadable one), then both or
 * neither, and the address length. The both-or-neither rule speaks only when both coordinates are
 * in range, as the server applies it only after its schema accepted them.
 */
export function locationProblems(input: { longitude: number | null; latitude: number | null; address?: unknown }): Partial<
  Record<LocationField, Problem>
> {
  const { longitude, latitude } = input;
  const out: Partial<Record<LocationField, Problem>> = {};
  if (longitude !== null && !(longitude >= LONGITUDE_MIN && longitude <= LONGITUDE_MAX)) out.longitude = problem('error.field.longitude');
  if (latitude !== null && !(latitude >= LATITUDE_MIN && latitude <= LATITUDE_MAX)) out.latitude = problem('error.field.latitude');
  if (!out.longitude && !out.latitude) for (const v of locationViolations(longitude, latitude)) out[v.field] = problem(v.key);
  const address = addressProblem(input.address);
  if (address) out.address = address;
  return out;
}

/** Batch generation count: a whole number from BATCH_MIN to BATCH_MAX. */
export function batchCountProblem(value: unknown): Problem | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= BATCH_MIN && value <= BATCH_MAX ? null : problem('error.field.batchCount');
}
