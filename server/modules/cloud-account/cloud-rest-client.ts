/**
 * The cloud's ThingsBoard-style REST calls a cloud-account sign-in needs: `POST /api/auth/login`,
 * `GET /api/auth/user` and, for a customer user, `GET /api/customer/{id}` for the customer's title.
 * Every call gives up after CLOUD_CALL_TIMEOUT_MS, so an unreachable cloud costs a sign-in seconds,
 * not a hung request.
 */
import { TB_AUTHORIZATION_HEADER } from '../../contract/auth.ts';

/** The longest a sign-in waits for the cloud before it uses the stored verifier. */
export const CLOUD_CALL_TIMEOUT_MS = 5000;

/** What the cloud answered to the credentials. */
export type CloudLoginOutcome =
  | { kind: 'accepted'; token: string }
  | { kind: 'refused' }
  /** No usable answer (down, timed out, a server error): the offline path decides. */
  | { kind: 'unreachable'; reason: string };

/** The parts of the cloud's `User` a sign-in reads. */
export interface CloudUser {
  id: string;
  authority: string;
  customerId: string | null;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
}

/** The cloud's REST base without a trailing slash, joined with `path`. */
function urlOf(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

function bearer(token: string): Record<string, string> {
  // ThingsBoard reads X-Authorization; other clouds (and this gateway) read Authorization as well.
  return { authorization: `Bearer ${token}`, [TB_AUTHORIZATION_HEADER]: `Bearer ${token}` };
}

async function getJson(base: string, path: string, token: string): Promise<unknown> {
  const res = await fetch(urlOf(base, path), { headers: bearer(token), signal: AbortSignal.timeout(CLOUD_CALL_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status}`);
  return res.json();
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function idOf(value: unknown): string | null {
  return value && typeof value === 'object' ? text((value as { id?: unknown }).id) : null;
}

export async function cloudLogin(base: string, username: string, password: string): Promise<CloudLoginOutcome> {
  try {
    const res = await fetch(urlOf(base, '/api/auth/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
      signal: AbortSignal.timeout(CLOUD_CALL_TIMEOUT_MS),
    });
    // ThingsBoard answers bad credentials and disabled accounts with 401; a malformed request with 400.
    if (res.status === 400 || res.status === 401 || res.status === 403) return { kind: 'refused' };
    if (!res.ok) return { kind: 'unreachable', reason: `HTTP ${res.status}` };
    const token = text(((await res.json()) as { token?: unknown }).token);
    return token ? { kind: 'accepted', token } : { kind: 'unreachable', reason: 'no token in the answer' };
  } catch (err) {
    return { kind: 'unreachable', reason: (err as Error).message };
  }
}

/** The signed-in cloud user; throws when the cloud does not answer with one. */
export async function cloudCurrentUser(base: string, token: string): Promise<CloudUser> {
  const body = (await getJson(base, '/api/auth/user', token)) as Record<string, unknown>;
  const id = idOf(body.id);
  const authority = text(body.authority);
  if (!id || !authority) throw new Error('GET /api/auth/user: no id or authority');
  return {
    id,
    authority,
    customerId: idOf(body.customerId),
    email: text(body.email),
    firstName: text(body.firstName),
    lastName: text(body.lastName),
  };
}

/** The title of the cloud customer `id`, or null when the cloud does not tell. */
export async function cloudCustomerTitle(base: string, token: string, id: string): Promise<string | null> {
  try {
    return text(((await getJson(base, `/api/customer/${encodeURIComponent(id)}`, token)) as { title?: unknown }).title);
  } catch {
    return null;
  }
}
