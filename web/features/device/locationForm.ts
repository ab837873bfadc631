/**
 * The location modal's values: coordinates typed as text, read into numbers for the contract's
 * location rules (server/contract/rules/device.ts) and for the call's body, and placed on the small
 * static map.
 */
import {
  LATITUDE_MAX,
  LATITUDE_MIN,
  LONGITUDE_MAX,
  LONGITUDE_MIN,
  type DeviceLocationBody,
} from '../../../server/contract/device.ts';
import { locationProblems, type LocationField } from '../../../server/contract/rules/device.ts';
import type { Problem } from '../../../server/contract/rules/problem.ts';

export interface LocationInput {
  longitude: unknown;
  latitude: unknown;
  address?: unknown;
}

const decimal = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function text(value: unknown): string {
  return value === null || value === undefined ? '' : String(value).trim();
}

/** A coordinate typed as text: null when empty, NaN when it is not a plain decimal number. */
export function parseCoordinate(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  const v = text(value);
  if (!v) return null;
  return decimal.test(v) ? Number(v) : Number.NaN;
}

/** The problems of the values as `locationBody` would send them. */
export function locationFormProblems(input: LocationInput): Partial<Record<LocationField, Problem>> {
  return locationProblems({ longitude: parseCoordinate(input.longitude), latitude: parseCoordinate(input.latitude), address: text(input.address) });
}

/** The location call's body; call only when `locationFormProblems` is empty. Empty clears the position. */
export function locationBody(input: LocationInput): DeviceLocationBody {
  const address = text(input.address);
  return {
    longitude: parseCoordinate(input.longitude),
    latitude: parseCoordinate(input.latitude),
    address: address || null,
  };
}

/** Where a point sits on an equirectangular map of `width` × `height` (for the small static map). */
export function mapPoint(longitude: number, latitude: number, width: number, height: number): { x: number; y: number } {
  return {
    x: ((longitude - LONGITUDE_MIN) / (LONGITUDE_MAX - LONGITUDE_MIN)) * width,
    y: ((LATITUDE_MAX - latitude) / (LATITUDE_MAX - LATITUDE_MIN)) * height,
  };
}
