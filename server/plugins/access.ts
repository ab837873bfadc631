/**
 * The one hook that enforces each route's `config.access` (server/contract/route.ts): bearer
 * tokens for `user` routes, the setup code for first-boot provisioning, the licence gate
 * (code 99), the caller's role against the route's permission (server/contract/permissions.ts,
 * 403 code 20) and organization scoping of the device a route names (404) — so no route checks
 * these by itself and no URL whitelist exists.
 *
 * Routes are checked as they are registered: a `user` route without a permission, or with one the
 * table does not know, stops the start with a sentence naming it.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { TB_AUTHORIZATION_HEADER } from '../contract/auth.ts';
import { ErrorCode } from '../contract/errors.ts';
import { SETUP_CODE_HEADER } from '../contract/license.ts';
import { NODE_RED_INSTANCE_HEADER } from '../contract/node-red-palette.ts';
import { isPermission, roleHolds } from '../contract/permissions.ts';
import type { RouteDef } from '../contract/route.ts';
import { productInScope, type DeviceScope, type ProductScope } from '../lib/device-scope.ts';
import { AppError } from '../lib/app-error.ts';
import { FailureBackoff, type BackoffOptions } from '../lib/failure-counters.ts';
import type { AccessServices, AuthUser } from '../core.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the access hook on routes that resolved a signed-in user. */
    user: AuthUser | null;
    /** Set by the access hook on `node-red-instance` routes: the calling instance's id. */
    nodeRedInstance: string | null;
    /**
     * The devices the caller may see (server/lib/device-scope.ts); null: all, or no signed-in user.
     * Computed on first read and kept for the request: most calls never read it.
     */
    readonly deviceScope: DeviceScope;
    /** The products the caller may see (server/lib/device-scope.ts); lazy like `deviceScope`. */
    readonly productScope: ProductScope;
  }
  interface FastifyContextConfig {
    access?: RouteDef['config']['access'];
    permission?: string;
    deviceParam?: RouteDef['config']['deviceParam'];
    productParam?: RouteDef['config']['productParam'];
    licenseFree?: boolean;
    passwordChangeFree?: boolean;
    firstBootOnly?: boolean;
    noAudit?: boolean;
  }
}

