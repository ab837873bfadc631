/**
 * Gateway firmware: signed `.fw` packages uploaded to the gateway, staged and applied with
 * automatic rollback (docs/FIRMWARE.md). The file format is server/lib/firmware/firmware-format.ts.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { EpochMs } from './common.ts';

export const FIRMWARE_FORMAT = 'edge-console-firmware/1';
export const firmwareArches = ['x64', 'arm64'] as const;
export const FirmwareArchSchema = Type.Enum(firmwareArches);
export type FirmwareArch = Static<typeof FirmwareArchSchema>;
/** `major.minor.patch` with an optional pre-release, as package.json's version. */
export const FIRMWARE_VERSION_PATTERN = '^\\d{1,6}\\.\\d{1,6}\\.\\d{1,6}(-[0-9A-Za-z.-]{1,32})?$';
/** The largest `.fw` upload accepted (a binary is ~40 MB over its base Node). */
export const FIRMWARE_MAX_BYTES = 256 * 1024 * 1024;

/** The signed part of a `.fw`: what the binary is and which gateways may take it. */
export const FirmwareManifestSchema = Type.Object({
  format: Type.Literal(FIRMWARE_FORMAT),
  version: Type.String({ pattern: FIRMWARE_VERSION_PATTERN }),
  commit: Type.String({ maxLength: 64 }),
  arch: FirmwareArchSchema,
  /** The oldest running version that may update to this one (migrations it can take over). */
  minVersion: Type.String({ pattern: FIRMWARE_VERSION_PATTERN }),
  /** SHA-256 (hex) and length of the binary that follows the header. */
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  size: Type.Integer({ minimum: 1 }),
  buildTime: EpochMs,
});
export type FirmwareManifest = Static<typeof FirmwareManifestSchema>;

/** A package stored on the gateway: `staged` until applied, then `installed` or `rolledBack`. */
export const firmwarePackageStatuses = ['staged', 'trial', 'installed', 'rolledBack'] as const;
export const FirmwarePackageStatusSchema = Type.Enum(firmwarePackageStatuses);
export type FirmwarePackageStatus = Static<typeof FirmwarePackageStatusSchema>;

/** What an upload answers: the package's id and what it is, once verified. */
export const FirmwareUploadResultSchema = Type.Object({
  id: Type.String(),
  version: Type.String(),
  arch: FirmwareArchSchema,
  /** Always true: a package whose signature, arch or hash fails is never stored. */
  verified: Type.Boolean(),
});
export type FirmwareUploadResult = Static<typeof FirmwareUploadResultSchema>;

export const FirmwarePackageSchema = Type.Object({
  ...FirmwareUploadResultSchema.properties,
  commit: Type.String(),
  minVersion: Type.String(),
  sha256: Type.String(),
  size: Type.Integer(),
  buildTime: EpochMs,
  uploadedAt: EpochMs,
  status: FirmwarePackageStatusSchema,
});
export type FirmwarePackage = Static<typeof FirmwarePackageSchema>;

/** The last update's outcome, kept across the restart so the console can say what happened. */
export const FirmwareOutcomeSchema = Type.Object({
  result: Type.Enum(['installed', 'rolledBack'] as const),
  version: Type.String(),
  /** Why a trial was abandoned: `crashed` (3 starts without becoming healthy), `notReady`, `unhealthy`. */
  reason: Type.Optional(Type.String()),
  at: EpochMs,
});
export type FirmwareOutcome = Static<typeof FirmwareOutcomeSchema>;

export const FirmwareListSchema = Type.Object({
  /** The version serving this request. */
  runningVersion: Type.String(),
  /** `good`: running a version that passed its trial; `trial`: an update is being tried. */
  phase: Type.Enum(['good', 'trial'] as const),
  lastOutcome: Type.Union([FirmwareOutcomeSchema, Type.Null()]),
  packages: Type.Array(FirmwarePackageSchema),
});
export type FirmwareList = Static<typeof FirmwareListSchema>;


export const FirmwareApplyBodySchema = Type.Object(
  {
    /** Install a version not newer than the running one (audited like every apply). */
    allowDowngrade: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type FirmwareApplyBody = Static<typeof FirmwareApplyBodySchema>;

export const FirmwareApplyResultSchema = Type.Object({ id: Type.String(), version: Type.String(), restarting: Type.Boolean() });

const admin = { access: 'user', permission: 'system:firmware' } as const;

export const firmwareRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/firmware',
    schema: { tags: ['firmware'], summary: "The gateway's staged and installed firmware packages, and the last update's outcome", response: { 200: FirmwareListSchema } },
    config: admin,
  },
  upload: {
    method: 'POST',
    url: '/api/yt/firmware/upload',
    schema: {
      tags: ['firmware'],
      summary: 'Upload a signed .fw package (multipart field `file`); verified while it streams to disk',
      consumes: ['multipart/form-data'],
      response: { 200: FirmwareUploadResultSchema, 400: ErrorBodySchema, 413: ErrorBodySchema, 507: ErrorBodySchema },
    },
    config: admin,
  },
  apply: {
    method: 'POST',
    url: '/api/yt/firmware/:id/apply',
    schema: {
      tags: ['firmware'],
      summary: 'Stage a package and restart into it; rolled back unless it becomes healthy',
      params: Type.Object({ id: Type.String({ pattern: '^[0-9a-f]{16}$' }) }),
      body: FirmwareApplyBodySchema,
      response: { 202: FirmwareApplyResultSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema },
    },
    config: admin,
  },
});
