/**
 * Thing models (`/api/yt/things_model`), edited on the product detail's thing-model tab.
 *
 * A product's model is a list of items: properties (a value with a data type), services (input and
 * output parameters, ASYNC or SYNC) and events (INFO, ALERT or ERROR with output parameters).
 * Edits write the draft; `publish` snapshots the whole draft as the next published version, and
 * only the published version applies to devices (telemetry checks, commands, events). An item's
 * `status` is PUBLISHED while it equals its copy in the latest published version, else DRAFT; the
 * model `status` call says whether the draft differs from what is published.
 *
 * Rules (each refusal 400 code 31 with the key named and `details[].field` naming the field, e.g.
 * `body.functionJson.dataType.specs.max`):
 * - functionName: 1–30 characters, Chinese characters, letters, digits, `-`, `_` (`error.thingModel.functionName`);
 * - identifier: 1–32 characters, letters, digits, `_` (`error.thingModel.identifier`), unique among the
 *   product's items whatever their function type (`error.thingModel.identifierTaken`). On a TCP product
 *   the identifier `source` is reserved (`error.thingModel.identifierReserved`): a TCP device's raw frames
 *   are kept under it as they came;
 * - by function type: properties need `accessMode` and `functionJson.dataType`; services need `callType`
 *   and may have `inputData`/`outputData`; events need `eventType` and may have `outputData`. A field of
 *   another function type is refused (`error.thingModel.notForFunctionType`), a needed one is
 *   `error.field.required`;
 * - data types (`dataType.specs` by `dataType.type`):
 *   - INT, DOUBLE: `{ min, max, step?, unit?, unitName? }` (numbers may come as numeric text and are
 *     stored as numbers). INT bounds and step are int32 integers (`error.thingModel.number.int32`),
 *     DOUBLE ones finite numbers (`error.thingModel.number.invalid`); max ≥ min
 *     (`error.thingModel.number.maxBelowMin`); step > 0 (`error.thingModel.number.stepPositive`) and
 *     ≤ max − min (`error.thingModel.number.stepExceedsRange`); unit and unitName ≤ 32 (`error.thingModel.unit`);
 *   - TEXT: `{ length }`, an integer 1–10240 (`error.thingModel.text.length`);
 *   - BOOL: `{ "0": closeName, "1": openName }`, each 1–20 characters after trimming
 *     (`error.thingModel.bool.name`), different (`error.thingModel.bool.namesEqual`);
 *   - ENUM: `[{ value, description }]`, 1–100 items (`error.thingModel.enum.items`); value an int32
 *     integer (`error.thingModel.enum.value`); description 1–20 characters starting with a letter,
 *     Chinese character or digit (`error.thingModel.enum.description`); values and descriptions unique
 *     (`error.thingModel.enum.valueDuplicate`, `error.thingModel.enum.descriptionDuplicate`);
 *   - STRUCT: `[{ identifier, functionName, dataType }]`, 1–100 members (`error.thingModel.struct.members`),
 *     no STRUCT member (`error.thingModel.struct.nested`);
 *   malformed specs for the type: `error.thingModel.specs`;
 * - parameters (`inputData`, `outputData`, STRUCT members): `{ identifier, functionName, dataType }`
 *   under the same name and data type rules, at most 100 (`error.thingModel.params`), identifiers unique
 *   within their list (`error.thingModel.paramDuplicate`). A service or event parameter may be a STRUCT.
 * - `extensionDesc` (Modbus extension descriptor, see `ModbusDescriptorInputSchema`): only on products
 *   with transportType TCP and tcpProtocolType MODBUS_RTU (`error.thingModel.modbus.notModbusProduct`)
 *   and only on properties (`error.thingModel.modbus.propertiesOnly`); optional there (a property
 *   without one is not polled, e.g. one the device reports by itself).
 * - publish: at least one item (`error.thingModel.emptyModel`).
 * - TSL import: all or nothing; the refusal is `error.thingModel.tsl.invalid` with one detail per broken
 *   rule, `field` locating it in the file (`body.properties.2.functionJson.dataType.specs.max`), plus
 *   `error.thingModel.identifierDuplicate` for an identifier repeated in the file and
 *   `error.thingModel.tsl.itemMalformed` for an entry that is not an object,
 *   `error.thingModel.tsl.tooDeep` for one nesting objects and arrays deeper than 32 levels. A file without items is
 *   `error.thingModel.tsl.empty`; a group that is not a list or holds over 1000 entries
 *   `error.thingModel.tsl.group`; a file over 5 MB is 413 `error.payloadTooLarge`.
 * Unknown product or item ids: 404 code 32 `error.notFound` (a create naming an unknown product:
 * 400 `error.thingModel.productNotFound` on `deviceProfileId`).
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DeleteResultSchema, EpochMs, IdsBodySchema, Nullable, PageOf, PageQuerySchema, UpdateBodyOf } from './common.ts';
import { ProductStatusSchema } from './product.ts';
// A service's call type is a command's call type (ASYNC or SYNC), declared once with commands.
import { CommandCallTypeSchema as CallTypeSchema } from './command.ts';
import { INT32_MAX, INT32_MIN } from './validation.ts';

/** Function types of a model item. */
export const functionTypes = ['properties', 'services', 'events'] as const;
export const FunctionTypeSchema = Type.Enum(functionTypes);
export type FunctionType = (typeof functionTypes)[number];

