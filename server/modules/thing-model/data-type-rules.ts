/**
 * The data type and parameter rules of server/contract/thing-model.ts: specs by data type, STRUCT
 * members, service and event parameters. Each reads what a client sent (the schema checked only the
 * outline), gives back the normalized value to store, and reports every broken rule with the field
 * path under `path`. Pure: single items and TSL imports run exactly the same checks.
 */
import { Compile } from 'typebox/compile';
import {
  BOOL_NAME_MAX,
  ENUM_DESCRIPTION_MAX,
  ENUM_DESCRIPTION_PATTERN,
  ENUM_ITEMS_MAX,
  PARAMS_MAX,
  TEXT_LENGTH_MAX,
  ThingModelParamInputSchema,
  UNIT_MAX,
  type BoolSpecs,
  type DataType,
  type EnumItem,
  type NumberSpecs,
  type StructMember,
  type ThingModelDataTypeName,
  type ThingModelParam,
} from '../../contract/thing-model.ts';
import type { ErrorKey } from '../../contract/errors.ts';
import { isInt32, numberOf } from '../../contract/numbers.ts';
import { schemaViolations, type FieldKeys, type Violation } from '../../lib/field-errors.ts';

/** Schema failures of thing-model fields, by field name (bodies, parameters and TSL entries alike). */
export const thingModelFieldKeys: FieldKeys = {
  functionName: 'error.thingModel.functionName',
  identifier: 'error.thingModel.identifier',
  functionJson: 'error.thingModel.functionJson',
  inputData: 'error.thingModel.params',
  outputData: 'error.thingModel.params',
  extensionDesc: 'error.thingModel.modbus.descriptor',
  registerAddress: 'error.thingModel.modbus.registerAddress',
  scaleFactor: 'error.thingModel.modbus.scaleFactor',
  bitPosition: 'error.thingModel.modbus.bitPosition',
  bitMask: 'error.thingModel.modbus.bitMask',
  registerCount: 'error.thingModel.modbus.registerCount',
  valueMapping: 'error.thingModel.modbus.valueMapping',
  properties: 'error.thingModel.tsl.group',
  services: 'error.thingModel.tsl.group',
  events: 'error.thingModel.tsl.group',
};

/** Collects violations under a field path. */
export class Found {
  readonly list: Violation[] = [];
  add(field: string, key: ErrorKey, params?: Record<string, string | number>): void {
    this.list.push(params ? { field, key, params } : { field, key });
  }
  /** Schema failures of `value` at `path`. */
  addSchema(path: string, failures: Parameters<typeof schemaViolations>[0]): void {
    for (const v of schemaViolations(failures, thingModelFieldKeys)) this.list.push({ ...v, field: join(path, v.field) });
  }
  get size(): number {
    return this.list.length;
  }
}

export function join(path: string, field: string | number): string {
  const tail = String(field);
  return path && tail ? `${path}.${tail}` : path || tail;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Absent: left out, null, or empty text (forms send empty inputs as ''). */
function absent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}


/** Trimmed text of 1..max characters, else undefined. */
function textOf(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text.length >= 1 && text.length <= max ? text : undefined;
}

function numberSpecs(raw: Record<string, unknown>, path: string, integer: boolean, found: Found): NumberSpecs | undefined {
  const before = found.size;
  const badNumber: ErrorKey = integer ? 'error.thingModel.number.int32' : 'error.thingModel.number.invalid';
  const read = (name: string, required: boolean): number | undefined => {
    const value = raw[name];
    if (absent(value)) {
      if (required) found.add(join(path, name), 'error.field.required');
      return undefined;
    }
    const n = numberOf(value);
    if (n === undefined || (integer && !isInt32(n))) {
      found.add(join(path, name), badNumber);
      return undefined;
    }
    return n;
  };
  const min = read('min', true);
  const max = read('max', true);
  const step = read('step', false);
  const ranged = min !== undefined && max !== undefined;
  if (ranged && max < min) found.add(join(path, 'max'), 'error.thingModel.number.maxBelowMin');
  if (step !== undefined) {
    if (step <= 0) found.add(join(path, 'step'), 'error.thingModel.number.stepPositive');
    else if (ranged && max >= min && step > max - min) found.add(join(path, 'step'), 'error.thingModel.number.stepExceedsRange');
  }
  const labels: { unit?: string; unitName?: string } = {};
  for (const name of ['unit', 'unitName'] as const) {
    const value = raw[name];
    if (absent(value)) continue;
    if (typeof value !== 'string' || value.trim().length > UNIT_MAX) found.add(join(path, name), 'error.thingModel.unit');
    else if (value.trim()) labels[name] = value.trim();
  }
  if (found.size > before || min === undefined || max === undefined) return undefined;
  return { min, max, ...(step !== undefined ? { step } : {}), ...labels };
}

function textSpecs(raw: Record<string, unknown>, path: string, found: Found): { length: number } | undefined {
  if (absent(raw.length)) {
    found.add(join(path, 'length'), 'error.field.required');
    return undefined;
  }
  const length = numberOf(raw.length);
  if (length === undefined || !Number.isInteger(length) || length < 1 || length > TEXT_LENGTH_MAX) {
    found.add(join(path, 'length'), 'error.thingModel.text.length');
    return undefined;
  }
  return { length };
}

