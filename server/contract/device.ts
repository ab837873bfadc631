/**
 * Devices (`/api/yt/device`; console page /device-manage/device).
 *
 * Rules (each refusal 400 code 31 with the key named and `details[].field` naming the field):
 * - name: NAME_PATTERN, 1–30 characters (`error.field.name`), unique (`error.device.nameTaken`).
 *   That is the rule for names a person types. Names devices report (a gateway's sub-devices,
 *   provisioning) keep their spelling: REPORTED_NAME_PATTERN, up to 255 characters ("Device A",
 *   "line 1/plc:3.temp"). An edit may send such a name back unchanged; a changed name must follow
 *   the typed rule;
 * - alias and label: at most 36 characters, no control or bidirectional characters
 *   (VISIBLE_TEXT_PATTERN; `error.field.alias`, `error.field.label`);
 * - deviceProfileId: an existing product (`error.device.productNotFound`); the device type comes
 *   from the product: `deviceType` must equal the product's (`error.device.typeMismatch`), except
 *   that a DIRECT_CONNECTION product's device may be a GATEWAY (ThingsBoard's per-device gateway
 *   flag; provisioning's `"gateway": true` makes one), and a product's type cannot change while
 *   devices use it;
 * - organizationId: an existing organization (`error.device.organizationNotFound`);
 * - gatewayId: only a SENSOR may have one (`error.device.gatewayNotAllowed`); it must be an existing
 *   device (`error.device.gatewayNotFound`) of type GATEWAY (`error.device.gatewayNotGateway`);
 * - addressCode: two hex digits 00–FF (`error.field.addressCode`), stored upper case. It addresses
 *   a TCP/Modbus sub-device; it is accepted on any product (a gateway may poll over Modbus whatever
 *   the product's transport says) and only used by the TCP transport;
 * - longitude −180..180 (`error.field.longitude`), latitude −90..90 (`error.field.latitude`), both
 *   or neither (`error.field.locationIncomplete`);
 * - a GATEWAY that still has sensors can neither be deleted nor lose its GATEWAY type
 *   (`error.device.gatewayHasSensors`): detach or delete the sensors first (or delete them in the
 *   same call).
 * New devices are INACTIVE with a generated ACCESS_TOKEN credential (server/contract/credentials.ts).
 * The deviceType and transport enums are declared in server/contract/product.ts (a device's type
 * and access protocol come from its product); responses carry the product's transportType.
 * Unknown `id`: 404 code 32 `error.notFound`.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import {
  DeleteResultSchema,
  EpochMs,
  IdParamsSchema,
  IdsBodySchema,
  Nullable,
  PageOf,
  PageQuerySchema,
  SortQueryProperties,
  ResourceIdSchema,
  ReportedNameSchema,
  UpdateBodyOf,
} from './common.ts';
import { ADDRESS_CODE_PATTERN, ALIAS_MAX, DESCRIPTION_MAX, NAME_MAX, NAME_PATTERN, REPORTED_NAME_MAX, VISIBLE_TEXT_PATTERN } from './validation.ts';
import { DeviceTypeSchema, TransportTypeSchema } from './product.ts';
import { ModbusTcpTargetSchema, RegistrationSchema } from './tcp-device.ts';

/**
 * Device states (`deviceState`). A device is stored INACTIVE (never connected), ONLINE or
 * OFFLINE; the transport moves it out of INACTIVE on its first connection. ACTIVE is never stored:
 * as a list filter it means "has connected at least once" (ONLINE or OFFLINE).
 */
export const deviceStates = ['OFFLINE', 'ONLINE', 'INACTIVE', 'ACTIVE'] as const;
export const DeviceStateSchema = Type.Enum(deviceStates);
export type DeviceState = (typeof deviceStates)[number];

export const LONGITUDE_MIN = -180;
export const LONGITUDE_MAX = 180;
export const LATITUDE_MIN = -90;
export const LATITUDE_MAX = 90;
/** Label: the same limit as the alias. */
export const LABEL_MAX = ALIAS_MAX;