/** Access mode of a property: read-only or read/write. */
export const accessModes = ['r', 'rw'] as const;
export const AccessModeSchema = Type.Enum(accessModes);
export type AccessMode = (typeof accessModes)[number];

/** Data types of a property or parameter. */
export const thingModelDataTypes = ['INT', 'DOUBLE', 'TEXT', 'STRUCT', 'BOOL', 'ENUM'] as const;
export const ThingModelDataTypeNameSchema = Type.Enum(thingModelDataTypes);
export type ThingModelDataTypeName = (typeof thingModelDataTypes)[number];

/** The type of an event. */
export const thingModelEventTypes = ['INFO', 'ALERT', 'ERROR'] as const;
export const ThingModelEventTypeSchema = Type.Enum(thingModelEventTypes);
export type ThingModelEventType = (typeof thingModelEventTypes)[number];

/** Status of an item: unpublished (draft) or published. */
export const thingModelItemStatuses = ['DRAFT', 'PUBLISHED'] as const;
export const ThingModelItemStatusSchema = Type.Enum(thingModelItemStatuses);
export type ThingModelItemStatus = (typeof thingModelItemStatuses)[number];

// Limits of model items, declared once for the server's rules and the console's forms.
export const FUNCTION_NAME_MAX = 30;
export const FUNCTION_NAME_PATTERN = '^[\\u4e00-\\u9fa5A-Za-z0-9_\\-]+$';
export const IDENTIFIER_MAX = 32;
export const IDENTIFIER_PATTERN = '^[A-Za-z0-9_]+$';
/** On TCP products this identifier holds the device's raw frames (see the file comment). */
export const TCP_SOURCE_IDENTIFIER = 'source';
export const UNIT_MAX = 32;
export const TEXT_LENGTH_MAX = 10240;
export const BOOL_NAME_MAX = 20;
export const ENUM_ITEMS_MAX = 100;
export const ENUM_DESCRIPTION_MAX = 20;
/** An enum description starts with a letter, a Chinese character or a digit. */
export const ENUM_DESCRIPTION_PATTERN = '^[\\u4e00-\\u9fa5A-Za-z0-9]';
/** Parameters of a service or event, and members of a STRUCT. */
export const PARAMS_MAX = 100;
/** Items per group (properties, services, events) of an imported TSL file. */
export const TSL_ITEMS_MAX = 1000;
/** Model (TSL) files are at most 5 MB. */
export const TSL_MAX_BYTES = 5 * 1024 * 1024;
/**
 * Deepest nesting of objects and arrays in one entry of an imported TSL file. The deepest valid
 * entry nests about a dozen levels (a service parameter's STRUCT member's ENUM item); checking an
 * entry recurses, so a 5 MB file could otherwise nest far past what the stack holds.
 */
