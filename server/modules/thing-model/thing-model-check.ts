/**
 * Pure checks of device data against a published model (`ThingModelService.getPublished`):
 * telemetry values against their property, service calls against their input parameters, reported
 * events against their output parameters. A failure says why in `reason` (English, what telemetry
 * stores as a value's flag and commands show), `code` for programs, and `path` for the value at fault.
 *
 * Values are JSON as devices send it: INT an integer number within the range, DOUBLE a finite
 * number within the range, both aligned to the step from the minimum when one is set; TEXT a
 * string no longer than the length (in characters); BOOL true, false, 0 or 1; ENUM one of the
 * values; STRUCT an object with exactly its members; parameters an object with exactly its
 * parameters (none missing, none unknown).
 */
import { isObject } from '../../contract/rules/problem.ts';
import { outOfRangeWords, propertyValueOf } from '../../contract/rules/property-value.ts';
import type { DataType, ThingModelParam } from '../../contract/thing-model.ts';
import type { PublishedEvent, PublishedModel, PublishedProperty, PublishedService } from './published-model.ts';

export type CheckCode =
  | 'unknownIdentifier'
  | 'wrongType'
  | 'outOfRange'
  | 'stepMismatch'
  | 'notEnumMember'
  | 'textTooLong'
  | 'missingMember'
  | 'unknownMember'
  | 'readOnly';

export interface CheckFailure {
  ok: false;
  code: CheckCode;
  /** The property, parameter or member at fault, e.g. `position.x` or `threshold`. */
  path: string;
  reason: string;
}
export type CheckResult = { ok: true } | CheckFailure;

export type ServiceCheck = { ok: true; service: PublishedService } | (CheckFailure & { service?: PublishedService });
export type EventMatch = { ok: true; event: PublishedEvent } | (CheckFailure & { event?: PublishedEvent });

const OK: CheckResult = { ok: true };
/** Tolerance of the DOUBLE step check: binary fractions make 0.1 + 0.2 miss 0.3 by a hair. */
const STEP_EPSILON = 1e-9;

function fail(code: CheckCode, path: string, reason: string): CheckFailure {
  return { ok: false, code, path, reason };
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function checkNumber(dataType: Extract<DataType, { type: 'INT' | 'DOUBLE' }>, value: unknown, path: string): CheckResult {
  const { min, max, step } = dataType.specs;
  const integer = dataType.type === 'INT';
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    return fail('wrongType', path, `${path}: ${shown(value)} is not ${integer ? 'an integer' : 'a number'}`);
  }
  if (value < min) return fail('outOfRange', path, `${path}: ${value}${outOfRangeWords.below}${min}`);
  if (value > max) return fail('outOfRange', path, `${path}: ${value}${outOfRangeWords.above}${max}`);
  if (step !== undefined) {
    const steps = (value - min) / step;
    const aligned = integer ? (value - min) % step === 0 : Math.abs(steps - Math.round(steps)) <= STEP_EPSILON * Math.max(1, Math.abs(steps));
    if (!aligned) return fail('stepMismatch', path, `${path}: ${value} is not ${min} plus a multiple of the step ${step}`);
  }
  return OK;
}

function checkMembers(members: readonly ThingModelParam[], value: unknown, path: string, what: 'member' | 'parameter'): CheckResult {
  const at = (name: string): string => (path ? `${path}.${name}` : name);
  if (!isObject(value)) return fail('wrongType', path, `${path || 'parameters'}: ${shown(value)} is not an object`);
  const known = new Set<string>();
  for (const member of members) {
    known.add(member.identifier);
    if (!(member.identifier in value)) return fail('missingMember', at(member.identifier), `${at(member.identifier)}: the ${what} is missing`);
    const result = checkValue(member.dataType, value[member.identifier], at(member.identifier));
    if (!result.ok) return result;
  }
  const unknown = Object.keys(value).find((key) => !known.has(key));
  if (unknown !== undefined) return fail('unknownMember', at(unknown), `${at(unknown)}: no such ${what}`);
  return OK;
}