export const DeviceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  alias: Nullable(Type.String()),
  deviceType: DeviceTypeSchema,
  deviceProfileId: Type.String(),
  /** The product's name. */
  productName: Type.String(),
  /** The product's transport type (the device's access protocol). */
  transportType: TransportTypeSchema,
  organizationId: Nullable(Type.String()),
  organizationName: Nullable(Type.String()),
  /** The GATEWAY this SENSOR is attached to. */
  gatewayId: Nullable(Type.String()),
  gatewayName: Nullable(Type.String()),
  /** Two upper-case hex digits. */
  addressCode: Nullable(Type.String()),
  label: Nullable(Type.String()),
  longitude: Nullable(Type.Number()),
  latitude: Nullable(Type.Number()),
  address: Nullable(Type.String()),
  /** Public or private flag. */
  isPublic: Type.Boolean(),
  /** Collected (favourite) flag. */
  isCollect: Type.Boolean(),
  description: Nullable(Type.String()),
  /** TCP registration string; generated for a TCP product's device when not given (server/contract/tcp-device.ts). */
  registration: Nullable(RegistrationSchema),
  /** Modbus TCP target the gateway dials; null: none. */
  modbusTcp: Nullable(ModbusTcpTargetSchema),
  /** INACTIVE, ONLINE or OFFLINE (never ACTIVE, see deviceStates). */
  deviceState: DeviceStateSchema,
  lastOnlineTime: Nullable(EpochMs),
  lastOfflineTime: Nullable(EpochMs),
  createdTime: EpochMs,
  updatedTime: EpochMs,
});
export type Device = Static<typeof DeviceSchema>;

export const DeviceNameSchema = Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: NAME_PATTERN });
export const AddressCodeSchema = Type.String({ pattern: ADDRESS_CODE_PATTERN });
export const LongitudeSchema = Type.Number({ minimum: LONGITUDE_MIN, maximum: LONGITUDE_MAX });
export const LatitudeSchema = Type.Number({ minimum: LATITUDE_MIN, maximum: LATITUDE_MAX });
export const AddressSchema = Type.String({ maxLength: DESCRIPTION_MAX });
const Id = ResourceIdSchema;

const deviceBodyProperties = {
  name: DeviceNameSchema,
  alias: Type.Optional(Nullable(Type.String({ maxLength: ALIAS_MAX, pattern: VISIBLE_TEXT_PATTERN }))),
  /** Must equal the product's deviceType. */
  deviceType: DeviceTypeSchema,
  deviceProfileId: Id,
  organizationId: Type.Optional(Nullable(Id)),
  /** Only for a SENSOR: the GATEWAY device it hangs off. */
  gatewayId: Type.Optional(Nullable(Id)),
  addressCode: Type.Optional(Nullable(AddressCodeSchema)),
  label: Type.Optional(Nullable(Type.String({ maxLength: LABEL_MAX, pattern: VISIBLE_TEXT_PATTERN }))),
  longitude: Type.Optional(Nullable(LongitudeSchema)),
  latitude: Type.Optional(Nullable(LatitudeSchema)),
  address: Type.Optional(Nullable(AddressSchema)),
  /** Private (false) when left out. */
  isPublic: Type.Optional(Type.Boolean()),
  description: Type.Optional(Nullable(Type.String({ maxLength: DESCRIPTION_MAX }))),
  registration: Type.Optional(Nullable(RegistrationSchema)),
  modbusTcp: Type.Optional(Nullable(ModbusTcpTargetSchema)),
};

/** Create body (no `id`). Free-text fields are trimmed; empty means unset. */
export const DeviceBodySchema = Type.Object(deviceBodyProperties, { additionalProperties: false });
export type DeviceBody = Static<typeof DeviceBodySchema>;

/**
 * Update body: the whole device with its `id` (PUT replaces: left-out optional fields become unset,
 * isPublic false; `registration` left out or null keeps the current one, a new one takes
 * `device:credentials:update`). State, favourite flag and credentials are not touched by it. `name` may be a
 * reported name when it is the device's own, unchanged (the service holds a new name to the typed rule).
 */
export const DeviceUpdateBodySchema = UpdateBodyOf({ ...deviceBodyProperties, name: ReportedNameSchema });
export type DeviceUpdateBody = Static<typeof DeviceUpdateBodySchema>;

export const deviceSortFields = ['name', 'alias', 'deviceType', 'deviceState', 'createdTime', 'lastOnlineTime'] as const;
export type DeviceSortField = (typeof deviceSortFields)[number];

