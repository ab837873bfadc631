/**
 * The console's HTTP client, typed over the server's contract route tables:
 * `api(userRoutes.me)` returns `UserInfo` because the contract says so.
 *
 * - bearer token when signed in; `_t` timestamp on GET; 10 s timeout;
 * - identical pending GETs are de-duplicated: the earlier one is aborted (its caller sees a silent
 *   'cancelled' error). Writes are never aborted: the server may already have applied them;
 * - on 401 (not the token call, not code 99) one refresh with the refresh token, then the request is
 *   repeated once; otherwise the session is reset and the user goes to Login;
 * - code 99 or a certificate-expired message resets the session and goes to the guide (no
 *   licence, with the server's `licenseCode`) or the expired-licence page;
 * - failures show the body's errorMessage, message or msg, else the body's text, else the
 *   catalogue's text for the status (web/lib/api-rules.ts);
 * - a POST is tried again (5 times, 100 ms apart) on a network failure, a timeout or a 5xx
 *   answer, only where the caller asks with `retry` (the server may have applied it already).
 */
import type { Static, TSchema } from 'typebox';
import { navigate } from 'wouter/use-browser-location';
import type { RouteDef } from '../../server/contract/route.ts';
import { ErrorCode, type ErrorBody } from '../../server/contract/errors.ts';
import { authRoutes, type TokenPair } from '../../server/contract/auth.ts';
import { i18n } from '../i18n/i18n.ts';
import { acceptLanguage, type Language } from '../../server/contract/languages.ts';
import { sessionActions, getSession } from '../stores/session.ts';
import { consolePaths } from '../../server/contract/console-paths.ts';
import { notifyError } from './notify.ts';
import { errorTextOf, isLicenseError, licenseRedirect, POST_RETRY, withRetry } from './api-rules.ts';
import { announceRotation } from './session-sync.ts';

export const REQUEST_TIMEOUT_MS = 10_000;

type SchemaAt<S, K extends string> = S extends Record<K, infer T extends TSchema> ? Static<T> : undefined;
export type ResponseOf<R extends RouteDef> = R['schema']['response'] extends Record<200, infer T extends TSchema>
  ? Static<T>
  : unknown;
export type BodyOf<R extends RouteDef> = SchemaAt<R['schema'], 'body'>;
export type QueryOf<R extends RouteDef> = SchemaAt<R['schema'], 'querystring'>;
export type ParamsOf<R extends RouteDef> = SchemaAt<R['schema'], 'params'>;

export interface CallOptions<R extends RouteDef> {
  params?: ParamsOf<R> extends undefined ? Record<string, string | number> : ParamsOf<R>;
  query?: QueryOf<R> extends undefined ? Record<string, unknown> : Partial<QueryOf<R>>;
  body?: BodyOf<R>;
  /** Multipart upload instead of a JSON body. */
  form?: FormData;
  /** Extra headers, e.g. the setup code during first boot. */
  headers?: Record<string, string>;
  /** Do not show a message on failure (the caller handles it). */
  silent?: boolean;
  timeoutMs?: number;
  responseType?: 'json' | 'blob' | 'text';
  /** POST only: try again on a network failure, a timeout or a 5xx answer (off by default). */
  retry?: boolean;
}

export type ApiErrorKind = 'http' | 'timeout' | 'network' | 'cancelled';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status = 0,
    readonly body: Partial<ErrorBody> | null = null,
  ) {
    super(message);
  }
  get code(): number | undefined {
    return this.body?.code;
  }
  get key(): string | undefined {
    return this.body?.key;
  }
}

const pendingGets = new Map<string, AbortController>();
let refreshing: Promise<boolean> | null = null;

function buildUrl(route: RouteDef, params?: unknown, query?: unknown): string {
  let url = route.url.replace(/:(\w+)/g, (_, name: string) => {
    const value = (params as Record<string, unknown> | undefined)?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${route.url}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((item) => search.append(k, String(item)));
    else search.append(k, String(v));
  }
  const qs = search.toString();
  if (qs) url += `?${qs}`;
  return url;
}

/** Message text: the server's (errorMessage, message, msg or the text itself), else the catalogue's text for the status. */
function messageFor(status: number, body: unknown): string {
  const text = errorTextOf(body);
  if (text) return text;
  const key = `http:${status}`;
  return i18n.exists(key) ? i18n.t(key as 'http:400') : i18n.t('http:failed');
}

/**
 * One refresh with the refresh token, shared by everyone who asks at the same moment (concurrent
 * 401 retries, the live websocket after a 1008 close); true when new tokens are stored.
 */
export async function refreshSession(): Promise<boolean> {
  // Another tab sharing this sign-in's storage may have rotated the pair already: its refresh
  // token is then the one to use (ours is spent, and presenting it would end the sign-in).
  if (sessionActions.adoptStoredTokens()) return true;
  const refreshToken = getSession().refreshToken;
  if (!refreshToken) return false;
  refreshing ??= (async () => {
    try {
      const res = await fetch(authRoutes.token.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken }),
      });
      if (!res.ok) return false;
      const pair = (await res.json()) as TokenPair;
      sessionActions.setTokens(pair);
      announceRotation(refreshToken, pair);
      return true;
    } catch {
      return false;
    } finally {
      setTimeout(() => (refreshing = null), 0);
    }
  })();
  return refreshing;
}

