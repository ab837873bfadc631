/**
 * Field-level refusals: schema failures and service rules both become `{ field, key }` violations,
 * so a form can show the rule's own message beside the field instead of a generic
 * "wrong format". The same mapping serves HTTP bodies (ajv) and imported CSV rows (TypeBox), which
 * report failures in the same shape.
 */
import { ErrorCode, type ErrorKey } from '../contract/errors.ts';
import { AppError } from './app-error.ts';
import { translate } from './messages.ts';

/** One failure as ajv and TypeBox report it. */
export interface SchemaFailure {
  instancePath: string;
  keyword: string;
  params: unknown;
  message?: string;
}

/** A broken rule: the field (dotted path inside the body) and the i18n key saying which rule. */
export interface Violation {
  field: string;
  key: ErrorKey;
  params?: Record<string, string | number>;
}

/** Field name (or dotted path) → the key of that field's rule. */
export type FieldKeys = Readonly<Record<string, ErrorKey>>;

/** TypeBox names every missing property in one `requiredProperties` failure; ajv gives one `missingProperty` each. */
function expandRequired(failures: readonly SchemaFailure[]): SchemaFailure[] {
  return failures.flatMap((failure) => {
    const missing = (failure.params as { requiredProperties?: unknown } | null)?.requiredProperties;
    if (failure.keyword !== 'required' || !Array.isArray(missing)) return [failure];
    return missing.map((name: unknown) => ({ ...failure, params: { missingProperty: String(name) } }));
  });
}

/** `ntpServers.0` → `ntpServers`: an array item's rule is keyed by the array's name. */
function withoutIndexes(path: readonly string[]): string {
  return path.filter((part) => !/^\d+$/.test(part)).join('.');
}

/**
 * One violation per field, in the order the validator met them. A missing field says "required";
 * a field with its own rule key gets it whatever the keyword (a nullable pattern fails several
 * branches of one anyOf); an enum gets "choose a listed value"; anything else the generic key.
 */
export function schemaViolations(failures: readonly SchemaFailure[], keys: FieldKeys): Violation[] {
  const byField = new Map<string, Violation>();
  for (const failure of expandRequired(failures)) {
    const path = failure.instancePath.split('/').filter(Boolean);
    const missing = (failure.params as { missingProperty?: unknown } | null)?.missingProperty;
    if (failure.keyword === 'required' && typeof missing === 'string') path.push(missing);
    const field = path.join('.');
    if (byField.has(field)) continue;
    const last = path[path.length - 1] ?? '';
    const key: ErrorKey =
      failure.keyword === 'required'
        ? 'error.field.required'
        : (keys[field] ?? keys[last] ?? keys[withoutIndexes(path)] ?? (failure.keyword === 'enum' ? 'error.field.choice' : 'error.validation'));
    byField.set(field, { field, key });
  }
  return [...byField.values()];
}

/**
 * The 400 (code 31) for violations: the first one names the error, `details` lists them all with
 * `field` prefixed by where it was (`body.name`). Detail messages are the English text; the
 * console translates `key`.
 */
export function violationError(violations: readonly Violation[], context = 'body'): AppError {
  const first = violations[0] ?? { field: '', key: 'error.validation' as const };
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, first.key, first.params ?? {}, {
    status: 400,
    details: violations.map((v) => ({
      field: context && v.field ? `${context}.${v.field}` : context || v.field,
      key: v.key,
      message: translate('en_US', v.key, v.params),
    })),
  });
}

/** Throws when any rule is broken. */
export function assertNoViolations(violations: readonly Violation[], context = 'body'): void {
  if (violations.length > 0) throw violationError(violations, context);
}

/**
 * A route's `schemaErrorFormatter`: schema failures of the request become field-keyed violations.
 * The errors plugin passes AppErrors through unchanged.
 */
export function fieldErrorFormatter(keys: FieldKeys): (failures: SchemaFailure[], context: string) => Error {
  return (failures, context) => violationError(schemaViolations(failures, keys), context);
}

/** The 404 (code 32) of an unknown id. */
export function notFound(): AppError {
  return new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.notFound');
}

/** A bulk refusal naming the rows it concerns, e.g. "Organization A, B still has sub-organizations". */
export function refusedFor(key: ErrorKey, names: readonly string[]): AppError {
  return violationError([{ field: 'ids', key, params: { names: names.join(', ') } }]);
}