/** Device list filters (all optional, combined with AND). Default order: newest first. */
export const DeviceListQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  /** Substring of the name or the alias. */
  name: Type.Optional(Type.String({ maxLength: REPORTED_NAME_MAX })),
  deviceState: Type.Optional(DeviceStateSchema),
  deviceType: Type.Optional(DeviceTypeSchema),
  deviceProfileId: Type.Optional(Type.String({ maxLength: 64 })),
  /** This organization and all its descendants. */
  organizationId: Type.Optional(Type.String({ maxLength: 64 })),
  /** Sensors attached to this gateway. */
  gatewayId: Type.Optional(Type.String({ maxLength: 64 })),
  /** true: favourites only; false: non-favourites only. */
  isCollect: Type.Optional(Type.Boolean()),
  ...SortQueryProperties(deviceSortFields),
});
export type DeviceListQuery = Static<typeof DeviceListQuerySchema>;

export const DevicePageSchema = PageOf(DeviceSchema);
export type DevicePage = Static<typeof DevicePageSchema>;

export const DeviceCollectBodySchema = Type.Object({ isCollect: Type.Boolean() }, { additionalProperties: false });
export type DeviceCollectBody = Static<typeof DeviceCollectBodySchema>;
export const DevicePublicBodySchema = Type.Object({ isPublic: Type.Boolean() }, { additionalProperties: false });
export type DevicePublicBody = Static<typeof DevicePublicBodySchema>;

/** Location modal: both coordinates or neither (null clears the position). */
export const DeviceLocationBodySchema = Type.Object(
  {
    longitude: Nullable(LongitudeSchema),
    latitude: Nullable(LatitudeSchema),
    address: Type.Optional(Nullable(AddressSchema)),
  },
  { additionalProperties: false },
);
export type DeviceLocationBody = Static<typeof DeviceLocationBodySchema>;

const tags = ['device'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const deviceRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/device',
    schema: {
      tags,
      summary: 'Devices, paged, filtered and sorted (organization filter includes descendants)',
      querystring: DeviceListQuerySchema,
      response: { 200: DevicePageSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:list' },
  },
  get: {
    method: 'GET',
    url: '/api/yt/device/:id',
    schema: { tags, summary: 'One device', params: IdParamsSchema, response: { 200: DeviceSchema, ...errors } },
    config: { access: 'user', permission: 'device:view', deviceParam: 'id' },
  },
  create: {
    method: 'POST',
    url: '/api/yt/device',
    schema: {
      tags,
      summary: 'Create a device: INACTIVE, with a generated 20-character ACCESS_TOKEN',
      body: DeviceBodySchema,
      response: { 200: DeviceSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:create' },
  },
  update: {
    method: 'PUT',
    url: '/api/yt/device',
    schema: {
      tags,
      summary: 'Edit a device (whole body with id); a new registration takes device:credentials:update',
      body: DeviceUpdateBodySchema,
      response: { 200: DeviceSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:update' },
  },
  delete: {
    method: 'DELETE',
    url: '/api/yt/device',
    schema: {
      tags,
      summary: 'Delete devices and their credentials; a gateway with sensors outside the list is refused',
      body: IdsBodySchema,
      response: { 200: DeleteResultSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:delete' },
  },
  collect: {
    method: 'PUT',
    url: '/api/yt/device/:id/collect',
    schema: {
      tags,
      summary: 'Favourite or unfavourite a device',
      params: IdParamsSchema,
      body: DeviceCollectBodySchema,
      response: { 200: DeviceSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:update', deviceParam: 'id' },
  },
  public: {
    method: 'PUT',
    url: '/api/yt/device/:id/public',
    schema: {
      tags,
      summary: 'Make a device public or private',
      params: IdParamsSchema,
      body: DevicePublicBodySchema,
      response: { 200: DeviceSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:update', deviceParam: 'id' },
  },
  location: {
    method: 'PUT',
    url: '/api/yt/device/:id/location',
    schema: {
      tags,
      summary: 'Set or clear the position (longitude, latitude, address)',
      params: IdParamsSchema,
      body: DeviceLocationBodySchema,
      response: { 200: DeviceSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:update', deviceParam: 'id' },
  },
});
