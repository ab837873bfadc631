/**
 * The command delivery form's rules and body (server/contract/command.ts): valid JSON content by
 * command type, ASCII or HEX text for TCP devices, SERVICE parameters generated from the published
 * service's inputs. Checks answer a key of the `command` namespace (`form.*`) or of `errors`
 * (`errors:command.*`), or null. Pure.
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
  | 'command:form.jsonInvalid'
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
  if (!parsed.ok) return 'command:form.jsonInvalid';
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

/** A STRUCT parameter typed as JSON: an object. */
export function structParamProblem(text: unknown): CommandProblem {
  const v = typeof text === 'string' ? text.trim() : '';
  if (!v) return 'errors:field.required';
  const parsed = parseJson(v);
  if (!parsed.ok) return 'command:form.jsonInvalid';
  return isObject(parsed.value) ? null : 'command:form.objectRequired';
}

/** What a service parameter's input holds: numbers, a BOOL as '0'/'1', text, or JSON text for a STRUCT. */
export type ParamInput = number | string | null | undefined;

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
      const parsed = parseJson(String(input));
      return parsed.ok ? parsed.value : undefined;
    }
  }
}

/** The input a parameter starts with: an example inside its range (a STRUCT as JSON text). */
export function initialParamInput(dataType: DataType): ParamInput {
  const value = exampleValue(dataType);
  if (dataType.type === 'BOOL') return '1';
  if (dataType.type === 'STRUCT') return JSON.stringify(value, null, 2);
  return value as number | string;
}

/** `{ method: service, params }` of a SERVICE command from its inputs. */
export function serviceContent(identifier: string, inputs: readonly ThingModelParam[], values: Record<string, ParamInput>): string {
  const params = Object.fromEntries(inputs.map((p) => [p.identifier, paramValue(p.dataType, values[p.identifier])]));
  return JSON.stringify({ method: identifier, params });
}

/** The content a JSON command type starts with, from the published model when there is one. */
export function contentTemplate(commandType: CommandType, model: Pick<ThingModelTsl, 'properties'> | null): string {
  if (commandType === 'ATTRIBUTE') {
    const writable = (model?.properties ?? []).filter((p) => p.accessMode === 'rw');
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
  /** Two-way wait in seconds. */
  timeoutSeconds?: number;
}

export const DEFAULT_TIMEOUT_SECONDS = COMMAND_TIMEOUT_DEFAULT_MS / 1000;

/** The send call's body; `services` are the published model's (for SERVICE content). */
export function commandBody(values: CommandValues, tcp: boolean, services: ThingModelTsl['services']): CommandBody {
  let content: string;
  if (tcp) content = values.content ?? '';
  else if (values.commandType === 'SERVICE') {
    const service = services.find((s) => s.identifier === values.service);
    content = serviceContent(values.service ?? '', service?.functionJson.inputData ?? [], values.params ?? {});
  } else content = (values.content ?? '').trim();
  return {
    commandType: values.commandType,
    callType: values.callType,
    way: values.way,
    content,
    ...(tcp ? { format: values.format ?? 'HEX' } : {}),
    ...(values.way === 'twoway' ? { timeoutMs: Math.round((values.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000) } : {}),
  };
}
