/** Branding shown before sign-in (login page, sidebar): public by design. */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';

export const PlatformInfoSchema = Type.Object({
  /**
   * Null while the administrator has not chosen one: the console then shows its own name in the
   * reader's language (`common:appTitle`), so a Chinese console does not greet with an English name.
   */
  name: Type.Union([Type.String(), Type.Null()]),
  logo: Type.Union([Type.String(), Type.Null()]),
  icon: Type.Union([Type.String(), Type.Null()]),
  slogan: Type.Union([Type.String(), Type.Null()]),
});
export type PlatformInfo = Static<typeof PlatformInfoSchema>;

export const HealthSchema = Type.Object({
  status: Type.Literal('ok'),
  version: Type.String(),
  // An enum, not a union of literals: fast-json-stringify serializes a union through an ajv
  // validator it compiles on the first answer, ~25 ms of the cold start's first health check.
  mode: Type.Enum(['embedded', 'proxy']),
  uptimeMs: Type.Integer(),
});
export type Health = Static<typeof HealthSchema>;

export const platformRoutes = defineRoutes({
  info: {
    method: 'GET',
    url: '/api/yt/platform/info',
    schema: { tags: ['platform'], summary: 'Platform name, logo, icon, slogan', response: { 200: PlatformInfoSchema } },
    config: { access: 'public' },
  },
  health: {
    method: 'GET',
    url: '/api/health',
    schema: { tags: ['platform'], summary: 'Liveness', response: { 200: HealthSchema } },
    config: { access: 'public' },
  },
});
