/**
 * Device OTA: firmware for a product's devices, delivered over ThingsBoard's device firmware
 * protocol (docs/THINGSBOARD.md, "Device firmware (OTA)"). A package belongs to one product; assigning it
 * queues devices, which are notified (shared attributes `fw_title`, `fw_version`, `fw_size`,
 * `fw_checksum`, `fw_checksum_algorithm`) at most `devicesPerMinute` a minute; devices fetch chunks
 * on MQTT `v2/fw/request/{requestId}/chunk/{n}` or HTTP `GET /api/v1/{token}/firmware` and report
 * `fw_state` telemetry, which the console follows live (OTA_PROGRESS on /api/ws).
 *
 * The upload is multipart: the text fields `title`, `version`, `checksumAlgorithm` and optionally
 * `checksum` come before the file field `file` (the file streams to disk as it arrives).
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { EpochMs, ResourceIdSchema } from './common.ts';

/** The checksum algorithms ThingsBoard offers for a package (its ChecksumAlgorithm, without murmur3). */
export const otaChecksumAlgorithms = ['SHA256', 'SHA384', 'SHA512', 'MD5', 'CRC32'] as const;
export const OtaChecksumAlgorithmSchema = Type.Enum(otaChecksumAlgorithms);
export type OtaChecksumAlgorithm = Static<typeof OtaChecksumAlgorithmSchema>;

/**
 * ThingsBoard's OtaPackageUpdateStatus: QUEUED and INITIATED are the server's (waiting for the rate
 * limit; notified), the rest the device reports as `fw_state` telemetry.
 */
export const otaStates = ['QUEUED', 'INITIATED', 'DOWNLOADING', 'DOWNLOADED', 'VERIFIED', 'UPDATING', 'UPDATED', 'FAILED'] as const;
export const OtaStateSchema = Type.Enum(otaStates);
export type OtaState = Static<typeof OtaStateSchema>;
/** States after which a device no longer needs its package. */
export const otaFinalStates: readonly OtaState[] = ['UPDATED', 'FAILED'];

/** The largest device firmware accepted. */
export const OTA_MAX_BYTES = 64 * 1024 * 1024;
/**
 * The largest chunk a device may ask for, ThingsBoard's default MQTT `max_payload_size`; a bigger
 * one (or a whole package above it) is answered PAYLOAD_TOO_LARGE on `v2/fw/error`.
 */
export const OTA_CHUNK_MAX_BYTES = 65_536;
/** ThingsBoard notifies 100 devices a minute (its queue's `pack_size` per `pack_interval_ms`). */
export const OTA_DEVICES_PER_MINUTE_DEFAULT = 100;

/** Title and version as ThingsBoard's OtaPackage limits them (255 characters). */
const Text = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' });

export const OtaUploadFieldsSchema = Type.Object(
  {
    title: Text,
    version: Text,
    checksumAlgorithm: OtaChecksumAlgorithmSchema,
    /** When given, the file's checksum must equal it (case aside), or the upload is refused. */
    checksum: Type.Optional(Type.String({ maxLength: 128, pattern: '^[0-9A-Fa-f]*$' })),
  },
  { additionalProperties: false },
);
export type OtaUploadFields = Static<typeof OtaUploadFieldsSchema>;

export const OtaPackageSchema = Type.Object({
  id: Type.String(),
  productId: Type.String(),
  title: Type.String(),
  version: Type.String(),
  fileName: Type.String(),
  size: Type.Integer({ minimum: 1 }),
  checksumAlgorithm: OtaChecksumAlgorithmSchema,
  /** Lower-case hex, as ThingsBoard writes it (CRC32: its bytes little-endian, as Guava prints it). */
  checksum: Type.String(),
  createdTime: EpochMs,
  /** Devices assigned this package, and those of them not yet UPDATED or FAILED. */
  assigned: Type.Integer({ minimum: 0 }),
  inProgress: Type.Integer({ minimum: 0 }),
});
export type OtaPackage = Static<typeof OtaPackageSchema>;

