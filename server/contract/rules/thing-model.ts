/**
 * Thing-model item rules (server/contract/thing-model.ts lists them with their keys): names and
 * identifiers, and the specs of each data type and the parameter lists. The server reads a data type
 * with these rules and stores what they accept (server/modules/thing-model/data-type-rules.ts); the
 * item drawer checks each field with them. Values are read as the server reads them: numbers or
 * numeric text, and empty text counts as left out.
 */
import { isInt32, numberOf } from '../numbers.ts';
import {
  BOOL_NAME_MAX,
  ENUM_DESCRIPTION_MAX,
  ENUM_DESCRIPTION_PATTERN,
  ENUM_ITEMS_MAX,
  FUNCTION_NAME_MAX,
  FUNCTION_NAME_PATTERN,
  IDENTIFIER_MAX,
  IDENTIFIER_PATTERN,
  PARAMS_MAX,
  TCP_SOURCE_IDENTIFIER,
  TEXT_LENGTH_MAX,
  UNIT_MAX,
} from '../thing-model.ts';
import { maxLengthProblem, patternProblem, requiredProblem } from './field.ts';
import { isAbsent, isObject, problem, repeatsEarlier, textWithin, type Problem } from './problem.ts';

// ---- Names and identifiers (the server's schema checks these; the rules say the same) ----------

const functionNamePattern = patternProblem(FUNCTION_NAME_PATTERN, 'error.thingModel.functionName');
const functionNameLength = maxLengthProblem(FUNCTION_NAME_MAX, 'error.thingModel.functionName');
const identifierPattern = patternProblem(IDENTIFIER_PATTERN, 'error.thingModel.identifier');
const identifierLength = maxLengthProblem(IDENTIFIER_MAX, 'error.thingModel.identifier');

/** An item's or a parameter's name. */
export function functionNameProblem(value: unknown): Problem | null {
  return requiredProblem(value) ?? functionNameLength(value) ?? functionNamePattern(value);
}

/** `tcp`: the product is TCP, where `source` is reserved for the device's raw frames. */
export function identifierProblem(value: unknown, tcp = false): Problem | null {
  return requiredProblem(value) ?? identifierLength(value) ?? identifierPattern(value) ?? reservedIdentifierProblem(value, tcp);
}

export function reservedIdentifierProblem(identifier: unknown, tcp: boolean): Problem | null {
  return tcp && identifier === TCP_SOURCE_IDENTIFIER ? problem('error.thingModel.identifierReserved') : null;
}

/** A parameter or STRUCT member whose identifier an earlier entry of its list already has. */
export function duplicateParamProblem(identifier: unknown, index: number, identifiers: readonly unknown[]): Problem | null {
  return repeatsEarlier(identifier, index, identifiers) ? problem('error.thingModel.paramDuplicate') : null;
}

// ---- INT and DOUBLE ---------------------------------------------------------------------------

/** A range bound (required) or the step (optional): an int32 integer for INT, a finite number for DOUBLE. */
export function numberProblem(value: unknown, integer: boolean, required: boolean): Problem | null {
  if (isAbsent(value)) return required ? problem('error.field.required') : null;
  const n = numberOf(value);
  if (n === undefined || (integer && !isInt32(n))) return problem(integer ? 'error.thingModel.number.int32' : 'error.thingModel.number.invalid');
  return null;
}

/** The number of a bound or step that `numberProblem` accepts; undefined when absent or refused. */
export function specNumber(value: unknown, integer: boolean): number | undefined {
  return isAbsent(value) || numberProblem(value, integer, false) ? undefined : numberOf(value);
}

/** max not below min, once both are accepted numbers. */
export function rangeProblem(min: unknown, max: unknown, integer: boolean): Problem | null {
  const lo = specNumber(min, integer);
  const hi = specNumber(max, integer);
  return lo !== undefined && hi !== undefined && hi < lo ? problem('error.thingModel.number.maxBelowMin') : null;
}

/** An accepted step: above 0, and at most max − min when the range is accepted. */
export function stepRangeProblem(step: unknown, min: unknown, max: unknown, integer: boolean): Problem | null {
  const s = specNumber(step, integer);
  if (s === undefined) return null;
  if (s <= 0) return problem('error.thingModel.number.stepPositive');
  const lo = specNumber(min, integer);
  const hi = specNumber(max, integer);
  return lo !== undefined && hi !== undefined && hi >= lo && s > hi - lo ? problem('error.thingModel.number.stepExceedsRange') : null;
}

