/**
 * Driving Node-RED instances through the gateway as a client would: the management API, a ticket
 * redeemed like a browser, and the proxied editor and admin API (tests/integration/node-red*.test.ts).
 */
import { expect } from 'vitest';
import type { NodeRedInstance, NodeRedTicket } from '../../server/contract/node-red.ts';
import type { TestApp } from './app.ts';
import { waitFor } from './wait-for.ts';
import { authHeader } from './session.ts';

export interface Gateway {
  t: TestApp;
  base: string;
  auth: { authorization: string };
}

export async function listen(t: TestApp, token: string): Promise<Gateway> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return { t, base: `http://127.0.0.1:${address.port}`, auth: authHeader(token) };
}

export async function call<T>(g: Gateway, method: string, url: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await g.t.app.inject({ method: method as 'GET', url, headers: g.auth, ...(body !== undefined ? { payload: body as object } : {}) });
  return { status: res.statusCode, json: res.json() as T };
}

export const running = (g: Gateway, id: string): Promise<NodeRedInstance> =>
  waitFor(`instance ${id} RUNNING`, async () => {
    const { json } = await call<NodeRedInstance>(g, 'GET', `/api/yt/node_red/${id}`);
    return json.status === 'RUNNING' ? json : null;
  });

/** Redeems a ticket like a browser and answers the session cookie. */
export async function editorCookie(g: Gateway, id: string): Promise<string> {
  const { json } = await call<NodeRedTicket>(g, 'POST', `/api/yt/node_red/${id}/ticket`);
  const res = await fetch(`${g.base}${json.editorUrl}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  expect(res.headers.get('location')).toBe(`/soft-gateway/node-red/${id}/editor/`);
  const cookie = res.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/HttpOnly/);
  expect(cookie).toMatch(/SameSite=Strict/);
  expect(cookie).toContain(`Path=/soft-gateway/node-red/${id}/editor/`);
  // Single use: the same link again is refused.
  expect((await fetch(`${g.base}${json.editorUrl}`, { redirect: 'manual' })).status).toBe(401);
  return cookie.split(';')[0]!;
}

export function editor(g: Gateway, id: string, path: string, cookie: string | null, init: RequestInit = {}): Promise<Response> {
  const headers = { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) };
  return fetch(`${g.base}/soft-gateway/node-red/${id}/editor/${path}`, { ...init, headers });
}

export async function deploy(g: Gateway, id: string, cookie: string, flows: unknown[]): Promise<void> {
  const res = await editor(g, id, 'flows', cookie, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Node-RED-Deployment-Type': 'full' },
    body: JSON.stringify(flows),
  });
  expect(res.ok).toBe(true);
}

