/**
 * TCP device access and the Modbus master (the device page's "link" and "points" tabs, the product
 * page's request plan and point table).
 *
 * Link (`GET /api/yt/device/{id}/tcp`): how a TCP device reaches the gateway now. `mode` DTU: a
 * DTU connected to `--tcp-port` and registered (for a SENSOR on a GATEWAY's bus, the gateway's
 * connection: `carrierDeviceId`); MODBUS_TCP: the gateway dials the device's `modbusTcp`
 * `{ host, port }`. Counters count since the gateway started (not persisted).
 *
 * Points (`GET …/modbus/points`): every property of the device's product's PUBLISHED thing model
 * that has a Modbus descriptor, with the last value polled (after byte order, scale factor and
 * value mapping) and how the last attempt ended. `read` polls now (all points, or those named)
 * and answers once every request ended; `write` sends one value (function 05 for a coil, 06 for a
 * one-register value, 16 for wider ones) and answers with the slave's answer. Neither is refused
 * for an unconnected device: the outcome says NOT_CONNECTED.
 * Refusals: the device's product is not TCP / MODBUS_RTU: 400 code 31 `error.modbus.notModbus`;
 * an identifier without a descriptor: 400 code 31 `error.modbus.unknownPoint` (`details[].field`
 * the identifier); a read-only point written: `error.modbus.notWritable`; a value the point's
 * type cannot hold (a text for a number, out of range of the original data type after the scale
 * factor, a text not in the value mapping): `error.modbus.valueInvalid`.
 *
 * Request plan (`GET /api/yt/device_profile/{id}/modbus/plan`): the requests one poll cycle sends
 * each slave of the product: points of one function code sorted by address, joined while the
 * request stays within MODBUS_MAX_REGISTERS registers (MODBUS_MAX_BITS for coils and inputs) and
 * the gap of unused registers between two points is at most the product's `modbusGapMax`.
 * A slave that answers "illegal data address" to a bridged request is asked with split requests
 * (one per contiguous run) from then on. `source=draft` plans the draft model (the thing-model
 * tab), default the published one (what polls).
 *
 * Point table: `export?format=csv|xlsx` downloads the product's Modbus properties (draft model),
 * one row each, columns MODBUS_POINT_COLUMNS (header row with these names). `import` (multipart
 * field `file`, .csv or .xlsx, ≤ 5 MB, ≤ 1,000 rows, the same header) creates or updates the
 * draft model's properties by identifier, each row checked with the thing model's rules (a new
 * property gets specs covering its raw type's range; an updated one keeps its specs while its data
 * type stays); each valid row is written, rejected rows come back with reasons. File refusals as
 * device import's (`error.import.*`, server/contract/device-import.ts). The draft then needs
 * publishing, as after any model edit.
 * Unknown device or product: 404 code 32 `error.notFound`.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { EpochMs, IdParamsSchema, Nullable } from './common.ts';
import { AccessModeSchema, ModbusDescriptorSchema, ModbusDataTypeSchema, ModbusOperationTypeSchema } from './thing-model.ts';
import { CsvTextSchema, XLSX_CONTENT_TYPE, importFormats, RejectedRowSchema } from './device-import.ts';

/** Registers one read (03/04) or write (16) may carry. */
export const MODBUS_MAX_REGISTERS = 125;
/** Coils or inputs one read (01/02) may carry. */
export const MODBUS_MAX_BITS = 2000;
/** A DTU must identify itself within this long after connecting. */
export const TCP_IDENTIFY_TIMEOUT_MS = 10_000;
/** Rows a point table import takes. */
export const POINT_IMPORT_MAX_ROWS = 1_000;

// ---- Link -------------------------------------------------------------------------------------

export const tcpLinkModes = ['DTU', 'MODBUS_TCP'] as const;
export const TcpLinkModeSchema = Type.Enum(tcpLinkModes);
export type TcpLinkMode = (typeof tcpLinkModes)[number];

