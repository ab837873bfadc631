/**
 * The cloud platform the gateway reports to: its MQTT address, port, key and secret (an empty
 * secret means access-token authentication), TLS, and the cloud's REST base for signing in with
 * cloud accounts. Stored during first boot (setup code) or later by a signed-in user; the secret is
 * never returned.
 */
import Type, { type Static } from 'typebox';
import { EpochMs } from './common.ts';
import { ErrorBodySchema } from './errors.ts';
import { defineRoutes } from './route.ts';
import { HOST_PATTERN, IPV4_PATTERN } from './validation.ts';

export const PLATFORM_HTTP_URL_MAX = 256;
/** The cloud's CA certificate file: PEM text of a few certificates (a chain) at most. */
export const PLATFORM_CA_MAX_BYTES = 16 * 1024;
export const PLATFORM_CA_EXTENSIONS = ['pem', 'crt', 'cer'] as const;
/** An http or https address with a host and no spaces (a path is allowed: a cloud behind a prefix). */
export const HTTP_URL_PATTERN = '^https?://[^\\s/?#]+(/[^\\s?#]*)?$';

export const CloudConfigSchema = Type.Object(
  {
    platformAddress: Type.Union([
      Type.String({ pattern: IPV4_PATTERN }),
      Type.String({ pattern: HOST_PATTERN }),
    ]),
    platformPort: Type.Integer({ minimum: 1, maximum: 65535 }),
    platformKey: Type.String({ minLength: 1, maxLength: 128 }),
    platformSecret: Type.String({ maxLength: 128 }),
    /** TLS to the broker even on a port other than 8883 (where it is always on). */
    platformTls: Type.Optional(Type.Boolean()),
    /** The cloud's REST base (ThingsBoard-style `/api/auth/login`), for signing in with cloud accounts. */
    platformHttpUrl: Type.Optional(Type.String({ maxLength: PLATFORM_HTTP_URL_MAX, pattern: HTTP_URL_PATTERN })),
    /**
     * The cloud's CA certificate(s) in PEM, trusted for the TLS connection instead of the system's
     * CAs (a private cloud). Left out: the stored one is kept; empty: none (the system's CAs).
     */
    platformCaPem: Type.Optional(Type.String({ maxLength: PLATFORM_CA_MAX_BYTES })),
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
    platformTls: Type.Boolean(),
    platformHttpUrl: Type.Union([Type.String(), Type.Null()]),
    /** The stored CA certificate (the first of the file): whom it names and until when it is valid. */
    platformCa: Type.Union([Type.Object({ subject: Type.String(), validTo: EpochMs }), Type.Null()]),
    updatedTime: EpochMs,
  }),
  Type.Null(),
]);
export type CloudConfigView = Static<typeof CloudConfigViewSchema>;

/** A connection test's outcome: `code` is the broker's CONNACK return code (0 accepted), -1 when no CONNACK came (the message says why). */

export const cloudRoutes = defineRoutes({
  get: {
    method: 'GET',
    url: '/api/yt/configuration/cloud',
    schema: {
      tags: ['cloud'],
      summary: 'Cloud platform configuration (secret never returned)',
      response: { 200: CloudConfigViewSchema },
    },
    // A provisioning endpoint (the wizard's cloud step, also after first boot): no licence gate,
    // like the licence upload; what the cloud link then shows (the edge state) is gated.
    config: { access: 'setup', permission: 'system:config', licenseFree: true },
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
    config: { access: 'setup', permission: 'system:config', licenseFree: true },
  },
});
