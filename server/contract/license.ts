/**
 * Licence and first-boot setup. The licence calls keep the product's literal URLs
 * (`/api/license/...`), which consoles of the same product family call.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { EpochMs, Nullable, OkSchema } from './common.ts';
import { PASSWORD_MAX, USERNAME_PATTERN, NAME_MAX, VISIBLE_TEXT_PATTERN } from './validation.ts';

/** Header carrying the setup code during first-boot provisioning. */
export const SETUP_CODE_HEADER = 'x-setup-code';

/** The signed payload of a `.lic` file. `device` is a serial number or '*' for any device. */
export const LicensePayloadSchema = Type.Object({
  licenseId: Type.String({ minLength: 1, maxLength: 64 }),
  customer: Type.String({ maxLength: 128 }),
  device: Type.String({ minLength: 1, maxLength: 128 }),
  issuedAt: EpochMs,
  expiresAt: EpochMs,
  maxDevices: Type.Integer({ minimum: 0 }),
  features: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 }),
});
export type LicensePayload = Static<typeof LicensePayloadSchema>;

/**
 * The largest `.lic` upload accepted. A licence is a few hundred bytes to a few KB (64 features of
 * 64 characters at most); anything near this is not one.
 */
export const LICENSE_MAX_BYTES = 64 * 1024;

/** A `.lic` file: the payload as canonical JSON text and its Ed25519 signature (base64). */
export const LicenseFileSchema = Type.Object({
  format: Type.Literal('edge-console-license/1'),
  payload: Type.String(),
  signature: Type.String(),
  /** SHA-256 fingerprint (hex) of the signing public key, to pick among trusted keys. */
  keyId: Type.String(),
});
export type LicenseFile = Static<typeof LicenseFileSchema>;

/** The console shows its expiry banner once fewer than this many whole days are left. */
export const LICENSE_WARN_DAYS = 30;

export const licenseStatuses = ['MISSING', 'VALID', 'EXPIRED'] as const;
// Type.Enum keeps the literal union in Static<>; a Union over a mapped array infers never.
export const LicenseStatusSchema = Type.Enum(licenseStatuses);
export type LicenseStatus = (typeof licenseStatuses)[number];

export const LicenseInfoSchema = Type.Object({
  status: LicenseStatusSchema,
  deviceSn: Type.String(),
  license: Type.Union([LicensePayloadSchema, Type.Null()]),
  /** Devices that exist now, to show beside `license.maxDevices` (0 there: no limit). */
  devicesUsed: Type.Integer({ minimum: 0 }),
  // The installed licence's fields flat, as shared/DESIGN.md §4 names them; null without a licence.
  licenseId: Nullable(Type.String()),
  /** Empty for a caller who is not signed in. */
  customer: Nullable(Type.String()),
  issuedAt: Nullable(EpochMs),
  expiresAt: Nullable(EpochMs),
  /** Whole days until expiry, rounded up; 0 once expired. The console warns below LICENSE_WARN_DAYS. */
  daysLeft: Nullable(Type.Integer({ minimum: 0 })),
  /** 0: no limit. */
  maxDevices: Nullable(Type.Integer({ minimum: 0 })),
  features: Type.Array(Type.String()),
});
export type LicenseInfo = Static<typeof LicenseInfoSchema>;

export const SetupStateSchema = Type.Object({
  /** A licence is installed (valid or expired); false sends the console to the activation wizard. */
  licensed: Type.Boolean(),
  /** The installed licence has expired; the console shows the expired-licence upload page. */
  licenseExpired: Type.Boolean(),
  cloudConfigured: Type.Boolean(),
  adminCreated: Type.Boolean(),
  deviceSn: Type.String(),
});
export type SetupState = Static<typeof SetupStateSchema>;

export const SetupAdminBodySchema = Type.Object(
  {
    username: Type.String({ pattern: USERNAME_PATTERN }),
    password: Type.String({ maxLength: PASSWORD_MAX + 98 }),
    platformName: Type.Optional(Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: VISIBLE_TEXT_PATTERN })),
  },
  { additionalProperties: false },
);
export type SetupAdminBody = Static<typeof SetupAdminBodySchema>;

export const licenseRoutes = defineRoutes({
  find: {
    method: 'GET',
    url: '/api/license/findLicense',
    schema: {
      tags: ['license'],
      summary: 'Licence status and payload of this gateway',
      response: { 200: LicenseInfoSchema },
    },
    config: { access: 'public' },
  },
  upload: {
    method: 'POST',
    url: '/api/license/uploading',
    schema: {
      tags: ['license'],
      summary: 'Upload a .lic licence (multipart field `file`); setup code or a signed-in user',
      consumes: ['multipart/form-data'],
      response: { 200: LicenseInfoSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
    },
    // Signed in with an expired or missing licence: the one way back.
    config: { access: 'setup', permission: 'license:upload', licenseFree: true },
  },
  setupState: {
    method: 'GET',
    url: '/api/yt/setup/state',
    schema: { tags: ['setup'], summary: 'First-boot state', response: { 200: SetupStateSchema } },
    config: { access: 'public' },
  },
  setupAdmin: {
    method: 'POST',
    url: '/api/yt/setup/admin',
    schema: {
      tags: ['setup'],
      summary: 'Create the administrator (only while none exists; then 409)',
      body: SetupAdminBodySchema,
      response: { 200: OkSchema, 400: ErrorBodySchema, 409: ErrorBodySchema },
    },
    config: { access: 'setup', firstBootOnly: true },
  },
});