export const TcpCountersSchema = Type.Object({
  /** Requests sent. */
  polls: Type.Integer({ minimum: 0 }),
  /** Requests answered with a valid response (exceptions included). */
  answered: Type.Integer({ minimum: 0 }),
  timeouts: Type.Integer({ minimum: 0 }),
  crcErrors: Type.Integer({ minimum: 0 }),
  /** Modbus exception responses. */
  exceptions: Type.Integer({ minimum: 0 }),
  /** Frames with the wrong length, slave address or function, and unparseable bytes. */
  badFrames: Type.Integer({ minimum: 0 }),
  /** Frames received (custom TCP: every chunk the device sent). */
  framesIn: Type.Integer({ minimum: 0 }),
});
export type TcpCounters = Static<typeof TcpCountersSchema>;

export const TcpLinkSchema = Type.Object({
  /** null: the device is not a TCP device or has no link yet. */
  mode: Nullable(TcpLinkModeSchema),
  connected: Type.Boolean(),
  /** `ip:port` of the DTU, or the dialled `host:port`. */
  remoteAddress: Nullable(Type.String()),
  /** The registration string the DTU sent, as hex when not printable. */
  registration: Nullable(Type.String()),
  /** The GATEWAY whose connection carries this SENSOR's requests. */
  carrierDeviceId: Nullable(Type.String()),
  connectedSince: Nullable(EpochMs),
  /** The last frame received for this device, hex upper case (at most 256 bytes shown). */
  lastFrameHex: Nullable(Type.String()),
  lastFrameTs: Nullable(EpochMs),
  /** Last valid answer. */
  lastAnswerTs: Nullable(EpochMs),
  /** Set while the slave stopped answering and is retried with backoff. */
  backoffUntil: Nullable(EpochMs),
  counters: TcpCountersSchema,
});
export type TcpLink = Static<typeof TcpLinkSchema>;

// ---- Points, read, write ----------------------------------------------------------------------

/** How the last read or a write of a point ended. */
export const pointOutcomes = ['OK', 'TIMEOUT', 'EXCEPTION', 'CRC_ERROR', 'BAD_FRAME', 'NOT_CONNECTED', 'BAD_DESCRIPTOR'] as const;
export const PointOutcomeSchema = Type.Enum(pointOutcomes);
export type PointOutcome = (typeof pointOutcomes)[number];

/** Modbus exception codes by name (the words shown for an EXCEPTION outcome: `modbus.exception.<NAME>`). */
export const modbusExceptions = {
  1: 'ILLEGAL_FUNCTION',
  2: 'ILLEGAL_DATA_ADDRESS',
  3: 'ILLEGAL_DATA_VALUE',
  4: 'SLAVE_DEVICE_FAILURE',
  5: 'ACKNOWLEDGE',
  6: 'SLAVE_DEVICE_BUSY',
  8: 'MEMORY_PARITY_ERROR',
  10: 'GATEWAY_PATH_UNAVAILABLE',
  11: 'GATEWAY_TARGET_FAILED',
} as const;
export type ModbusExceptionName = (typeof modbusExceptions)[keyof typeof modbusExceptions];

export const PointReadingSchema = Type.Object({
  identifier: Type.String(),
  /** number, boolean or string (a mapped value's text, a STRING register block); null before the first read. */
  value: Nullable(Type.Union([Type.Number(), Type.Boolean(), Type.String()])),
  /** When the value was read. */
  ts: Nullable(EpochMs),
  outcome: Nullable(PointOutcomeSchema),
  /** Set for EXCEPTION. */
  exceptionCode: Nullable(Type.Integer({ minimum: 1, maximum: 255 })),
  /** The outcome in words, in the request's language (e.g. "illegal data address"). */
  message: Nullable(Type.String()),
});
export type PointReading = Static<typeof PointReadingSchema>;

