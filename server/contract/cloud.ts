/**
 * The cloud platform the gateway reports to: its address, port, key and secret. Stored during
 * first boot (setup code) or later by a signed-in user; the secret is never returned.
 */
import Type, { type Static } from 'typebox';
import { EpochMs } from './common.ts';
import { ErrorBodySchema } from './errors.ts';
import { defineRoutes } from './route.ts';
import { HOST_PATTERN, IPV4_PATTERN } from './validation.ts';

export const CloudConfigSchema = Type.Object(
  {
    platformAddress: Type.Union([
      Type.String({ pattern: IPV4_PATTERN }),
      Type.String({ pattern: HOST_PATTERN }),
    ]),
    platformPort: Type.Integer({ minimum: 1, maximum: 65535 }),
    platformKey: Type.String({ minLength: 1, maxLength: 128 }),
    platformSecret: Type.String({ minLength: 1, maxLength: 128 }),
    /** TLS to the cloud's broker even on a port other than 8883. */
    platformTls: Type.Optional(Type.Boolean()),
    /** The cloud's REST base (ThingsBoard-style), for signing in with cloud accounts. */
    platformHttpUrl: Type.Optional(Type.String({ maxLength: 512, pattern: '^https?://[^\\s]+$' })),
  },
  { additionalProperties: false },
);
export type CloudConfig = Static<typeof CloudConfigSchema>;
/** GET answer: the stored configuration (secret masked) or null when standalone. */
export const CloudConfigViewSchema = Type.Union([
  Type.Object({
    platformAddress: Type.String(),
    platformPort: Type.Integer(),
    platformKey: Type.String(),
    platformSecretSet: Type.Boolean(),
    updatedTime: EpochMs,
  }),
  Type.Null(),
]);
export type CloudConfigView = Static<typeof CloudConfigViewSchema>;

export const cloudRoutes = defineRoutes({
  get: {
    method: 'GET',
    url: '/api/yt/configuration/cloud',
    schema: {
      tags: ['cloud'],
      summary: 'Cloud platform configuration (secret never returned)',
      response: { 200: CloudConfigViewSchema },
    },
    config: { access: 'setup' },
  },
  save: {
    method: 'PUT',
    url: '/api/yt/configuration/cloud',
    schema: {
      tags: ['cloud'],
      summary: 'Store the cloud platform configuration',
      body: CloudConfigSchema,
      response: { 200: CloudConfigViewSchema, 400: ErrorBodySchema },
    },
    config: { access: 'setup' },
  },
});