/** The max field: its own number, then the range. */
export function maxProblem(max: unknown, min: unknown, integer: boolean): Problem | null {
  return numberProblem(max, integer, true) ?? rangeProblem(min, max, integer);
}

/** The step field: its own number, then against the range. */
export function stepProblem(step: unknown, min: unknown, max: unknown, integer: boolean): Problem | null {
  return numberProblem(step, integer, false) ?? stepRangeProblem(step, min, max, integer);
}

/** Unit symbol or unit name: optional text of at most UNIT_MAX characters once trimmed. */
export function unitProblem(value: unknown): Problem | null {
  if (isAbsent(value)) return null;
  return typeof value !== 'string' || value.trim().length > UNIT_MAX ? problem('error.thingModel.unit') : null;
}

// ---- TEXT and BOOL ------------------------------------------------------------------------------

/** TEXT length: a whole number from 1 to TEXT_LENGTH_MAX. */
export function textLengthProblem(value: unknown): Problem | null {
  if (isAbsent(value)) return problem('error.field.required');
  const n = numberOf(value);
  return n !== undefined && Number.isInteger(n) && n >= 1 && n <= TEXT_LENGTH_MAX ? null : problem('error.thingModel.text.length');
}

/** A BOOL value's name: text of 1 to BOOL_NAME_MAX characters once trimmed. */
export function boolNameProblem(value: unknown): Problem | null {
  return textWithin(value, BOOL_NAME_MAX) === undefined ? problem('error.thingModel.bool.name') : null;
}

/** The open (`1`) name: a name of its own, and another than the close (`0`) name once both are names. */
export function boolOpenProblem(open: unknown, close: unknown): Problem | null {
  const own = boolNameProblem(open);
  if (own || boolNameProblem(close)) return own;
  return textWithin(open, BOOL_NAME_MAX) === textWithin(close, BOOL_NAME_MAX) ? problem('error.thingModel.bool.namesEqual') : null;
}

// ---- ENUM ---------------------------------------------------------------------------------------

/** ENUM specs: a list of 1 to ENUM_ITEMS_MAX items. */
export function enumItemsProblem(items: unknown): Problem | null {
  return Array.isArray(items) && items.length >= 1 && items.length <= ENUM_ITEMS_MAX ? null : problem('error.thingModel.enum.items');
}

/** An item as read: its value if a number, its description if text of the right length. */
export function enumItemOf(entry: unknown): { value: number | undefined; description: string | undefined } {
  const item = isObject(entry) ? entry : {};
  return { value: numberOf(item.value), description: textWithin(item.description, ENUM_DESCRIPTION_MAX) };
}

/** Earlier items that count for uniqueness: both their value and their description read. */
function earlierItems(index: number, items: readonly unknown[]): { value: number; description: string }[] {
  return items
    .slice(0, index)
    .map(enumItemOf)
    .filter((e): e is { value: number; description: string } => e.value !== undefined && e.description !== undefined);
}

/** The value of item `index` of `items`: an int32 integer that no earlier item has. */
export function enumValueProblem(value: unknown, index: number, items: readonly unknown[]): Problem | null {
  const n = numberOf(value);
  if (n === undefined || !isInt32(n)) return problem('error.thingModel.enum.value');
  return earlierItems(index, items).some((e) => e.value === n) ? problem('error.thingModel.enum.valueDuplicate') : null;
}

const descriptionStart = new RegExp(ENUM_DESCRIPTION_PATTERN, 'u');

/** The description of item `index` of `items`: 1 to ENUM_DESCRIPTION_MAX characters, a letter, Chinese character or digit first, unique. */
export function enumDescriptionProblem(value: unknown, index: number, items: readonly unknown[]): Problem | null {
  const description = textWithin(value, ENUM_DESCRIPTION_MAX);
  if (description === undefined || !descriptionStart.test(description)) return problem('error.thingModel.enum.description');
  return earlierItems(index, items).some((e) => e.description === description) ? problem('error.thingModel.enum.descriptionDuplicate') : null;
}

// ---- STRUCT and parameter lists -----------------------------------------------------------------

/** STRUCT specs: a list of 1 to PARAMS_MAX members. */
export function structMembersProblem(members: unknown): Problem | null {
  return Array.isArray(members) && members.length >= 1 && members.length <= PARAMS_MAX ? null : problem('error.thingModel.struct.members');
}

/** `inputData` or `outputData`: left out, or a list of at most PARAMS_MAX parameters. */
export function paramsProblem(params: unknown): Problem | null {
  if (params === undefined || params === null) return null;
  return Array.isArray(params) && params.length <= PARAMS_MAX ? null : problem('error.thingModel.params');
}