function goTo(path: string): void {
  if (window.location.pathname !== path.split('?')[0]) navigate(path, { replace: true });
}

const forbiddenListeners = new Set<() => void>();

/**
 * Runs `listener` whenever the server answers 403 code 20 (the permission store reloads the
 * user's permissions then: a role may have changed). Returns the unsubscribe.
 */
export function onForbidden(listener: () => void): () => void {
  forbiddenListeners.add(listener);
  return () => forbiddenListeners.delete(listener);
}

/** Session consequences of an error (session ended, licence invalid); true when the user was sent away. */
function handleSessionErrors(route: RouteDef, err: ApiError): boolean {
  if (isLicenseError(err.code, err.message)) {
    sessionActions.reset();
    // No licence at all (or setup not finished) → the activation wizard; an expired one → its page.
    goTo(licenseRedirect(err.key));
    return true;
  }
  if (err.status === 401 && route.url !== authRoutes.login.url) {
    sessionActions.reset();
    if (window.location.pathname !== consolePaths.login && window.location.pathname !== consolePaths.guide) goTo(consolePaths.login);
    return false;
  }
  return false;
}

async function send<R extends RouteDef>(route: R, opts: CallOptions<R>, retried: boolean): Promise<ResponseOf<R>> {
  const isGet = route.method === 'GET';
  const baseUrl = buildUrl(route, opts.params, opts.query);
  const url = isGet ? `${baseUrl}${baseUrl.includes('?') ? '&' : '?'}_t=${Date.now()}` : baseUrl;
  const headers: Record<string, string> = {
    'accept-language': acceptLanguage[(i18n.language as Language) ?? 'zh_CN'] ?? 'zh-CN',
    ...opts.headers,
  };
  const token = getSession().token;
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }

  const controller = new AbortController();
  const dedupeKey = `${route.method} ${baseUrl}`;
  if (isGet) {
    pendingGets.get(dedupeKey)?.abort(new ApiError('cancelled', 'cancelled'));
    pendingGets.set(dedupeKey, controller);
  }
  const timer = setTimeout(
    () => controller.abort(new ApiError('timeout', i18n.t('http:timeout'))),
    opts.timeoutMs ?? REQUEST_TIMEOUT_MS,
  );

  let res: Response;
  try {
    res = await fetch(url, { method: route.method, headers, body, signal: controller.signal });
  } catch {
    const reason = controller.signal.reason;
    if (reason instanceof ApiError) throw reason;
    throw new ApiError('network', i18n.t('http:network'));
  } finally {
    clearTimeout(timer);
    if (pendingGets.get(dedupeKey) === controller) pendingGets.delete(dedupeKey);
  }

  if (res.ok) {
    if (opts.responseType === 'blob') return (await res.blob()) as ResponseOf<R>;
    if (opts.responseType === 'text') return (await res.text()) as ResponseOf<R>;
    const text = await res.text();
    try {
      return (text ? JSON.parse(text) : undefined) as ResponseOf<R>;
    } catch {
      // A success whose body is not JSON came from something other than this server's API.
      throw new ApiError('http', i18n.t('http:systemAbnormal'), res.status);
    }
  }

  const raw = await res.text().catch(() => '');
  let parsed: unknown = raw;
  try {
    parsed = raw ? JSON.parse(raw) : null;
  } catch {
    // Not JSON (a proxy's or an upstream's page): its text is the message.
  }
  const errBody = parsed !== null && typeof parsed === 'object' ? (parsed as Partial<ErrorBody>) : null;
  const err = new ApiError('http', messageFor(res.status, parsed), res.status, errBody);

  const isSessionCall = route.url === authRoutes.token.url || route.url === authRoutes.login.url;
  const refreshable = res.status === 401 && !isLicenseError(err.code, err.message) && !isSessionCall;
  if (refreshable && !retried && (await refreshSession())) return send(route, opts, true);
  handleSessionErrors(route, err);
  if (res.status === 403 && err.code === ErrorCode.PERMISSION_DENIED) for (const listener of forbiddenListeners) listener();
  throw err;
}

/** Failures worth another try: the request may not have reached the server, or it was overloaded. */
function retryable(err: unknown): boolean {
  return err instanceof ApiError && (err.kind === 'network' || err.kind === 'timeout' || (err.kind === 'http' && err.status >= 500));
}

/** Calls a contract route. Rejects with ApiError; shows its message unless `silent`. */
export async function api<R extends RouteDef>(route: R, opts: CallOptions<R> = {}): Promise<ResponseOf<R>> {
  try {
    const policy = route.method === 'POST' && opts.retry ? POST_RETRY : null;
    return await withRetry(() => send(route, opts, false), policy, retryable);
  } catch (err) {
    const apiErr = err instanceof ApiError ? err : new ApiError('network', i18n.t('http:failed'));
    if (!opts.silent && apiErr.kind !== 'cancelled') notifyError(apiErr.message);
    throw apiErr;
  }
}

/** True for errors a caller should ignore (a newer identical request replaced this one). */
export function isCancelled(err: unknown): boolean {
  return err instanceof ApiError && err.kind === 'cancelled';
}