/** Whether `value` fits `dataType`; `path` names it in the failure. */
export function checkValue(dataType: DataType, value: unknown, path: string): CheckResult {
  switch (dataType.type) {
    case 'INT':
    case 'DOUBLE':
      return checkNumber(dataType, value, path);
    case 'TEXT': {
      if (typeof value !== 'string') return fail('wrongType', path, `${path}: ${shown(value)} is not text`);
      // oxlint-disable-next-line typescript/no-misused-spread -- the limit counts code points, not grapheme clusters
      const length = [...value].length;
      const max = dataType.specs.length;
      return length > max ? fail('textTooLong', path, `${path}: ${length} characters, more than ${max}`) : OK;
    }
    case 'BOOL':
      return value === true || value === false || value === 0 || value === 1
        ? OK
        : fail('wrongType', path, `${path}: ${shown(value)} is not true, false, 0 or 1`);
    case 'ENUM': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return fail('wrongType', path, `${path}: ${shown(value)} is not an integer`);
      return dataType.specs.some((item) => item.value === value)
        ? OK
        : fail('notEnumMember', path, `${path}: ${value} is not one of ${dataType.specs.map((item) => item.value).join(', ')}`);
    }
    case 'STRUCT':
      return checkMembers(dataType.specs, value, path, 'member');
  }
}

interface ModelIndex {
  properties: Map<string, PublishedProperty>;
  services: Map<string, PublishedService>;
  events: Map<string, PublishedEvent>;
}

// A published model is immutable and handed out as one object until the next publication, so its
// look-up maps are built once per model.
const indexes = new WeakMap<PublishedModel, ModelIndex>();

function indexOf(model: PublishedModel): ModelIndex {
  let index = indexes.get(model);
  if (!index) {
    index = {
      properties: new Map(model.properties.map((p) => [p.identifier, p])),
      services: new Map(model.services.map((s) => [s.identifier, s])),
      events: new Map(model.events.map((e) => [e.identifier, e])),
    };
    indexes.set(model, index);
  }
  return index;
}

/** A reported telemetry or attribute value against property `key`. */
export function checkPropertyValue(model: PublishedModel, key: string, value: unknown): CheckResult {
  const property = indexOf(model).properties.get(key);
  if (!property) return fail('unknownIdentifier', key, `${key}: no such property in the published thing model`);
  return checkValue(property.dataType, value, key);
}

/** A reported value in its property's type where server/contract/rules/property-value.ts converts it; else as sent. */
export function reportedValue(model: PublishedModel, key: string, value: unknown): unknown {
  const property = indexOf(model).properties.get(key);
  return property ? propertyValueOf(property.dataType.type, value) : value;
}

/** A value a user sets on the device (attribute command): as `checkPropertyValue`, and writable. */
export function checkPropertyWrite(model: PublishedModel, key: string, value: unknown): CheckResult {
  const property = indexOf(model).properties.get(key);
  if (property?.accessMode === 'r') return fail('readOnly', key, `${key}: the property is read-only`);
  return checkPropertyValue(model, key, value);
}

/** A service call's input parameters (an object of parameter identifier → value). */
export function checkServiceInput(model: PublishedModel, identifier: string, params: unknown): ServiceCheck {
  const service = indexOf(model).services.get(identifier);
  if (!service) return fail('unknownIdentifier', identifier, `${identifier}: no such service in the published thing model`);
  // A service without inputs may be called without a parameter object.
  const result = checkMembers(service.inputData, service.inputData.length === 0 && params == null ? {} : params, '', 'parameter');
  return result.ok ? { ok: true, service } : { ...result, service };
}

/** A reported event against the model's event `identifier` and its output parameters. */
export function matchEvent(model: PublishedModel, identifier: string, params: unknown): EventMatch {
  const event = indexOf(model).events.get(identifier);
  if (!event) return fail('unknownIdentifier', identifier, `${identifier}: no such event in the published thing model`);
  const result = checkMembers(event.outputData, event.outputData.length === 0 && params == null ? {} : params, '', 'parameter');
  return result.ok ? { ok: true, event } : { ...result, event };
}
