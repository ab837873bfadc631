/**
 * Turns a command body into the RPC that goes to the device, refusing content that does not fit
 * its format, command type or the product's published thing model (rules in
 * server/contract/command.ts). Pure apart from the model look-ups it is given.
 */
import {
  ATTRIBUTE_RPC_METHOD,
  COMMAND_CONTENT_MAX,
  RAW_RPC_METHOD,
  type CommandBody,
  type CommandFormat,
} from '../../contract/command.ts';
import { ErrorCode, type ErrorKey } from '../../contract/errors.ts';
import type { TransportType } from '../../contract/product.ts';
import { AppError } from '../../lib/app-error.ts';
import { translate } from '../../lib/messages.ts';

/** A thing-model check's verdict; null when the product has no published model. */
export type ModelVerdict = { ok: true } | { ok: false; reason: string } | null;

/** What commands need from the thing models (server/modules/thing-model). */
export interface CommandModelChecks {
  checkService(deviceProfileId: string, identifier: string, params: Record<string, unknown>): ModelVerdict;
  checkProperty(deviceProfileId: string, key: string, value: unknown): ModelVerdict;
}

export interface PreparedCommand {
  format: CommandFormat;
  /** Canonical content: compact JSON, the ASCII text, or HEX digits upper case without spaces. */
  content: string;
  method: string;
  params: unknown;
}

const METHOD_MAX = 255;
const PRINTABLE_ASCII = /^[\x20-\x7E\t\r\n]*$/;
const HEX_DIGITS = /^[0-9A-F]*$/;

function refuse(key: ErrorKey, params: Record<string, string | number> = {}, field = 'content', reason?: string): AppError {
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, key, params, {
    status: 400,
    details: [{ field: `body.${field}`, key, message: reason ?? translate('en_US', key, params) }],
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(content: CommandBody['content']): unknown {
  if (typeof content !== 'string') return content;
  try {
    return JSON.parse(content) as unknown;
  } catch {
    throw refuse('error.command.jsonInvalid');
  }
}

/** `{ method, params? }` of CUSTOM, API and SERVICE content: `params` any JSON value (`{}` when left out). */
function methodCall(value: unknown): { method: string; params: unknown } {
  if (!isPlainObject(value) || typeof value.method !== 'string' || !value.method.trim() || value.method.length > METHOD_MAX) {
    throw refuse('error.command.methodRequired');
  }
  return { method: value.method.trim(), params: value.params === undefined ? {} : value.params };
}

function jsonCommand(body: CommandBody, deviceProfileId: string, models: CommandModelChecks): PreparedCommand {
  const value = parseJson(body.content);
  let method: string;
  let params: unknown;
  switch (body.commandType) {
    case 'SERVICE': {
      ({ method, params } = methodCall(value));
      // A service's inputs are named: only an object can carry them.
      if (!isPlainObject(params)) throw refuse('error.command.methodRequired');
      const verdict = models.checkService(deviceProfileId, method, params);
      if (verdict === null) throw refuse('error.command.noThingModel');
      if (!verdict.ok) throw refuse('error.command.serviceInvalid', { reason: verdict.reason }, 'content', verdict.reason);
      break;
    }
    case 'ATTRIBUTE': {
      if (!isPlainObject(value) || Object.keys(value).length === 0) {
        throw refuse('error.command.attributesInvalid', { reason: 'an object of property identifiers and values is required' });
      }
      for (const [key, v] of Object.entries(value)) {
        const verdict = models.checkProperty(deviceProfileId, key, v);
        // Without a published model any attributes may be set, as on ThingsBoard.
        if (verdict && !verdict.ok) {
          throw refuse('error.command.attributesInvalid', { reason: verdict.reason }, `content.${key}`, verdict.reason);
        }
      }
      method = ATTRIBUTE_RPC_METHOD;
      params = value;
      break;
    }
    default:
      ({ method, params } = methodCall(value));
  }
  const content = JSON.stringify(value);
  if (content.length > COMMAND_CONTENT_MAX) throw refuse('error.payloadTooLarge', { size: `${COMMAND_CONTENT_MAX / 1024} KB` });
  return { format: 'JSON', content, method, params };
}

function rawCommand(body: CommandBody, format: 'ASCII' | 'HEX'): PreparedCommand {
  if (typeof body.content !== 'string') throw refuse(format === 'HEX' ? 'error.command.hexInvalid' : 'error.command.asciiInvalid');
  let data = body.content;
  if (format === 'HEX') {
    data = data.replace(/\s+/g, '').toUpperCase();
    if (!data || data.length % 2 !== 0 || !HEX_DIGITS.test(data)) throw refuse('error.command.hexInvalid');
  } else if (!PRINTABLE_ASCII.test(data)) {
    throw refuse('error.command.asciiInvalid');
  }
  return { format, content: data, method: RAW_RPC_METHOD, params: { format, data } };
}

/**
 * The RPC for `body` sent to a device of a product with `transportType`: TCP products take ASCII
 * or HEX text (HEX by default), the others JSON. ATTRIBUTE and SERVICE commands are JSON on TCP
 * products too: on a Modbus device they become register writes (server/modules/modbus/).
 */
export function prepareCommand(
  body: CommandBody,
  product: { id: string; transportType: TransportType },
  models: CommandModelChecks,
): PreparedCommand {
  const modelCommand = body.commandType === 'ATTRIBUTE' || body.commandType === 'SERVICE';
  const tcp = product.transportType === 'TCP' && !modelCommand;
  const format = body.format ?? (tcp ? 'HEX' : 'JSON');
  if (tcp === (format === 'JSON')) {
    throw refuse('error.command.formatNotAllowed', { transport: product.transportType, format }, 'format');
  }
  return format === 'JSON' ? jsonCommand(body, product.id, models) : rawCommand(body, format);
}
