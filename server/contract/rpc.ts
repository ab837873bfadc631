/**
 * ThingsBoard's server-side RPC REST calls (its RpcV2Controller under `/api/rpc`, RpcV1Controller
 * under `/api/plugins/rpc`), for REST scripts written for ThingsBoard. Each call is a command of
 * type API through the command pipeline (server/contract/command.ts), so it leaves a command record
 * with its status in the device's command list.
 *
 * Body `{ method, params?, timeout?, persistent?, retries?, additionalInfo? }`:
 * - `persistent: true`: recorded as an ASYNC command (queued while the device is offline, sent when
 *   it connects) and answered at once with `{ rpcId }` (the command record's id), as ThingsBoard
 *   answers a persistent RPC. `retries` and `additionalInfo` are accepted and not used.
 * - otherwise a SYNC command: one-way answers 200 with an empty body once the request is handed to
 *   the device's connection (as ThingsBoard answers a lightweight one-way RPC); two-way answers 200
 *   with the device's answer as JSON (empty when the device answered nothing), 406 when the answer
 *   is not JSON. `timeout` (ms, default COMMAND_TIMEOUT_DEFAULT_MS) bounds the wait for the answer.
 * Refusals, with ThingsBoard's statuses and our error body:
 * - no answer within `timeout` (or the command withdrawn): v2 504, v1 408 (`error.rpc.timeout`, code 2);
 * - device offline and not persistent: v2 504 (code 2), v1 409 (code 35) (`error.rpc.deviceOffline`);
 * - answer not JSON: 406 (`error.rpc.answerNotJson`, code 2);
 * - unknown device 404 code 32; a body that does not fit 400 code 31.
 */
import Type, { type Static } from 'typebox';
import { COMMAND_TIMEOUT_MAX_MS, COMMAND_TIMEOUT_MIN_MS } from './command.ts';
import { IdParamsSchema } from './common.ts';
import { ErrorBodySchema } from './errors.ts';
import { defineRoutes } from './route.ts';

export const RpcBodySchema = Type.Object(
  {
    method: Type.String({ minLength: 1, maxLength: 256 }),
    /**
     * Any JSON value, delivered unchanged as ThingsBoard does (the IoT Gateway's Modbus connector
     * sends `"params": 260` for a register write). Left out: `{}`.
     */
    params: Type.Optional(Type.Unknown()),
    timeout: Type.Optional(Type.Integer({ minimum: COMMAND_TIMEOUT_MIN_MS, maximum: COMMAND_TIMEOUT_MAX_MS })),
    persistent: Type.Optional(Type.Boolean()),
    retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    additionalInfo: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type RpcBody = Static<typeof RpcBodySchema>;

/** The answer to a persistent RPC. */
export const PersistentRpcSchema = Type.Object({ rpcId: Type.String() });

/** The two API versions differ only in the statuses of a timeout and of an offline device. */
export const rpcStatuses = {
  v2: { timeout: 504, offline: 504 },
  v1: { timeout: 408, offline: 409 },
} as const;
export type RpcVersion = keyof typeof rpcStatuses;

const tags = ['command'];
const answer = {
  200: Type.Unknown({ description: "The device's answer (two-way), { rpcId } (persistent), or empty (one-way)" }),
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  404: ErrorBodySchema,
  406: ErrorBodySchema,
  408: ErrorBodySchema,
  409: ErrorBodySchema,
  504: ErrorBodySchema,
};

function rpcRoute(url: string, summary: string) {
  return {
    method: 'POST' as const,
    url,
    schema: { tags, summary, params: IdParamsSchema, body: RpcBodySchema, response: answer },
    config: { access: 'user' as const, permission: 'device:command', deviceParam: 'id' as const },
  };
}

export const rpcRoutes = defineRoutes({
  oneway: rpcRoute('/api/rpc/oneway/:id', 'ThingsBoard one-way RPC: 200 once sent; 504 when the device is offline'),
  twoway: rpcRoute('/api/rpc/twoway/:id', "ThingsBoard two-way RPC: the device's answer; 504 on timeout or an offline device"),
  onewayV1: rpcRoute('/api/plugins/rpc/oneway/:id', 'ThingsBoard one-way RPC (v1): 200 once sent; 409 when the device is offline'),
  twowayV1: rpcRoute('/api/plugins/rpc/twoway/:id', "ThingsBoard two-way RPC (v1): the device's answer; 408 on timeout, 409 for an offline device"),
});

/** Which version and way each route is. */
export const rpcRouteKinds: Record<keyof typeof rpcRoutes, { version: RpcVersion; way: 'oneway' | 'twoway' }> = {
  oneway: { version: 'v2', way: 'oneway' },
  twoway: { version: 'v2', way: 'twoway' },
  onewayV1: { version: 'v1', way: 'oneway' },
  twowayV1: { version: 'v1', way: 'twoway' },
};