/** One device's progress with the package assigned to it. */
export const OtaDeviceSchema = Type.Object({
  deviceId: Type.String(),
  deviceName: Type.String(),
  packageId: Type.String(),
  state: OtaStateSchema,
  /** `fw_error` as the device reported it with FAILED. */
  error: Type.Union([Type.String(), Type.Null()]),
  updatedTime: EpochMs,
});
export type OtaDevice = Static<typeof OtaDeviceSchema>;

export const OtaAssignBodySchema = Type.Object(
  {
    /** The product's devices to update; absent: every device of the product. */
    deviceIds: Type.Optional(Type.Array(ResourceIdSchema, { minItems: 1, maxItems: 10_000 })),
  },
  { additionalProperties: false },
);
export type OtaAssignBody = Static<typeof OtaAssignBodySchema>;
export const OtaAssignResultSchema = Type.Object({ queued: Type.Integer({ minimum: 0 }) });

export const OtaSettingsSchema = Type.Object(
  { devicesPerMinute: Type.Integer({ minimum: 1, maximum: 10_000 }) },
  { additionalProperties: false },
);
export type OtaSettings = Static<typeof OtaSettingsSchema>;

export const OtaDeleteQuerySchema = Type.Object({
  /** Delete even while devices are still updating (their update is abandoned). */
  force: Type.Optional(Type.Boolean()),
});

/** OTA_PROGRESS on /api/ws: a package's device list now and at every change. */
export const OtaProgressCmdSchema = Type.Object({ cmdId: Type.Integer({ minimum: 0 }), packageId: ResourceIdSchema });
export type OtaProgressCmd = Static<typeof OtaProgressCmdSchema>;

const tags = ['ota'];
const ProductParams = Type.Object({ id: ResourceIdSchema });
const PackageParams = Type.Object({ id: ResourceIdSchema });
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema };
const view = { access: 'user', permission: 'device_profile:view' } as const;
const update = { access: 'user', permission: 'device_profile:update' } as const;

export const otaRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/product/:id/ota',
    schema: { tags, summary: "A product's device firmware packages, newest first", params: ProductParams, response: { 200: Type.Array(OtaPackageSchema), ...errors } },
    config: { ...view, productParam: 'id' },
  },
  upload: {
    method: 'POST',
    url: '/api/yt/product/:id/ota',
    schema: {
      tags,
      summary: 'Upload a device firmware (multipart: title, version, checksumAlgorithm, checksum?, then file); its checksum is computed as it streams to disk',
      consumes: ['multipart/form-data'],
      params: ProductParams,
      response: { 200: OtaPackageSchema, 413: ErrorBodySchema, 507: ErrorBodySchema, ...errors },
    },
    config: { ...update, productParam: 'id' },
  },
  remove: {
    method: 'DELETE',
    url: '/api/yt/ota/:id',
    schema: {
      tags,
      summary: 'Delete a device firmware; refused (409) while devices are updating to it unless force=true',
      params: PackageParams,
      querystring: OtaDeleteQuerySchema,
      response: { 200: Type.Object({}), 409: ErrorBodySchema, ...errors },
    },
    config: update,
  },
  assign: {
    method: 'POST',
    url: '/api/yt/ota/:id/assign',
    schema: {
      tags,
      summary: "Assign a firmware to all of its product's devices or the chosen ones: they are queued and notified at the rate limit",
      params: PackageParams,
      body: OtaAssignBodySchema,
      response: { 200: OtaAssignResultSchema, ...errors },
    },
    config: update,
  },
  devices: {
    method: 'GET',
    url: '/api/yt/ota/:id/devices',
    schema: { tags, summary: 'The devices assigned a firmware and their fw_state', params: PackageParams, response: { 200: Type.Array(OtaDeviceSchema), ...errors } },
    config: view,
  },
  settings: {
    method: 'GET',
    url: '/api/yt/ota/settings',
    schema: { tags, summary: 'How many devices are notified of a firmware a minute', response: { 200: OtaSettingsSchema } },
    config: view,
  },
  saveSettings: {
    method: 'PUT',
    url: '/api/yt/ota/settings',
    schema: { tags, summary: 'Set how many devices are notified of a firmware a minute', body: OtaSettingsSchema, response: { 200: OtaSettingsSchema, 400: ErrorBodySchema } },
    config: update,
  },
});
