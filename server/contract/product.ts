/**
 * Products, called device profiles on the wire (`/api/yt/device_profile`; console page
 * /device-manage/product): name, category, device type, access protocol, transport type,
 * TCP protocol and auth type, set-as-default flag, draft or published state, image.
 *
 * Rules (each refusal 400 code 31 with the key named and `details[].field` naming the field):
 * - name: NAME_PATTERN, 1–30 characters (`error.field.name`), unique (`error.product.nameTaken`);
 * - categoryId: an existing category (`error.product.categoryNotFound`), enabled when newly chosen
 *   (`error.product.categoryDisabled`);
 * - transportType TCP requires tcpProtocolType (`error.product.tcpProtocolTypeRequired`) and
 *   tcpAuthType (`error.product.tcpAuthTypeRequired`); any other transport refuses both
 *   (`error.product.tcpFieldsOnlyForTcp`);
 * - exactly one product is the default at all times: the first product becomes it, setting another
 *   moves the flag, deleting the default passes it to the oldest remaining product, and clearing
 *   the flag of the default is refused (`error.product.defaultRequired`);
 * - deviceType cannot change while devices use the product (`error.product.deviceTypeLocked`), nor
 *   transportType (`error.product.transportTypeLocked`);
 * - image: an uploaded image URI `/api/yt/oss/files/<sha256>.<png|jpg|jpeg|gif>` (`error.field.image`);
 * - delete: refused while devices use it (`error.product.inUse`).
 * - name on edit: a name a gateway gave the product (its sub-devices' `type`, REPORTED_NAME_PATTERN)
 *   may be sent back unchanged; a changed name follows NAME_PATTERN.
 * Device provisioning (ThingsBoard's "allow to create new devices" strategy, `POST /api/v1/provision`,
 * server/contract/provisioning.ts): `provisionEnabled` turns it on; turning it on the first time
 * generates `provisionDeviceKey` and `provisionDeviceSecret` (20 characters each), which the
 * product's answers show to the administrator and `regenerateProvision` replaces. Turning it off
 * keeps them, so firmware flashed with them works again once it is back on.
 * New products are DRAFT; `publish` makes them PUBLISHED (the thing-model module hooks its model
 * publication to the `product.published` event). Unknown `id`: 404 code 32 `error.notFound`.
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
  ReportedNameSchema,
  SortQueryProperties,
  UpdateBodyOf,
} from './common.ts';
import { ModbusGapMaxSchema, PollIntervalSchema } from './tcp-device.ts';
import { DESCRIPTION_MAX, NAME_MAX, NAME_PATTERN, REPORTED_NAME_MAX } from './validation.ts';

/**
 * Device types (`deviceType`). Declared with products because a device's type comes from its
 * product. A SENSOR can be attached to a GATEWAY.
 */
export const deviceTypes = ['DIRECT_CONNECTION', 'GATEWAY', 'SENSOR'] as const;
export const DeviceTypeSchema = Type.Enum(deviceTypes);
export type DeviceType = (typeof deviceTypes)[number];

/** Transport types of a product (`transportType`). */
export const transportTypes = ['DEFAULT', 'TCP', 'COAP', 'MQTT'] as const;
export const TransportTypeSchema = Type.Enum(transportTypes);
export type TransportType = (typeof transportTypes)[number];

/** TCP protocol type: MODBUS-RTU or a custom protocol. */
export const tcpProtocolTypes = ['MODBUS_RTU', 'CUSTOM'] as const;
export const TcpProtocolTypeSchema = Type.Enum(tcpProtocolTypes);
export type TcpProtocolType = (typeof tcpProtocolTypes)[number];

/** TCP auth type: register-then-send, data carrying (auth in every packet), registration package. */
export const tcpAuthTypes = ['REGISTER_SEND', 'DATA_CARRY', 'REGISTRATION_PACKAGE'] as const;
export const TcpAuthTypeSchema = Type.Enum(tcpAuthTypes);
export type TcpAuthType = (typeof tcpAuthTypes)[number];

/** Draft or published state of a product. */
export const productStatuses = ['DRAFT', 'PUBLISHED'] as const;
export const ProductStatusSchema = Type.Enum(productStatuses);
export type ProductStatus = (typeof productStatuses)[number];