export function bearerToken(request: Pick<FastifyRequest, 'headers'>): string | null {
  const header = request.headers.authorization ?? request.headers[TB_AUTHORIZATION_HEADER];
  if (typeof header !== 'string' || !header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Wrong setup codes tolerated from one address before it waits: a minute, doubling with each
 * further failure up to an hour, forgotten after a day without one (the sign-in's numbers).
 */
export const SETUP_CODE_BACKOFF: BackoffOptions = { free: 5, firstLockMs: 60_000, maxLockMs: 60 * 60_000, memoryMs: 24 * 60 * 60_000 };

function sameCode(given: string, expected: string): boolean {
  const a = Buffer.from(given.trim().toUpperCase());
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A path naming a product by id (`/device_profile/:id`, `/things_model/:deviceProfileId/…`). */
const productPath = /\/(device_profile|deviceProfile|products)\/:id(\/|$)|\/:deviceProfileId(\/|$)/;

/** `compute` for a request on its first call, the same answer on later calls for that request. */
function oncePerRequest<T>(compute: (request: FastifyRequest) => T): (request: FastifyRequest) => T {
  const held = new WeakMap<FastifyRequest, { value: T }>();
  return (request) => {
    let entry = held.get(request);
    if (!entry) {
      entry = { value: compute(request) };
      held.set(request, entry);
    }
    return entry.value;
  };
}

export interface AccessOptions {
  services: AccessServices;
  setupCode: string;
}

async function accessPlugin(app: FastifyInstance, opts: AccessOptions): Promise<void> {
  const { services, setupCode } = opts;
  app.decorateRequest('user', null);
  app.decorateRequest('nodeRedInstance', null);
  // Getters on the request prototype, so a scope costs nothing until a route reads it. Nothing is
  // kept before sign-in resolved the user, so an early read cannot pin a null scope.
  const deviceScopeOf = oncePerRequest((request) => services.deviceScopeOf(request.user!));
  const productScopeOf = oncePerRequest((request) => services.productScopeOf(request.deviceScope));
  app.decorateRequest('deviceScope', {
    getter(this: FastifyRequest): DeviceScope {
      return this.user === null ? null : deviceScopeOf(this);
    },
  });
  app.decorateRequest('productScope', {
    getter(this: FastifyRequest): ProductScope {
      return this.deviceScope === null ? null : productScopeOf(this);
    },
  });

  app.addHook('onRoute', (route) => {
    const config = route.config as RouteDef['config'] | undefined;
    if (!config?.access) return;
    const name = `${String(route.method)} ${route.url}`;
    if (config.access === 'user' && !config.permission) {
      throw new Error(`route ${name} is for signed-in users but names no permission (config.permission, server/contract/permissions.ts)`);
    }
    if (config.permission && !isPermission(config.permission)) {
      throw new Error(`route ${name} names permission "${config.permission}", which server/contract/permissions.ts does not list`);
    }
    if (config.access !== 'public' && /\/device\/:id(\/|$)/i.test(route.url) && !config.deviceParam) {
      throw new Error(`route ${name} names a device by :id but has no config.deviceParam, so organization scoping would miss it`);
    }
    if (config.access !== 'public' && productPath.test(route.url) && !config.productParam) {
      throw new Error(`route ${name} names a product by its id but has no config.productParam, so organization scoping would miss it`);
    }
  });

  /** After sign-in: the role must hold the route's permission; a device the route names must be in scope. */
  const authorize = (request: FastifyRequest, user: AuthUser): void => {
    const config = request.routeOptions.config;
    // After an administrator's reset only the password change and what shows its dialog answer.
    if (user.mustChangePassword && !config.passwordChangeFree) {
      throw new AppError(ErrorCode.PERMISSION_DENIED, 'error.auth.passwordChangeRequired');
    }
    if (config.permission && !roleHolds(user.role, config.permission)) {
      throw new AppError(ErrorCode.PERMISSION_DENIED, 'error.permissionDenied');
    }
    const param = config.deviceParam;
    const deviceId = param ? (request.params as Record<string, unknown> | undefined)?.[param] : undefined;
    if (typeof deviceId === 'string' && !services.deviceVisible(request.deviceScope, deviceId)) {
      throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.notFound');
    }
    const productId = config.productParam ? (request.params as Record<string, unknown> | undefined)?.[config.productParam] : undefined;
    if (typeof productId === 'string' && !productInScope(request.productScope, productId)) {
      throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.notFound');
    }
  };

  /** The caller of a public route when a valid token came with the call, else null (never refused). */
  const signedInOrNull = (request: FastifyRequest): AuthUser | null => {
    const token = bearerToken(request);
    const user = token ? services.verifyAccessToken(token) : null;
    return user && user !== 'expired' && !user.mustChangePassword ? user : null;
  };

  const resolveUser = (request: FastifyRequest): AuthUser => {
    const token = bearerToken(request);
    if (!token) throw new AppError(ErrorCode.AUTHENTICATION, 'error.auth.required');
    const user = services.verifyAccessToken(token);
    if (user === 'expired') throw new AppError(ErrorCode.TOKEN_EXPIRED, 'error.auth.tokenExpired');
    if (!user) throw new AppError(ErrorCode.AUTHENTICATION, 'error.auth.tokenInvalid');
    return user;
  };

  const requireLicense = (): void => {
    const status = services.licenseStatus();
    if (status === 'MISSING') throw new AppError(ErrorCode.LICENSE, 'error.license.required');
    if (status === 'EXPIRED') throw new AppError(ErrorCode.LICENSE, 'error.license.expired');
  };

  // Wrong setup codes are throttled per address as wrong passwords are (server/modules/auth/password-attempts.ts).
  const setupFailures = new FailureBackoff(SETUP_CODE_BACKOFF);
  const checkSetupCode = (code: string, ip: string): void => {
    const now = Date.now();
    const waitMs = setupFailures.retryAfterMs(ip, now);
    // While locked even the right code is refused, else the lock would not slow a guesser.
    if (waitMs > 0) throw new AppError(ErrorCode.TOO_MANY_REQUESTS, 'error.setup.tooManyAttempts', { seconds: Math.ceil(waitMs / 1000) });
    if (sameCode(code, setupCode)) return;
    setupFailures.record(ip, now);
    throw new AppError(ErrorCode.AUTHENTICATION, 'error.setup.codeInvalid');
  };

  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    const access = config.access;
    // Routes without an access config are not contract routes (static files, 404 handler).
    if (!access) return;
    if (access === 'public') {
      // Anyone may call it; a valid token only lets the route answer more (the licence's customer).
      request.user = signedInOrNull(request);
      return;
    }
    if (access === 'node-red-instance') {
      // A palette node of a running instance: its credential, over loopback (the socket's own
      // address and the one a trusted proxy reported), and nothing a user's token could stand in for.
      const header = request.headers[NODE_RED_INSTANCE_HEADER];
      const instance = typeof header === 'string' ? services.nodeRedInstanceOf(header, [request.ip, request.socket.remoteAddress ?? '']) : null;
      if (!instance) throw new AppError(ErrorCode.AUTHENTICATION, 'error.nodeRedPalette.credential');
      request.nodeRedInstance = instance;
      return;
    }
    if (config.firstBootOnly && services.adminExists()) {
      throw new AppError(ErrorCode.VERSION_CONFLICT, 'error.setup.adminExists', {}, { status: 409 });
    }
    if (access === 'setup') {
      // Provisioning: with the setup code while no administrator exists; otherwise signed in.
      const code = request.headers[SETUP_CODE_HEADER];
      if (!services.adminExists() && !bearerToken(request)) {
        if (typeof code !== 'string' || code === '') throw new AppError(ErrorCode.AUTHENTICATION, 'error.setup.codeRequired');
        checkSetupCode(code, request.ip);
        return;
      }
      // Signed in: a user's route like any other, the licence gate included (the edge state, as
      // over /api/ws: server/modules/realtime/live-host.ts). The provisioning endpoints (licence upload, cloud configuration)
      // are `licenseFree`: the upload is how an expired licence is renewed.
      request.user = resolveUser(request);
      if (!config.licenseFree) requireLicense();
      authorize(request, request.user);
      return;
    }
    request.user = resolveUser(request);
    if (!config.licenseFree) requireLicense();
    authorize(request, request.user);
  });
}

export default fp(accessPlugin, { name: 'access' });
