import Fastify from 'fastify';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { lazySchemaController } from '../../server/lib/lazy-schema-compilers.ts';

async function appWithRoute() {
  const app = Fastify({ schemaController: lazySchemaController() });
  app.post(
    '/thing/:id',
    {
      schema: {
        headers: Type.Object({ 'X-Thing-Code': Type.String({ minLength: 3 }) }),
        params: Type.Object({ id: Type.Integer() }),
        body: Type.Object({ name: Type.String({ maxLength: 5 }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ id: Type.Integer(), name: Type.String() }) },
      },
    },
    async (request) => ({ ...(request.body as object), id: (request.params as { id: number }).id, secret: 'not in schema' }),
  );
  await app.ready();
  return app;
}

describe('schemas compiled on first use', () => {
  it('validates like Fastify: coerced params, case-insensitive header names, unknown body fields stripped', async () => {
    const app = await appWithRoute();
    const res = await app.inject({ method: 'POST', url: '/thing/7', headers: { 'x-thing-code': 'abc' }, payload: { name: 'box', extra: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 7, name: 'box' });
  });

  it('refuses invalid input with the validator details, on every request', async () => {
    const app = await appWithRoute();
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ method: 'POST', url: '/thing/7', headers: { 'x-thing-code': 'abc' }, payload: { name: 'far too long' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('body/name');
    }
    const noHeader = await app.inject({ method: 'POST', url: '/thing/7', payload: { name: 'box' } });
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json().message).toContain('x-thing-code');
    const badParam = await app.inject({ method: 'POST', url: '/thing/seven', headers: { 'x-thing-code': 'abc' }, payload: { name: 'box' } });
    expect(badParam.statusCode).toBe(400);
  });
});