export const ModbusPointSchema = Type.Object({
  ...PointReadingSchema.properties,
  name: Type.String(),
  accessMode: AccessModeSchema,
  /** The descriptor's operation writes (COIL_WRITE, COIL_READ_WRITE, HOLDING_REGISTER_WRITE, …_READ_WRITE). */
  writable: Type.Boolean(),
  /** Write-only points are never polled. */
  polled: Type.Boolean(),
  extensionDesc: ModbusDescriptorSchema,
});
export type ModbusPoint = Static<typeof ModbusPointSchema>;

export const ModbusPointListSchema = Type.Object({
  pollIntervalMs: Type.Integer(),
  items: Type.Array(ModbusPointSchema),
});
export type ModbusPointList = Static<typeof ModbusPointListSchema>;

const IdentifierSchema = Type.String({ minLength: 1, maxLength: 64 });

export const ModbusReadBodySchema = Type.Object(
  { identifiers: Type.Optional(Type.Array(IdentifierSchema, { minItems: 1, maxItems: 500 })) },
  { additionalProperties: false },
);
export type ModbusReadBody = Static<typeof ModbusReadBodySchema>;

export const ModbusReadResultSchema = Type.Object({ items: Type.Array(PointReadingSchema) });
export type ModbusReadResult = Static<typeof ModbusReadResultSchema>;

export const ModbusWriteBodySchema = Type.Object(
  {
    identifier: IdentifierSchema,
    /** A number, a boolean (coils, BOOLEAN), a mapped text (value mapping) or text (STRING). */
    value: Type.Union([Type.Number(), Type.Boolean(), Type.String({ maxLength: 250 })]),
  },
  { additionalProperties: false },
);
export type ModbusWriteBody = Static<typeof ModbusWriteBodySchema>;

export const ModbusWriteResultSchema = Type.Object({
  identifier: Type.String(),
  /** OK: the slave confirmed the write. */
  outcome: PointOutcomeSchema,
  /** 5, 6, 15 or 16. */
  functionCode: Type.Integer(),
  exceptionCode: Nullable(Type.Integer({ minimum: 1, maximum: 255 })),
  /** The outcome in words, in the request's language. */
  message: Type.String(),
});
export type ModbusWriteResult = Static<typeof ModbusWriteResultSchema>;

// ---- Request plan -----------------------------------------------------------------------------

export const planSources = ['published', 'draft'] as const;

export const ModbusPlanQuerySchema = Type.Object({ source: Type.Optional(Type.Enum(planSources)) });
export type ModbusPlanQuery = Static<typeof ModbusPlanQuerySchema>;

export const ModbusRequestSchema = Type.Object({
  /** 1 coils, 2 discrete inputs, 3 holding registers, 4 input registers. */
  function: Type.Integer({ minimum: 1, maximum: 4 }),
  start: Type.Integer({ minimum: 0, maximum: 0xffff }),
  count: Type.Integer({ minimum: 1 }),
  /** The points the answer feeds, by address. */
  identifiers: Type.Array(Type.String()),
});
export type ModbusRequest = Static<typeof ModbusRequestSchema>;

export const ModbusPlanSchema = Type.Object({
  pollIntervalMs: Type.Integer(),
  modbusGapMax: Type.Integer(),
  requests: Type.Array(ModbusRequestSchema),
  /** Write-only points: never polled. */
  writeOnly: Type.Array(Type.String()),
});
export type ModbusPlan = Static<typeof ModbusPlanSchema>;

// ---- Point table ------------------------------------------------------------------------------

/**
 * Columns of the point table, in order. `dataType` is the thing model's (INT, DOUBLE, TEXT, BOOL,
 * ENUM); `registerAddress` is written `0x…` on export and read as `0x…` or decimal; `bit` is a bit
 * position 0–15 or a mask `0x…`; `access` is the operation type (HOLDING_REGISTER_READ_WRITE, …),
 * which gives the property's access mode (r for read operations, rw otherwise).
 */
