/** Branding shown before sign-in (login page, sidebar): public by design. */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { ImageRefSchema, IMAGE_REF_MAX } from './image-ref.ts';
import { NAME_MAX, REPORTED_NAME_PATTERN, VISIBLE_TEXT_PATTERN } from './validation.ts';

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

export const SLOGAN_MAX = 100;

/**
 * What operation management saves: the same fields the GET answers. The spec requires the name, a
 * logo and an icon; the slogan may be null (the login page then shows its own tagline).
 */
export const PlatformInfoBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: REPORTED_NAME_PATTERN }),
    logo: ImageRefSchema,
    icon: ImageRefSchema,
    slogan: Type.Union([Type.String({ maxLength: SLOGAN_MAX, pattern: VISIBLE_TEXT_PATTERN }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type PlatformInfoBody = Static<typeof PlatformInfoBodySchema>;

/** Two data-URI images at most, besides short text. */
export const PLATFORM_INFO_BODY_LIMIT = 2 * IMAGE_REF_MAX + 64 * 1024;

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
  update: {
    method: 'PUT',
    url: '/api/yt/platform/info',
    schema: {
      tags: ['platform'],
      summary: 'Set the platform name, logo, icon and slogan (applied live to every open console)',
      body: PlatformInfoBodySchema,
      response: { 200: PlatformInfoSchema, 400: ErrorBodySchema, 403: ErrorBodySchema, 413: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'platform:info:update' },
  },
  health: {
    method: 'GET',
    url: '/api/health',
    schema: { tags: ['platform'], summary: 'Liveness', response: { 200: HealthSchema } },
    config: { access: 'public' },
  },
});
