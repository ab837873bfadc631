/**
 * Reads a data type and parameter lists as a client sent them (the schema checked only the outline)
 * with the rules of server/contract/rules/thing-model.ts, gives back the normalized value to store,
 * and reports every broken rule with the field path under `path`. Pure: single items and TSL imports
 * run exactly the same checks.
 */
import { Compile } from 'typebox/compile';
import {
  BOOL_NAME_MAX,
  ThingModelParamInputSchema,
  type BoolSpecs,
  type DataType,
  type EnumItem,
  type NumberSpecs,
  type StructMember,
  type ThingModelDataTypeName,
  type ThingModelParam,
} from '../../contract/thing-model.ts';
import type { ErrorKey } from '../../contract/errors.ts';
import { numberOf } from '../../contract/numbers.ts';
import { isObject, textWithin, type Problem } from '../../contract/rules/problem.ts';
import {
  boolNameProblem,
  boolOpenProblem,
  duplicateParamProblem,
  enumDescriptionProblem,
  enumItemOf,
  enumItemsProblem,
  enumValueProblem,
  numberProblem,
  paramsProblem,
  rangeProblem,
  specNumber,
  stepRangeProblem,
  structMembersProblem,
  textLengthProblem,
  unitProblem,
} from '../../contract/rules/thing-model.ts';
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
  /** A rule's answer for `field`, if it found a problem. */
  check(field: string, problem: Problem | null): void {
    if (problem) this.list.push({ field, ...problem });
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

function numberSpecs(raw: Record<string, unknown>, path: string, integer: boolean, found: Found): NumberSpecs | undefined {
  const before = found.size;
  found.check(join(path, 'min'), numberProblem(raw.min, integer, true));
  found.check(join(path, 'max'), numberProblem(raw.max, integer, true));
  found.check(join(path, 'step'), numberProblem(raw.step, integer, false));
  found.check(join(path, 'max'), rangeProblem(raw.min, raw.max, integer));
  found.check(join(path, 'step'), stepRangeProblem(raw.step, raw.min, raw.max, integer));
  const labels: { unit?: string; unitName?: string } = {};
  for (const name of ['unit', 'unitName'] as const) {
    const unit = unitProblem(raw[name]);
    found.check(join(path, name), unit);
    const value = raw[name];
    if (!unit && typeof value === 'string' && value.trim()) labels[name] = value.trim();
  }
  const min = specNumber(raw.min, integer);
  const max = specNumber(raw.max, integer);
  const step = specNumber(raw.step, integer);
  if (found.size > before || min === undefined || max === undefined) return undefined;
  return { min, max, ...(step !== undefined ? { step } : {}), ...labels };
}

function textSpecs(raw: Record<string, unknown>, path: string, found: Found): { length: number } | undefined {
  const length = textLengthProblem(raw.length);
  found.check(join(path, 'length'), length);
  return length ? undefined : { length: numberOf(raw.length)! };
}

function boolSpecs(raw: Record<string, unknown>, path: string, found: Found): BoolSpecs | undefined {
  const close = boolNameProblem(raw['0']);
  const open = boolOpenProblem(raw['1'], raw['0']);
  found.check(join(path, '0'), close);
  found.check(join(path, '1'), open);
  if (close || open) return undefined;
  return { '0': textWithin(raw['0'], BOOL_NAME_MAX)!, '1': textWithin(raw['1'], BOOL_NAME_MAX)! };
}

function enumSpecs(raw: unknown, path: string, found: Found): EnumItem[] | undefined {
  const items = enumItemsProblem(raw);
  if (items || !Array.isArray(raw)) {
    found.check(path, items);
    return undefined;
  }
  const before = found.size;
  const accepted: EnumItem[] = [];
  raw.forEach((entry, i) => {
    const at = join(path, i);
    const item = isObject(entry) ? entry : {};
    found.check(join(at, 'value'), enumValueProblem(item.value, i, raw));
    found.check(join(at, 'description'), enumDescriptionProblem(item.description, i, raw));
    const { value, description } = enumItemOf(entry);
    if (value !== undefined && description !== undefined) accepted.push({ value, description });
  });
  return found.size > before ? undefined : accepted;
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
      const count = structMembersProblem(specs);
      if (count || !Array.isArray(specs)) {
        found.check(specsPath, count);
        return undefined;
      }
      const members = parseParamList(specs, specsPath, found, false) as StructMember[] | undefined;
      return members && { type, specs: members };
    }
    case 'ENUM': {
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
  // Identifiers of the entries whose outline passed, in place: the others are not compared.
  const identifiers: (string | undefined)[] = [];
  const params: ThingModelParam[] = [];
  raw.forEach((entry, i) => {
    const at = join(path, i);
    if (!paramOutline.Check(entry)) {
      found.addSchema(at, paramOutline.Errors(entry));
      identifiers.push(undefined);
      return;
    }
    identifiers.push(entry.identifier);
    found.check(join(at, 'identifier'), duplicateParamProblem(entry.identifier, i, identifiers));
    const dataType = parseDataType(entry.dataType, join(at, 'dataType'), found, structAllowed);
    if (dataType) params.push({ identifier: entry.identifier, functionName: entry.functionName, dataType });
  });
  return found.size > before ? undefined : params;
}

/** `inputData` or `outputData`: absent means none; at most PARAMS_MAX; a parameter may be a STRUCT. */
export function parseParams(raw: unknown, path: string, found: Found): ThingModelParam[] | undefined {
  const count = paramsProblem(raw);
  if (count) {
    found.check(path, count);
    return undefined;
  }
  if (!Array.isArray(raw)) return [];
  return parseParamList(raw, path, found, true);
}