export const modbusPointColumns = [
  'identifier',
  'name',
  'dataType',
  'registerAddress',
  'originalDataType',
  'scaleFactor',
  'bit',
  'registerCount',
  'access',
] as const;
export type ModbusPointColumn = (typeof modbusPointColumns)[number];

export const PointExportQuerySchema = Type.Object({ format: Type.Optional(Type.Enum(importFormats)) });
export type PointExportQuery = Static<typeof PointExportQuerySchema>;

export const PointTableFileSchema = Type.Union([
  CsvTextSchema,
  Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary', description: XLSX_CONTENT_TYPE }),
]);

export const PointImportResultSchema = Type.Object({
  created: Type.Integer({ minimum: 0 }),
  updated: Type.Integer({ minimum: 0 }),
  /** Rows refused, with the file's row number (the header is row 1) and reasons. */
  rejected: Type.Array(RejectedRowSchema),
});
export type PointImportResult = Static<typeof PointImportResultSchema>;

/** Exposed for the console: the column's operation type values (`access`). */
export const PointAccessSchema = ModbusOperationTypeSchema;
export const PointOriginalDataTypeSchema = ModbusDataTypeSchema;

const deviceTags = ['tcp-device'];
const productTags = ['modbus'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const modbusRoutes = defineRoutes({
  link: {
    method: 'GET',
    url: '/api/yt/device/:id/tcp',
    schema: {
      tags: deviceTags,
      summary: 'The TCP link of a device: connection, registration, last frame, counters',
      params: IdParamsSchema,
      response: { 200: TcpLinkSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:modbus:view', deviceParam: 'id' },
  },
  points: {
    method: 'GET',
    url: '/api/yt/device/:id/modbus/points',
    schema: {
      tags: deviceTags,
      summary: 'The Modbus points of a device (published model) with their last values and outcomes',
      params: IdParamsSchema,
      response: { 200: ModbusPointListSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:modbus:view', deviceParam: 'id' },
  },
  read: {
    method: 'POST',
    url: '/api/yt/device/:id/modbus/read',
    schema: {
      tags: deviceTags,
      summary: 'Read points now (all polled points, or those named); values are stored as telemetry too',
      params: IdParamsSchema,
      body: ModbusReadBodySchema,
      response: { 200: ModbusReadResultSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:modbus:read', deviceParam: 'id' },
  },
  write: {
    method: 'POST',
    url: '/api/yt/device/:id/modbus/write',
    schema: {
      tags: deviceTags,
      summary: "Write one point's value (05/06/16) and answer with the slave's answer",
      params: IdParamsSchema,
      body: ModbusWriteBodySchema,
      response: { 200: ModbusWriteResultSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:modbus:write', deviceParam: 'id' },
  },
  plan: {
    method: 'GET',
    url: '/api/yt/device_profile/:id/modbus/plan',
    schema: {
      tags: productTags,
      summary: "The product's poll requests: function, start, count and the points each feeds",
      params: IdParamsSchema,
      querystring: ModbusPlanQuerySchema,
      response: { 200: ModbusPlanSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:modbus:view', productParam: 'id' },
  },
  exportPoints: {
    method: 'GET',
    url: '/api/yt/device_profile/:id/modbus/points/export',
    schema: {
      tags: productTags,
      summary: "The product's Modbus point table (draft model) as text/csv, or .xlsx with ?format=xlsx",
      params: IdParamsSchema,
      querystring: PointExportQuerySchema,
      response: { 200: PointTableFileSchema, ...errors },
    },
    config: { access: 'user', permission: 'device_profile:modbus:export', productParam: 'id' },
  },
  importPoints: {
    method: 'POST',
    url: '/api/yt/device_profile/:id/modbus/points/import',
    schema: {
      tags: productTags,
      summary: 'Upload a point table (.csv or .xlsx, multipart field `file`): create or update draft properties by identifier',
      params: IdParamsSchema,
      consumes: ['multipart/form-data'],
      response: { 200: PointImportResultSchema, ...errors, 413: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'device_profile:modbus:import', productParam: 'id' },
  },
});
