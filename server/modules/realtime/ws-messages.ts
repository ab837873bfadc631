/**
 * Client messages of /api/ws as text → an optional auth token and a list of typed commands, or the
 * reason the whole message is refused. Both ThingsBoard forms are read: `{ cmds: [{ type, … }] }`
 * and the legacy `{ tsSubCmds, historyCmds, attrSubCmds }`.
 */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { ErrorKey } from '../../contract/errors.ts';
import { WS_MAX_CMDS_PER_MESSAGE, WsErrorCode } from '../../contract/realtime.ts';

export interface ClientCmd {
  type: string;
  /** 0 when the command gave none (its answer still needs one). */
  cmdId: number;
  body: Record<string, unknown>;
}

export type ParsedMessage =
  | { ok: true; token: string | null; cmds: ClientCmd[] }
  | { ok: false; errorCode: WsErrorCode; key: ErrorKey; params: Record<string, string | number> };

const legacyLists: Record<string, string> = {
  tsSubCmds: 'TIMESERIES',
  historyCmds: 'TIMESERIES_HISTORY',
  attrSubCmds: 'ATTRIBUTES',
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuse(errorCode: WsErrorCode, key: ErrorKey, params: Record<string, string | number> = {}): ParsedMessage {
  return { ok: false, errorCode, key, params };
}

export function cmdIdOf(value: unknown): number {
  const id = isObject(value) ? value.cmdId : undefined;
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : 0;
}

export function parseClientMessage(text: string): ParsedMessage {
  let message: unknown;
  try {
    message = JSON.parse(text) as unknown;
  } catch {
    return refuse(WsErrorCode.PARSE_ERROR, 'error.ws.parse');
  }
  if (!isObject(message)) return refuse(WsErrorCode.BAD_REQUEST, 'error.ws.badMessage', { reason: 'a JSON object is expected' });

  let token: string | null = null;
  if (message.authCmd !== undefined) {
    const auth = message.authCmd;
    if (!isObject(auth) || typeof auth.token !== 'string' || !auth.token) {
      return refuse(WsErrorCode.UNAUTHORIZED, 'error.ws.badMessage', { reason: 'authCmd needs a token' });
    }
    token = auth.token;
  }

  const cmds: ClientCmd[] = [];
  const lists: [unknown, string | null][] = [[message.cmds, null], ...Object.entries(legacyLists).map(([k, type]) => [message[k], type] as [unknown, string])];
  for (const [list, legacyType] of lists) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) return refuse(WsErrorCode.BAD_REQUEST, 'error.ws.badMessage', { reason: 'command lists must be arrays' });
    for (const item of list as unknown[]) {
      const body = isObject(item) ? item : {};
      const type = legacyType ?? (typeof body.type === 'string' ? body.type : '');
      cmds.push({ type, cmdId: cmdIdOf(item), body });
    }
  }
  if (cmds.length > WS_MAX_CMDS_PER_MESSAGE) {
    return refuse(WsErrorCode.LIMIT_EXCEEDED, 'error.ws.tooManyCmds', { max: WS_MAX_CMDS_PER_MESSAGE });
  }
  return { ok: true, token, cmds };
}

/** The first schema failure as `path: message`, or null when `value` fits. */
export function schemaProblem(schema: TSchema, value: unknown): string | null {
  if (Value.Check(schema, value)) return null;
  const first = Value.Errors(schema, value)[0];
  if (!first) return 'malformed';
  const path = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  return path ? `${path} ${first.message}` : first.message;
}