/** An image uploaded through `POST /api/yt/oss/upload` (its `fileStaticUri`). */
export const OSS_IMAGE_URI_PATTERN = '^/api/yt/oss/files/[a-f0-9]{64}\\.(png|jpg|jpeg|gif)$';
/** Access protocol: free text naming what the devices speak (e.g. a protocol module's name). */
export const PROTOCOL_MAX = 64;

export const ProductSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  categoryId: Nullable(Type.String()),
  categoryName: Nullable(Type.String()),
  deviceType: DeviceTypeSchema,
  transportType: TransportTypeSchema,
  /** Set only for TCP. */
  tcpProtocolType: Nullable(TcpProtocolTypeSchema),
  /** Set only for TCP. */
  tcpAuthType: Nullable(TcpAuthTypeSchema),
  isDefault: Type.Boolean(),
  status: ProductStatusSchema,
  image: Nullable(Type.String()),
  description: Nullable(Type.String()),
  /** Access protocol (free text). */
  protocol: Nullable(Type.String()),
  /** Devices using this product. */
  deviceCount: Type.Integer({ minimum: 0 }),
  /** Devices may provision themselves with this product's key and secret. */
  provisionEnabled: Type.Boolean(),
  /** Generated when provisioning is first enabled; null before. */
  provisionDeviceKey: Nullable(Type.String()),
  provisionDeviceSecret: Nullable(Type.String()),
  /** Modbus polling period (server/contract/tcp-device.ts). */
  pollIntervalMs: PollIntervalSchema,
  /** Unused registers a Modbus request may bridge. */
  modbusGapMax: ModbusGapMaxSchema,
  createdTime: EpochMs,
  updatedTime: EpochMs,
});
export type Product = Static<typeof ProductSchema>;

const productBodyProperties = {
  name: Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: NAME_PATTERN }),
  categoryId: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  deviceType: DeviceTypeSchema,
  transportType: TransportTypeSchema,
  /** Required iff transportType is TCP. */
  tcpProtocolType: Type.Optional(Nullable(TcpProtocolTypeSchema)),
  /** Required iff transportType is TCP. */
  tcpAuthType: Type.Optional(Nullable(TcpAuthTypeSchema)),
  /** true makes this the default product (the previous default loses the flag). */
  isDefault: Type.Optional(Type.Boolean()),
  image: Type.Optional(Nullable(Type.String({ pattern: OSS_IMAGE_URI_PATTERN }))),
  description: Type.Optional(Nullable(Type.String({ maxLength: DESCRIPTION_MAX }))),
  protocol: Type.Optional(Nullable(Type.String({ maxLength: PROTOCOL_MAX }))),
  /** Left out: unchanged on edit, off on create. */
  provisionEnabled: Type.Optional(Type.Boolean()),
  /** Left out: POLL_INTERVAL_DEFAULT_MS (server/contract/tcp-device.ts). */
  pollIntervalMs: Type.Optional(PollIntervalSchema),
  /** Left out: MODBUS_GAP_DEFAULT. */
  modbusGapMax: Type.Optional(ModbusGapMaxSchema),
};

/** Create body (no `id`). */
export const ProductBodySchema = Type.Object(productBodyProperties, { additionalProperties: false });
export type ProductBody = Static<typeof ProductBodySchema>;

/**
 * Update body: the whole product with its `id` (left-out optional fields become unset; a left-out
 * isDefault keeps the flag as it is). The status is changed by `publish` only.
 */
export const ProductUpdateBodySchema = UpdateBodyOf({ ...productBodyProperties, name: ReportedNameSchema });
export type ProductUpdateBody = Static<typeof ProductUpdateBodySchema>;

export const productSortFields = ['name', 'createdTime', 'updatedTime', 'status'] as const;

/** Default order: the default product first, then newest first. */
export const ProductListQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  /** Substring of the name. */
  name: Type.Optional(Type.String({ maxLength: REPORTED_NAME_MAX })),
  categoryId: Type.Optional(Type.String({ maxLength: 64 })),
  transportType: Type.Optional(TransportTypeSchema),
  deviceType: Type.Optional(DeviceTypeSchema),
  status: Type.Optional(ProductStatusSchema),
  ...SortQueryProperties(productSortFields),
});
export type ProductListQuery = Static<typeof ProductListQuerySchema>;