export const TSL_ENTRY_DEPTH_MAX = 32;
/** The `format` an exported TSL file carries (import accepts files without it). */
export const TSL_FORMAT = 'edge-console/thing-model-tsl@1';

// ---- Data types -----------------------------------------------------------------------------

export const FunctionNameSchema = Type.String({ minLength: 1, maxLength: FUNCTION_NAME_MAX, pattern: FUNCTION_NAME_PATTERN });
export const IdentifierSchema = Type.String({ minLength: 1, maxLength: IDENTIFIER_MAX, pattern: IDENTIFIER_PATTERN });
const functionName = FunctionNameSchema;
const identifier = IdentifierSchema;

/** INT and DOUBLE: value range, optional step and unit (unit is the symbol, unitName its name). */
export const NumberSpecsSchema = Type.Object({
  min: Type.Number(),
  max: Type.Number(),
  step: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  unit: Type.Optional(Type.String({ maxLength: UNIT_MAX })),
  unitName: Type.Optional(Type.String({ maxLength: UNIT_MAX })),
});
export type NumberSpecs = Static<typeof NumberSpecsSchema>;

export const TextSpecsSchema = Type.Object({ length: Type.Integer({ minimum: 1, maximum: TEXT_LENGTH_MAX }) });
export type TextSpecs = Static<typeof TextSpecsSchema>;

/** BOOL: the names of 0 (close) and 1 (open). */
export const BoolSpecsSchema = Type.Object({
  '0': Type.String({ minLength: 1, maxLength: BOOL_NAME_MAX }),
  '1': Type.String({ minLength: 1, maxLength: BOOL_NAME_MAX }),
});
export type BoolSpecs = Static<typeof BoolSpecsSchema>;

export const EnumItemSchema = Type.Object({
  value: Type.Integer({ minimum: INT32_MIN, maximum: INT32_MAX }),
  description: Type.String({ minLength: 1, maxLength: ENUM_DESCRIPTION_MAX }),
});
export type EnumItem = Static<typeof EnumItemSchema>;

/** Every data type but STRUCT: what a STRUCT member may be. */
export const ScalarDataTypeSchema = Type.Union([
  Type.Object({ type: Type.Literal('INT'), specs: NumberSpecsSchema }),
  Type.Object({ type: Type.Literal('DOUBLE'), specs: NumberSpecsSchema }),
  Type.Object({ type: Type.Literal('TEXT'), specs: TextSpecsSchema }),
  Type.Object({ type: Type.Literal('BOOL'), specs: BoolSpecsSchema }),
  Type.Object({ type: Type.Literal('ENUM'), specs: Type.Array(EnumItemSchema) }),
]);
export type ScalarDataType = Static<typeof ScalarDataTypeSchema>;

export const StructMemberSchema = Type.Object({ identifier, functionName, dataType: ScalarDataTypeSchema });
export type StructMember = Static<typeof StructMemberSchema>;

export const StructDataTypeSchema = Type.Object({ type: Type.Literal('STRUCT'), specs: Type.Array(StructMemberSchema) });
export type StructDataType = Static<typeof StructDataTypeSchema>;

/** `{ type, specs }`, specs by type (see the file comment). */
export const DataTypeSchema = Type.Union([...ScalarDataTypeSchema.anyOf, StructDataTypeSchema]);
export type DataType = Static<typeof DataTypeSchema>;

/** A service input or output parameter, or an event output parameter. */
export const ThingModelParamSchema = Type.Object({ identifier, functionName, dataType: DataTypeSchema });
export type ThingModelParam = Static<typeof ThingModelParamSchema>;

/** properties: `dataType`; services: `inputData`, `outputData`; events: `outputData`. */
export const FunctionJsonSchema = Type.Object({
  dataType: Type.Optional(DataTypeSchema),
  inputData: Type.Optional(Type.Array(ThingModelParamSchema)),
  outputData: Type.Optional(Type.Array(ThingModelParamSchema)),
});
export type FunctionJson = Static<typeof FunctionJsonSchema>;

// ---- Modbus extension descriptor --------------------------------------------------------------