function boolSpecs(raw: Record<string, unknown>, path: string, found: Found): BoolSpecs | undefined {
  const close = textOf(raw['0'], BOOL_NAME_MAX);
  const open = textOf(raw['1'], BOOL_NAME_MAX);
  if (close === undefined) found.add(join(path, '0'), 'error.thingModel.bool.name');
  if (open === undefined) found.add(join(path, '1'), 'error.thingModel.bool.name');
  if (close === undefined || open === undefined) return undefined;
  if (close === open) {
    found.add(join(path, '1'), 'error.thingModel.bool.namesEqual');
    return undefined;
  }
  return { '0': close, '1': open };
}

const descriptionStart = new RegExp(ENUM_DESCRIPTION_PATTERN);

function enumSpecs(raw: unknown[], path: string, found: Found): EnumItem[] | undefined {
  if (raw.length < 1 || raw.length > ENUM_ITEMS_MAX) {
    found.add(path, 'error.thingModel.enum.items');
    return undefined;
  }
  const before = found.size;
  const values = new Set<number>();
  const descriptions = new Set<string>();
  const items: EnumItem[] = [];
  raw.forEach((entry, i) => {
    const at = join(path, i);
    const item = isObject(entry) ? entry : {};
    const value = numberOf(item.value);
    const description = textOf(item.description, ENUM_DESCRIPTION_MAX);
    if (value === undefined || !isInt32(value)) found.add(join(at, 'value'), 'error.thingModel.enum.value');
    else if (values.has(value)) found.add(join(at, 'value'), 'error.thingModel.enum.valueDuplicate');
    if (description === undefined || !descriptionStart.test(description)) found.add(join(at, 'description'), 'error.thingModel.enum.description');
    else if (descriptions.has(description)) found.add(join(at, 'description'), 'error.thingModel.enum.descriptionDuplicate');
    if (value !== undefined && description !== undefined) {
      values.add(value);
      descriptions.add(description);
      items.push({ value, description });
    }
  });
  return found.size > before ? undefined : items;
}

/**
 * `{ type, specs }` at `path` (its `type` already a data type name). `structAllowed` is false for
 * STRUCT members: a struct cannot hold a struct.
 */
export function parseDataType(
  raw: { type: ThingModelDataTypeName; specs?: unknown },
  path: string,
  found: Found,
  structAllowed: boolean,
): DataType | undefined {
  const specsPath = join(path, 'specs');
  const { type, specs } = raw;
  if (specs === undefined || specs === null) {
    found.add(specsPath, 'error.field.required');
    return undefined;
  }
  switch (type) {
    case 'STRUCT': {
      if (!structAllowed) {
        found.add(join(path, 'type'), 'error.thingModel.struct.nested');
        return undefined;
      }
      if (!Array.isArray(specs) || specs.length < 1 || specs.length > PARAMS_MAX) {
        found.add(specsPath, 'error.thingModel.struct.members');
        return undefined;
      }
      const members = parseParamList(specs, specsPath, found, false) as StructMember[] | undefined;
      return members && { type, specs: members };
    }
    case 'ENUM': {
      if (!Array.isArray(specs)) {
        found.add(specsPath, 'error.thingModel.enum.items');
        return undefined;
      }
      const items = enumSpecs(specs, specsPath, found);
      return items && { type, specs: items };
    }
    default: {
      if (!isObject(specs)) {
        found.add(specsPath, 'error.thingModel.specs');
        return undefined;
      }
      if (type === 'INT' || type === 'DOUBLE') {
        const numbers = numberSpecs(specs, specsPath, type === 'INT', found);
        return numbers && { type, specs: numbers };
      }
      if (type === 'TEXT') {
        const text = textSpecs(specs, specsPath, found);
        return text && { type, specs: text };
      }
      const names = boolSpecs(specs, specsPath, found);
      return names && { type, specs: names };
    }
  }
}

const paramOutline = Compile(ThingModelParamInputSchema);

/** Parameters (or STRUCT members when `structAllowed` is false) with identifiers unique in the list. */
function parseParamList(raw: unknown[], path: string, found: Found, structAllowed: boolean): ThingModelParam[] | undefined {
  const before = found.size;
  const seen = new Set<string>();
  const params: ThingModelParam[] = [];
  raw.forEach((entry, i) => {
    const at = join(path, i);
    if (!paramOutline.Check(entry)) {
      found.addSchema(at, paramOutline.Errors(entry));
      return;
    }
    if (seen.has(entry.identifier)) found.add(join(at, 'identifier'), 'error.thingModel.paramDuplicate');
    seen.add(entry.identifier);
    const dataType = parseDataType(entry.dataType, join(at, 'dataType'), found, structAllowed);
    if (dataType) params.push({ identifier: entry.identifier, functionName: entry.functionName, dataType });
  });
  return found.size > before ? undefined : params;
}

/** `inputData` or `outputData`: absent means none; at most PARAMS_MAX; a parameter may be a STRUCT. */
export function parseParams(raw: unknown, path: string, found: Found): ThingModelParam[] | undefined {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > PARAMS_MAX) {
    found.add(path, 'error.thingModel.params');
    return undefined;
  }
  return parseParamList(raw, path, found, true);
}
