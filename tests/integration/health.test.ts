import { describe, expect, it } from 'vitest';
import { makeApp } from '../helpers/app.ts';

describe('GET /api/health', () => {
  it('answers 200 without authentication, naming the mode and version', async () => {
    const { app } = await makeApp();
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', mode: 'embedded', version: '0.0.0-test' });
  });

  it('answers an unknown API path with the error body, code 32, in the requested language', async () => {
    const { app } = await makeApp();
    const res = await app.inject({ method: 'GET', url: '/api/nope', headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 32, key: 'error.routeNotFound' });
    expect(res.json().message).toContain('/api/nope');
  });
});