/**
 * What a Modbus property reads or writes, by object kind and direction (function codes in brackets):
 * coils read (01), write (05/15) or both; holding registers read (03), write (06/16) or both.
 * Discrete inputs (02) and input registers (04) are read-only in Modbus itself, so they have a read
 * variant only: every kind has read, write and read-write variants as far as the protocol allows.
 */
export const modbusOperationTypes = [
  'COIL_READ',
  'COIL_WRITE',
  'COIL_READ_WRITE',
  'DISCRETE_INPUT_READ',
  'HOLDING_REGISTER_READ',
  'HOLDING_REGISTER_WRITE',
  'HOLDING_REGISTER_READ_WRITE',
  'INPUT_REGISTER_READ',
] as const;
export const ModbusOperationTypeSchema = Type.Enum(modbusOperationTypes);
export type ModbusOperationType = (typeof modbusOperationTypes)[number];

/**
 * The raw type in the device's registers. Letters give the byte order, A the most significant byte:
 * INT16_AB is big-endian, INT16_BA little-endian; INT32_ABCD big-endian, INT32_DCBA little-endian,
 * INT32_CDAB word-swapped, INT32_BADC byte-swapped. DOUBLE is 64-bit IEEE big-endian (4 registers),
 * STRING is ASCII (two characters per register, `registerCount` registers), BOOLEAN a coil or a
 * register that is 0 or not, BITS one bit of a 16-bit register (`bitPosition` or `bitMask`).
 */
export const modbusDataTypes = [
  'INT16_AB',
  'INT16_BA',
  'UINT16_AB',
  'UINT16_BA',
  'INT32_ABCD',
  'INT32_CDAB',
  'INT32_BADC',
  'INT32_DCBA',
  'UINT32_ABCD',
  'UINT32_CDAB',
  'UINT32_BADC',
  'UINT32_DCBA',
  'FLOAT_ABCD',
  'FLOAT_CDAB',
  'FLOAT_BADC',
  'FLOAT_DCBA',
  'DOUBLE',
  'STRING',
  'BOOLEAN',
  'BITS',
] as const;
export const ModbusDataTypeSchema = Type.Enum(modbusDataTypes);
export type ModbusDataType = (typeof modbusDataTypes)[number];

export const REGISTER_ADDRESS_MAX = 0xffff;
export const REGISTER_COUNT_MAX = 125;
export const BIT_POSITION_MAX = 15;
export const BIT_MASK_MAX = 0xffff;
export const VALUE_MAPPING_MAX = 100;
export const VALUE_MAPPING_TEXT_MAX = 32;
/** A register address or bit mask written as hex text: `0x` and 1–4 hex digits. */
export const HEX_WORD_PATTERN = '^0[xX][0-9A-Fa-f]{1,4}$';

/** A number, or hex text `0x…` (stored as the number). */
const NumberOrHex = Type.Union([Type.Integer(), Type.String({ maxLength: 8 })]);

/**
 * The Modbus extension descriptor of a property, as a client sends it. Rules (400 code 31, field under
 * `extensionDesc.`):
 * - registerAddress 0x0–0xFFFF, a number or `0x…` text (`error.thingModel.modbus.registerAddress`);
 * - coils and discrete inputs hold BOOLEAN only (`error.thingModel.modbus.coilDataType`);
 * - scaleFactor a number other than 0, default 1 (`error.thingModel.modbus.scaleFactor`);
 * - BITS needs exactly one of bitPosition 0–15 (`error.thingModel.modbus.bitPosition`) or bitMask
 *   1–0xFFFF, number or `0x…` (`error.thingModel.modbus.bitMask`) (`error.thingModel.modbus.bitChoice`);
 *   other data types take neither (`error.thingModel.modbus.bitsOnly`);
 * - registerCount 1–125 for holding and input registers (`error.thingModel.modbus.registerCount`), at
 *   least the data type's width (`error.thingModel.modbus.registerCountTooSmall`), required for
 *   STRING, else defaulting to the width (1; 2 for 32-bit types; 4 for DOUBLE); coils and discrete
 *   inputs take none (`error.thingModel.modbus.registerCountRegistersOnly`);
 * - a read-only operation on an `rw` property, or a write-only one on an `r` property, is
 *   `error.thingModel.modbus.accessMismatch`;
 * - valueMapping: raw value (numeric text) → display text of 1–32 characters, at most 100 entries
 *   (`error.thingModel.modbus.valueMapping`).
 */
