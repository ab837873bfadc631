import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { makeApp } from '../helpers/app.ts';

const upstreams: FastifyInstance[] = [];
afterEach(async () => {
  while (upstreams.length) await upstreams.pop()!.close();
});

/** A stand-in edge core: answers like ThingsKit and echoes what reached it. */
async function startUpstream(): Promise<string> {
  const up = Fastify();
  await up.register(websocket);
  const seen = (request: { method: string; url: string; headers: Record<string, unknown> }) => ({
    method: request.method,
    url: request.url,
    authorization: request.headers.authorization ?? null,
    acceptLanguage: request.headers['accept-language'] ?? null,
    forwardedFor: request.headers['x-forwarded-for'] ?? null,
  });
  up.post('/api/auth/login', async (request, reply) => {
    const body = request.body as { username: string; password: string };
    if (body.password !== 'right') {
      return reply.code(401).send({ code: 10, key: 'error.auth.badCredentials', message: 'upstream says no' });
    }
    return { token: 'upstream-token', refreshToken: 'upstream-refresh', seen: seen(request), body };
  });
  up.get('/api/yt/user/me/info', async (request, reply) => {
    if (request.headers.authorization === 'Bearer expired') {
      return reply.code(401).send({ code: 11, key: 'error.auth.tokenExpired', message: 'token expired upstream' });
    }
    if (request.headers.authorization === 'Bearer unlicensed') {
      return reply.code(403).send({ code: 99, key: 'error.license.expired', message: 'licence expired upstream' });
    }
    return { username: 'admin', seen: seen(request), query: request.query };
  });
  up.put('/api/yt/notes', async (request) => ({ seen: seen(request), text: request.body }));
  up.get('/api/health', async () => ({ status: 'ok', version: 'upstream', mode: 'embedded', uptimeMs: 1 }));
  up.get('/api/ws', { websocket: true }, (socket, request) => {
    socket.send(JSON.stringify({ hello: 'upstream', query: request.query, forwardedFor: request.headers['x-forwarded-for'] ?? null }));
    socket.on('message', (data) => socket.send(`echo:${String(data)}`));
  });
  await up.listen({ port: 0, host: '127.0.0.1' });
  upstreams.push(up);
  return `http://127.0.0.1:${(up.server.address() as { port: number }).port}`;
}

describe('proxy mode (--upstream)', () => {
  it('forwards sign-in with its body, status and answer unchanged', async () => {
    const { app } = await makeApp({ upstream: await startUpstream() });
    const ok = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'accept-language': 'en-US' },
      payload: { username: 'admin', password: 'right' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      token: 'upstream-token',
      refreshToken: 'upstream-refresh',
      body: { username: 'admin', password: 'right' },
      seen: { method: 'POST', url: '/api/auth/login', acceptLanguage: 'en-US' },
    });

    const refused = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: 'wrong' } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ code: 10, key: 'error.auth.badCredentials', message: 'upstream says no' });
  });

  it('passes the bearer token and the query string, and the upstream 401 and 99 answers as they are', async () => {
    const { app } = await makeApp({ upstream: await startUpstream() });
    const info = await app.inject({ url: '/api/yt/user/me/info?_t=123&lang=en', headers: { authorization: 'Bearer good' } });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({
      seen: { authorization: 'Bearer good', url: '/api/yt/user/me/info?_t=123&lang=en' },
      query: { _t: '123', lang: 'en' },
    });

    const expired = await app.inject({ url: '/api/yt/user/me/info', headers: { authorization: 'Bearer expired' } });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ code: 11, key: 'error.auth.tokenExpired', message: 'token expired upstream' });

    const unlicensed = await app.inject({ url: '/api/yt/user/me/info', headers: { authorization: 'Bearer unlicensed' } });
    expect(unlicensed.statusCode).toBe(403);
    expect(unlicensed.json()).toEqual({ code: 99, key: 'error.license.expired', message: 'licence expired upstream' });
  });

  it('streams non-JSON bodies through with their method', async () => {
    const { app } = await makeApp({ upstream: await startUpstream() });
    const res = await app.inject({ method: 'PUT', url: '/api/yt/notes', headers: { 'content-type': 'text/plain' }, payload: 'plain words' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ seen: { method: 'PUT' }, text: 'plain words' });
  });

  it('answers /api/health itself, naming proxy mode', async () => {
    const { app } = await makeApp({ upstream: await startUpstream() });
    const res = await app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', mode: 'proxy', version: '0.0.0-test' });
  });

  it('carries the /api/ws websocket both ways', async () => {
    const { app } = await makeApp({ upstream: await startUpstream() });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws?token=abc`);
    const messages: string[] = [];
    const done = new Promise<void>((resolve, reject) => {
      ws.on('message', (data) => {
        messages.push(String(data));
        if (messages.length === 1) ws.send('ping-1');
        else resolve();
      });
      ws.on('error', reject);
    });
    await done;
    ws.close();
    expect(JSON.parse(messages[0]!)).toMatchObject({ hello: 'upstream', query: { token: 'abc' } });
    expect(messages[1]).toBe('echo:ping-1');
  });

  it("tells the upstream the client's address in X-Forwarded-For, appended to what the client sent, on HTTP and the websocket", async () => {
    const { app } = await makeApp({ upstream: await startUpstream() });
    const direct = await app.inject({ url: '/api/yt/user/me/info', remoteAddress: '10.2.0.7' });
    expect(direct.json()).toMatchObject({ seen: { forwardedFor: '10.2.0.7' } });
    const chained = await app.inject({ url: '/api/yt/user/me/info', remoteAddress: '10.2.0.8', headers: { 'x-forwarded-for': '192.0.2.1' } });
    expect(chained.json()).toMatchObject({ seen: { forwardedFor: '192.0.2.1, 10.2.0.8' } });

    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, { headers: { 'x-forwarded-for': '192.0.2.9' } });
    const first = await new Promise<string>((resolve, reject) => {
      ws.once('message', (data) => resolve(String(data)));
      ws.on('error', reject);
    });
    ws.close();
    expect(JSON.parse(first)).toMatchObject({ forwardedFor: '192.0.2.9, 127.0.0.1' });
  });

  it('answers 502 with the error body when the upstream is down', async () => {
    const down = await startUpstream();
    await upstreams.pop()!.close();
    const { app } = await makeApp({ upstream: down });
    const res = await app.inject({ url: '/api/yt/user/me/info', headers: { 'accept-language': 'en-US' } });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      code: 2,
      key: 'error.proxy.upstreamUnavailable',
      message: 'The upstream service cannot be reached',
    });
  });
});