export const ProductPageSchema = PageOf(ProductSchema);
export type ProductPage = Static<typeof ProductPageSchema>;

/** An entry of `me/list`, for the product selects of device forms, import and batch generation. */
export const ProductOptionSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  deviceType: DeviceTypeSchema,
  transportType: TransportTypeSchema,
  isDefault: Type.Boolean(),
  status: ProductStatusSchema,
});
export type ProductOption = Static<typeof ProductOptionSchema>;

const tags = ['product'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const productRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/device_profile',
    schema: {
      tags,
      summary: 'Products, paged (name search; category, transport, device type and status filters)',
      querystring: ProductListQuerySchema,
      response: { 200: ProductPageSchema, ...errors },
    },
    config: { access: 'user', permission: 'device_profile:list' },
  },
  options: {
    method: 'GET',
    url: '/api/yt/device_profile/me/list',
    schema: {
      tags,
      summary: 'Every product (id, name, deviceType, transportType, isDefault, status) by name, for selects',
      response: { 200: Type.Array(ProductOptionSchema), 401: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'device_profile:list' },
  },
  get: {
    method: 'GET',
    url: '/api/yt/device_profile/:id',
    schema: { tags, summary: 'One product', params: IdParamsSchema, response: { 200: ProductSchema, ...errors } },
    config: { access: 'user', permission: 'device_profile:view', productParam: 'id' },
  },
  create: {
    method: 'POST',
    url: '/api/yt/device_profile',
    schema: {
      tags,
      summary: 'Create a product (DRAFT; the first product becomes the default)',
      body: ProductBodySchema,
      response: { 200: ProductSchema, ...errors },
    },
    config: { access: 'user', permission: 'device_profile:create' },
  },
  update: {
    method: 'PUT',
    url: '/api/yt/device_profile',
    schema: {
      tags,
      summary: 'Edit a product (whole body with id)',
      body: ProductUpdateBodySchema,
      response: { 200: ProductSchema, ...errors },
    },
    config: { access: 'user', permission: 'device_profile:update' },
  },
  delete: {
    method: 'DELETE',
    url: '/api/yt/device_profile',
    schema: {
      tags,
      summary: 'Delete products; refused while devices use one. The default passes to the oldest remaining',
      body: IdsBodySchema,
      response: { 200: DeleteResultSchema, ...errors },
    },
    config: { access: 'user', permission: 'device_profile:delete' },
  },
  publish: {
    method: 'POST',
    url: '/api/yt/device_profile/:id/publish',
    schema: {
      tags,
      summary: 'Publish a product (DRAFT → PUBLISHED; publishing again is harmless)',
      params: IdParamsSchema,
      response: { 200: ProductSchema, ...errors },
    },
    config: { access: 'user', permission: 'device_profile:publish', productParam: 'id' },
  },
  setDefault: {
    method: 'POST',
    url: '/api/yt/device_profile/:id/default',
    schema: {
      tags,
      summary: 'Make a product the default (the previous default loses the flag)',
      params: IdParamsSchema,
      response: { 200: ProductSchema, ...errors },
    },
    config: { access: 'user', permission: 'device_profile:update', productParam: 'id' },
  },
  regenerateProvision: {
    method: 'POST',
    url: '/api/yt/device_profile/:id/provision/regenerate',
    schema: {
      tags,
      summary: 'New provision key and secret (devices holding the old ones can no longer provision)',
      params: IdParamsSchema,
      response: { 200: ProductSchema, ...errors },
    },
    config: { access: 'user', permission: 'device_profile:update', productParam: 'id' },
  },
});

/**
 * The console spec's `POST /deviceProfile/{a}/{b}` (no /yt prefix): ThingsBoard's
 * `POST /api/deviceProfile/{deviceProfileId}/default`, the same change as `productRoutes.setDefault`.
 * A table of its own: the console's product calls all live under /api/yt/.
 */
export const thingsBoardProductRoutes = defineRoutes({
  setDefault: {
    method: 'POST',
    url: '/api/deviceProfile/:id/default',
    schema: {
      tags,
      summary: "Make a product the default (ThingsBoard's path for the same call as /api/yt/device_profile/:id/default)",
      params: IdParamsSchema,
      response: { 200: ProductSchema, ...errors },
    },
    config: { access: 'user', permission: 'device_profile:update', productParam: 'id' },
  },
});
