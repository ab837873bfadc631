/**
 * The command delivery form's rules and body (server/contract/command.ts): valid JSON content by
 * command type, ASCII or HEX text for TCP devices, SERVICE parameters generated from the published
 * service's inputs. Checks answer a key of the `command` namespace (`form.*`), of `errors`
 * (`errors:command.*`) or the spec's JSON text (`http:jsonInvalid`), or null. Pure.
 */
import {
  COMMAND_CONTENT_MAX,
  COMMAND_TIMEOUT_DEFAULT_MS,
  HEX_CONTENT_PATTERN,
  type CommandBody,
  type CommandCallType,
  type CommandFormat,
  type CommandType,
  type CommandWay,
} from '../../../server/contract/command.ts';
import type { DataType, ThingModelParam, ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { exampleValue } from '../thing-model/topicExamples.ts';

export type CommandProblem =
  | 'http:jsonInvalid'
  | 'command:form.objectRequired'
  | 'command:form.tooLong'
  | 'errors:command.methodRequired'
  | 'errors:command.hexInvalid'
  | 'errors:command.asciiInvalid'
  | 'errors:field.required'
  | null;

const hexPattern = new RegExp(HEX_CONTENT_PATTERN);
const printableAscii = /^[\x20-\x7E\t\r\n]*$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text as JSON, or undefined when it does not parse. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** JSON content of a command type: CUSTOM and API `{ method, params? }`, ATTRIBUTE `{ key: value }`. */
export function jsonContentProblem(text: unknown, commandType: CommandType): CommandProblem {
  const v = typeof text === 'string' ? text.trim() : '';
  if (!v) return 'errors:field.required';
  if (v.length > COMMAND_CONTENT_MAX) return 'command:form.tooLong';
  const parsed = parseJson(v);
  if (!parsed.ok) return 'http:jsonInvalid';
  if (!isObject(parsed.value)) return 'command:form.objectRequired';
  if (commandType === 'ATTRIBUTE') return Object.keys(parsed.value).length ? null : 'command:form.objectRequired';
  const method = parsed.value.method;
  return typeof method === 'string' && method.trim() && (parsed.value.params === undefined || isObject(parsed.value.params))
    ? null
    : 'errors:command.methodRequired';
}

/** ASCII or HEX content of a TCP device: HEX digit pairs (spaces allowed), ASCII printable text. */
export function rawContentProblem(text: unknown, format: CommandFormat): CommandProblem {
  const v = typeof text === 'string' ? text : '';
  if (!v.trim()) return 'errors:field.required';
  if (v.length > COMMAND_CONTENT_MAX) return 'command:form.tooLong';
  if (format === 'HEX') {
    const digits = v.replace(/\s+/g, '');
    return hexPattern.test(v) && digits.length % 2 === 0 ? null : 'errors:command.hexInvalid';
  }
  return printableAscii.test(v) ? null : 'errors:command.asciiInvalid';
}

/**
 * What a parameter's input holds: a number, a BOOL as '0'/'1', text, a STRUCT as its members'
 * inputs (JSON text from older saved scenes is still read).
 */
export type ParamInput = number | string | null | undefined | { [member: string]: ParamInput };

/** The wire value of one parameter input (undefined when it cannot be read). */
export function paramValue(dataType: DataType, input: ParamInput): unknown {
  if (input === null || input === undefined || input === '') return undefined;
  switch (dataType.type) {
    case 'BOOL':
      return String(input) === '1';
    case 'INT':
    case 'DOUBLE':
    case 'ENUM':
      return typeof input === 'number' ? input : Number(input);
    case 'TEXT':
      return String(input);
    case 'STRUCT': {
      if (typeof input === 'object') return Object.fromEntries(dataType.specs.map((m) => [m.identifier, paramValue(m.dataType, input[m.identifier])]));
      const parsed = parseJson(String(input));
      return parsed.ok ? parsed.value : undefined;
    }
  }
}

/**
 * The input a parameter starts with: a BOOL off (a switch always has a value), a STRUCT its
 * members' starts, anything else empty, for the operator to fill in. No made-up example value: a
 * number prefilled from its range read as a setting nobody chose.
 */
export function initialParamInput(dataType: DataType): ParamInput {
  if (dataType.type === 'BOOL') return '0';
  if (dataType.type === 'STRUCT') return Object.fromEntries(dataType.specs.map((m) => [m.identifier, initialParamInput(m.dataType)]));
  return undefined;
}

/** `{ method: service, params }` of a SERVICE command from its inputs. */
export function serviceContent(identifier: string, inputs: readonly ThingModelParam[], values: Record<string, ParamInput>): string {
  const params = Object.fromEntries(inputs.map((p) => [p.identifier, paramValue(p.dataType, values[p.identifier])]));
  return JSON.stringify({ method: identifier, params });
}

/** `{ property: value }` of an ATTRIBUTE command from the chosen writable property's input. */
export function attributeContent(property: Pick<ThingModelTsl['properties'][number], 'identifier' | 'functionJson'> | undefined, input: ParamInput): string {
  if (!property) return '{}';
  return JSON.stringify({ [property.identifier]: paramValue(property.functionJson.dataType, input) ?? null });
}

/**
 * The content the typed inputs make (SERVICE, ATTRIBUTE), or null when the command is typed as
 * raw JSON: CUSTOM and API always, SERVICE and ATTRIBUTE when the operator asked for raw JSON.
 */
export function formContent(values: CommandValues, model: Pick<ThingModelTsl, 'services' | 'properties'>): string | null {
  if (values.rawJson) return null;
  if (values.commandType === 'SERVICE') {
    const service = model.services.find((s) => s.identifier === values.service);
    return serviceContent(values.service ?? '', service?.functionJson.inputData ?? [], values.params ?? {});
  }
  if (values.commandType === 'ATTRIBUTE' && writableProperties(model).length) {
    return attributeContent(model.properties.find((p) => p.identifier === values.property), values.propertyValue);
  }
  return null;
}

/** The properties an ATTRIBUTE command may set. */
export function writableProperties(model: Pick<ThingModelTsl, 'properties'> | null): ThingModelTsl['properties'] {
  return (model?.properties ?? []).filter((p) => p.accessMode === 'rw');
}

/** The content a JSON command type starts with, from the published model when there is one. */
export function contentTemplate(commandType: CommandType, model: Pick<ThingModelTsl, 'properties'> | null): string {
  if (commandType === 'ATTRIBUTE') {
    const writable = writableProperties(model);
    const example = Object.fromEntries(writable.map((p) => [p.identifier, exampleValue(p.functionJson.dataType)]));
    return JSON.stringify(Object.keys(example).length ? example : { key: 'value' }, null, 2);
  }
  return JSON.stringify({ method: commandType === 'API' ? 'getStatus' : 'method', params: {} }, null, 2);
}

export interface CommandValues {
  commandType: CommandType;
  callType: CommandCallType;
  way: CommandWay;
  /** TCP devices: ASCII or HEX. */
  format?: CommandFormat;
  /** JSON (CUSTOM, API, ATTRIBUTE) or ASCII/HEX text. */
  content?: string;
  /** SERVICE: the service identifier and its input values. */
  service?: string;
  params?: Record<string, ParamInput>;
  /** ATTRIBUTE: the writable property to set and its input. */
  property?: string;
  propertyValue?: ParamInput;
  /** SERVICE and ATTRIBUTE typed as raw JSON in `content` (the advanced option) instead of from the model. */
  rawJson?: boolean;
  /** Two-way wait in seconds. */
  timeoutSeconds?: number;
}

export const DEFAULT_TIMEOUT_SECONDS = COMMAND_TIMEOUT_DEFAULT_MS / 1000;

/** The send call's body; `model` is the published one (SERVICE and ATTRIBUTE content from typed inputs). */
export function commandBody(values: CommandValues, tcp: boolean, model: Pick<ThingModelTsl, 'services' | 'properties'>): CommandBody {
  const content = tcp ? (values.content ?? '') : (formContent(values, model) ?? (values.content ?? '').trim());
  return {
    commandType: values.commandType,
    callType: values.callType,
    way: values.way,
    content,
    ...(tcp ? { format: values.format ?? 'HEX' } : {}),
    ...(values.way === 'twoway' ? { timeoutMs: Math.round((values.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000) } : {}),
  };
}