export const ModbusDescriptorInputSchema = Type.Object(
  {
    operationType: ModbusOperationTypeSchema,
    registerAddress: NumberOrHex,
    originalDataType: ModbusDataTypeSchema,
    scaleFactor: Type.Optional(Type.Number()),
    bitPosition: Type.Optional(Type.Integer({ minimum: 0, maximum: BIT_POSITION_MAX })),
    bitMask: Type.Optional(NumberOrHex),
    registerCount: Type.Optional(Type.Integer({ minimum: 1, maximum: REGISTER_COUNT_MAX })),
    valueMapping: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);
export type ModbusDescriptorInput = Static<typeof ModbusDescriptorInputSchema>;

/** The stored descriptor: numbers resolved, scale factor and register count filled in. */
export const ModbusDescriptorSchema = Type.Object({
  operationType: ModbusOperationTypeSchema,
  registerAddress: Type.Integer({ minimum: 0, maximum: REGISTER_ADDRESS_MAX }),
  originalDataType: ModbusDataTypeSchema,
  scaleFactor: Type.Number(),
  bitPosition: Type.Optional(Type.Integer({ minimum: 0, maximum: BIT_POSITION_MAX })),
  bitMask: Type.Optional(Type.Integer({ minimum: 1, maximum: BIT_MASK_MAX })),
  /** Set for holding and input registers only. */
  registerCount: Type.Optional(Type.Integer({ minimum: 1, maximum: REGISTER_COUNT_MAX })),
  valueMapping: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type ModbusDescriptor = Static<typeof ModbusDescriptorSchema>;

/** A data type as sent: the type name; the specs are checked by the server's rules. */
export const DataTypeOutlineSchema = Type.Object({ type: ThingModelDataTypeNameSchema, specs: Type.Optional(Type.Unknown()) });

/** A parameter or STRUCT member as sent (see `FunctionJsonInputSchema`). */
export const ThingModelParamInputSchema = Type.Object({ identifier, functionName, dataType: DataTypeOutlineSchema });

// ---- Items -----------------------------------------------------------------------------------

/**
 * `functionJson` as a client sends it: the schema checks the outline only (data type name, lists),
 * and the server's rules check specs and parameters by data type. A schema of every variant would
 * have ajv coerce numbers into the wrong variant's shape and answer with one error per variant
 * instead of the rule that was broken. The static type is the precise shape clients should send.
 */
const FunctionJsonInputSchema = Type.Unsafe<FunctionJson>(
  Type.Object({
    dataType: Type.Optional(DataTypeOutlineSchema),
    inputData: Type.Optional(Type.Array(Type.Unknown())),
    outputData: Type.Optional(Type.Array(Type.Unknown())),
  }),
);

const itemBodyProperties = {
  deviceProfileId: Type.String({ minLength: 1, maxLength: 64 }),
  functionType: FunctionTypeSchema,
  functionName,
  identifier,
  /** properties only (required there). */
  accessMode: Type.Optional(AccessModeSchema),
  /** events only (required there). */
  eventType: Type.Optional(ThingModelEventTypeSchema),
  /** services only (required there). */
  callType: Type.Optional(CallTypeSchema),
  functionJson: FunctionJsonInputSchema,
  /** Modbus products' properties only. */
  extensionDesc: Type.Optional(Nullable(ModbusDescriptorInputSchema)),
};

/** Create body (no `id`). */
export const ThingModelItemBodySchema = Type.Object(itemBodyProperties, { additionalProperties: false });
export type ThingModelItemBody = Static<typeof ThingModelItemBodySchema>;

/** Update body: the whole item with its `id`; its product cannot change. */
export const ThingModelItemUpdateBodySchema = UpdateBodyOf(itemBodyProperties);
export type ThingModelItemUpdateBody = Static<typeof ThingModelItemUpdateBodySchema>;

export const ThingModelItemSchema = Type.Object({
  id: Type.String(),
  deviceProfileId: Type.String(),
  functionType: FunctionTypeSchema,
  functionName: Type.String(),
  identifier: Type.String(),
  accessMode: Nullable(AccessModeSchema),
  eventType: Nullable(ThingModelEventTypeSchema),
  callType: Nullable(CallTypeSchema),
  functionJson: FunctionJsonSchema,
  extensionDesc: Nullable(ModbusDescriptorSchema),
  status: ThingModelItemStatusSchema,
  createdTime: EpochMs,
  updatedTime: EpochMs,
});
export type ThingModelItem = Static<typeof ThingModelItemSchema>;

export const ThingModelParamsSchema = Type.Object({ deviceProfileId: Type.String({ minLength: 1, maxLength: 64 }) });

/** Items in creation order. */
export const ThingModelListQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  functionType: Type.Optional(FunctionTypeSchema),
});
export type ThingModelListQuery = Static<typeof ThingModelListQuerySchema>;

export const ThingModelPageSchema = PageOf(ThingModelItemSchema);
export type ThingModelPage = Static<typeof ThingModelPageSchema>;

/** Draft against published: what the thing-model tab shows next to its publish button. */
export const ThingModelStatusSchema = Type.Object({
  deviceProfileId: Type.String(),
  productStatus: ProductStatusSchema,
  draftItemCount: Type.Integer({ minimum: 0 }),
  /** The draft differs from the latest published version (or nothing is published yet and items exist). */
  hasUnpublishedChanges: Type.Boolean(),
  /** 1, 2, … for each publication that changed the model; null before the first. */
  publishedVersion: Nullable(Type.Integer({ minimum: 1 })),
  publishedTime: Nullable(EpochMs),
  publishedItemCount: Type.Integer({ minimum: 0 }),
});
export type ThingModelStatus = Static<typeof ThingModelStatusSchema>;

// ---- TSL -------------------------------------------------------------------------------------

export const TslPropertySchema = Type.Object({
  functionName: Type.String(),
  identifier: Type.String(),
  accessMode: AccessModeSchema,
  functionJson: Type.Object({ dataType: DataTypeSchema }),
  extensionDesc: Type.Optional(ModbusDescriptorSchema),
});
export const TslServiceSchema = Type.Object({
  functionName: Type.String(),
  identifier: Type.String(),
  callType: CallTypeSchema,
  functionJson: Type.Object({ inputData: Type.Array(ThingModelParamSchema), outputData: Type.Array(ThingModelParamSchema) }),
});
export const TslEventSchema = Type.Object({
  functionName: Type.String(),
  identifier: Type.String(),
  eventType: ThingModelEventTypeSchema,
  functionJson: Type.Object({ outputData: Type.Array(ThingModelParamSchema) }),
});

/**
 * The model as one JSON document (the console's "model TSL" view and its export file). Entries are
 * items without id, product, function type (their group says it), status and times.
 */
export const ThingModelTslSchema = Type.Object({
  format: Type.Literal(TSL_FORMAT),
  deviceProfileId: Type.String(),
  productName: Type.String(),
  /** The published version exported, or null for the draft. */
  version: Nullable(Type.Integer({ minimum: 1 })),
  exportedTime: EpochMs,
  properties: Type.Array(TslPropertySchema),
  services: Type.Array(TslServiceSchema),
  events: Type.Array(TslEventSchema),
});
export type ThingModelTsl = Static<typeof ThingModelTslSchema>;

export const TslExportQuerySchema = Type.Object({
  /** true: the latest published version (404 before the first publication); default the draft. */
  published: Type.Optional(Type.Boolean({ default: false })),
});

/**
 * An import file: an exported document (other top-level fields are ignored) or any object with
 * `properties`, `services` and `events` arrays. Entries are checked one by one in the server's rules.
 */
export const TslImportBodySchema = Type.Object({
  properties: Type.Optional(Type.Array(Type.Unknown(), { maxItems: TSL_ITEMS_MAX })),
  services: Type.Optional(Type.Array(Type.Unknown(), { maxItems: TSL_ITEMS_MAX })),
  events: Type.Optional(Type.Array(Type.Unknown(), { maxItems: TSL_ITEMS_MAX })),
});
export type TslImportBody = Static<typeof TslImportBodySchema>;

/**
 * Import replaces the product's draft with the file: an item whose identifier is already in the draft
 * is updated in place (so re-importing what is published leaves nothing to publish), new ones are
 * added, draft items missing from the file are removed.
 */
export const TslImportResultSchema = Type.Object({
  created: Type.Integer({ minimum: 0 }),
  updated: Type.Integer({ minimum: 0 }),
  removed: Type.Integer({ minimum: 0 }),
  status: ThingModelStatusSchema,
});
export type TslImportResult = Static<typeof TslImportResultSchema>;

const tags = ['thing-model'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const thingModelRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/things_model/:deviceProfileId/items',
    schema: {
      tags,
      summary: "A product's draft model items, paged, in creation order (function type filter)",
      params: ThingModelParamsSchema,
      querystring: ThingModelListQuerySchema,
      response: { 200: ThingModelPageSchema, ...errors },
    },
    config: { access: 'user', permission: 'things_model:list', productParam: 'deviceProfileId' },
  },
  create: {
    method: 'POST',
    url: '/api/yt/things_model',
    schema: {
      tags,
      summary: 'Add a property, service or event to the draft',
      body: ThingModelItemBodySchema,
      response: { 200: ThingModelItemSchema, ...errors },
    },
    config: { access: 'user', permission: 'things_model:create' },
  },
  update: {
    method: 'PUT',
    url: '/api/yt/things_model',
    schema: {
      tags,
      summary: 'Edit a draft item (whole body with id)',
      body: ThingModelItemUpdateBodySchema,
      response: { 200: ThingModelItemSchema, ...errors },
    },
    config: { access: 'user', permission: 'things_model:update' },
  },
  delete: {
    method: 'DELETE',
    url: '/api/yt/things_model',
    schema: {
      tags,
      summary: 'Remove items from the draft (unknown ids are skipped)',
      body: IdsBodySchema,
      response: { 200: DeleteResultSchema, ...errors },
    },
    config: { access: 'user', permission: 'things_model:delete' },
  },
  publish: {
    method: 'POST',
    url: '/api/yt/things_model/:deviceProfileId/publish',
    schema: {
      tags,
      summary: 'Publish the draft as the next model version and the product with it (needs one item)',
      params: ThingModelParamsSchema,
      response: { 200: ThingModelStatusSchema, ...errors },
    },
    config: { access: 'user', permission: 'things_model:publish', productParam: 'deviceProfileId' },
  },
  status: {
    method: 'GET',
    url: '/api/yt/things_model/:deviceProfileId/status',
    schema: {
      tags,
      summary: 'Draft against published: unpublished changes, published version and time',
      params: ThingModelParamsSchema,
      response: { 200: ThingModelStatusSchema, ...errors },
    },
    config: { access: 'user', permission: 'things_model:list', productParam: 'deviceProfileId' },
  },
  exportTsl: {
    method: 'GET',
    url: '/api/yt/things_model/:deviceProfileId/tsl',
    schema: {
      tags,
      summary: 'The model as a TSL JSON document (the draft, or the published version)',
      params: ThingModelParamsSchema,
      querystring: TslExportQuerySchema,
      response: { 200: ThingModelTslSchema, ...errors },
    },
    config: { access: 'user', permission: 'things_model:list', productParam: 'deviceProfileId' },
  },
  importTsl: {
    method: 'POST',
    url: '/api/yt/things_model/:deviceProfileId/tsl',
    schema: {
      tags,
      summary: 'Replace the draft with a TSL JSON document (at most 5 MB; all or nothing)',
      params: ThingModelParamsSchema,
      body: TslImportBodySchema,
      response: { 200: TslImportResultSchema, ...errors, 413: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'things_model:import', productParam: 'deviceProfileId' },
  },
});
