/**
 * The shape of a contract route: one object that the server registers (`app.route({...def, handler})`)
 * and the web client calls (`api(def, input)`), so path, method, schemas and access cannot drift.
 */
import type { TSchema } from 'typebox';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route. One hook in server/plugins/access.ts enforces it.
 * - `public`: anyone (health, login, platform info, setup state).
 * - `setup`: a signed-in user, or — only while no administrator exists — a caller presenting the
 *   `X-Setup-Code` header (first-boot provisioning). A signed-in caller meets the licence gate
 *   unless `licenseFree`, as on `user` routes; a setup-code caller does not (the wizard's first
 *   step is the licence upload itself).
 * - `user`: a signed-in user (bearer token); the licence gate (code 99) applies unless `licenseFree`.
 * - `node-red-instance`: a running Node-RED instance of this gateway, over loopback, with its palette
 *   credential (server/contract/node-red-palette.ts); never a user, and its credential opens nothing else.
 */
export type RouteAccess = 'public' | 'setup' | 'user' | 'node-red-instance';

export interface RouteSchema {
  summary?: string;
  description?: string;
  tags?: string[];
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  headers?: TSchema;
  consumes?: string[];
  response?: Record<number, TSchema>;
}

export interface RouteDef {
  method: HttpMethod;
  url: string;
  schema: RouteSchema;
  config: {
    access: RouteAccess;
    /**
     * Permission string of server/contract/permissions.ts. Required on `user` routes (the start is
     * refused without one); on `setup` routes it is checked whenever a signed-in user calls.
     */
    permission?: string;
    /**
     * The path parameter that names a device (`'id'`): a caller limited to some organizations
     * (server/contract/permissions.ts, roleIsScoped) gets 404 for a device outside them.
     */
    deviceParam?: 'id';
    /**
     * The path parameter that names a product: a caller limited to some organizations gets 404 for
     * a product none of their devices uses (server/lib/device-scope.ts, ProductScope).
     */
    productParam?: 'id' | 'deviceProfileId';
    /** A `user` or signed-in `setup` route that still works with a missing or expired licence (logout, own info, licence upload). */
    licenseFree?: boolean;
    /**
     * A `user` route that still answers a user who must change their password after an
     * administrator's reset (own info, permissions, settings, menu, password change, logout): what
     * the console needs to show its change-password dialog. Every other route answers 403.
     */
    passwordChangeFree?: boolean;
    /** Only during first boot: once an administrator exists the call answers 409. */
    firstBootOnly?: boolean;
    /** The call waits for something to happen before answering (a long poll): never logged as slow. */
    longPoll?: boolean;
    /** A change too small to audit (own console settings, a read mark): the audit log skips it. */
    noAudit?: boolean;
  };
}

/** Identity helper that keeps literal types of a route table. */
export function defineRoutes<const T extends Record<string, RouteDef>>(routes: T): T {
  return routes;
}

/**
 * A route's OpenAPI operationId, made from its method and path so it stays as stable as the path:
 * `POST /api/yt/device/:id/command` → `postYtDeviceIdCommand`. The audit log keeps it as the key of
 * the call's description in the locale files (locales/<lng>/auditLog.json, `operations`).
 */
export function operationIdOf(method: string, url: string): string {
  const words = url.replace(/^\/api\//, '').split(/[/_\-:.{}]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}
