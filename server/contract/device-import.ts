/**
 * Device import wizard and batch generation (steps: select file, basic info, column type, create
 * entity, auto generate, finally).
 *
 * Import, in two calls plus a download:
 * 1. `preview` (select file): multipart field `file`, a `.csv` text file (UTF-8, with or without
 *    BOM, or GB18030 as Excel writes it on Chinese systems) or an `.xlsx` workbook, of at most
 *    5 MB (`error.upload.tooLarge`, 413) and 10,000 data rows after the header row
 *    (`error.import.tooManyRows`, code 41). Other files: `error.import.badType`; no file:
 *    `error.upload.fileRequired`; no data rows: `error.import.empty`; broken quoting:
 *    `error.import.malformed`. The delimiter (`,` `;` tab `|`) is detected.
 *    Of an `.xlsx`, only the first worksheet is read, each cell as the text a spreadsheet program
 *    shows (numbers to 15 significant digits, dates `YYYY-MM-DD HH:mm:ss`, formulas their cached
 *    result, rich text as plain text). Refused with 400 code 31: a file that is not a workbook
 *    (`error.import.notXlsx`), a broken one (`error.import.xlsxMalformed`), one whose parts read
 *    inflate past 50 MB (`error.import.xlsxTooLarge`), a value past column 100
 *    (`error.import.tooManyColumns`).
 *    The parsed rows stay on the server for 30 minutes under `importId` (at most 4 imports at a
 *    time; the oldest is dropped first).
 * 2. `commit` (basic info, column type, create entity): `mapping` names which column (0-based
 *    index into `columns`) feeds each device field, `defaults` gives what every row shares.
 *    Every row is checked with the same rules as `POST /api/yt/device` (name rule and uniqueness in
 *    the database and within the file, alias, label, address code, longitude/latitude, the
 *    product's device type, gateway rules) and, when `credentialsColumn` is set, its access token
 *    (format, uniqueness in the database and within the file; an empty cell gets a generated
 *    token). All valid rows are created in ONE transaction; the others are reported with reasons
 *    (messages in the request's language). An import commits once (`error.import.alreadyCommitted`).
 *    A column mapped to `product` names each row's product by id or name: the row's device
 *    takes that product and its device type; an empty cell takes `defaults.deviceProfileId`; a
 *    product that does not exist rejects the row (`error.import.unknownProduct`).
 *    Referenced rows shared by all (unknown product or organization, a device type other than the
 *    product's, gateway rules) refuse the whole commit with 400 and `details[].field`
 *    `body.defaults.<field>`; a column index past the header: `error.import.columnOutOfRange`.
 * 3. `rejectedCsv` (finally): the rejected rows as CSV, the original columns plus the row number
 *    and the reasons, in the request's language; `?format=xlsx` gives the same table as an `.xlsx`
 *    workbook (every cell text), which the console asks for when the upload was one.
 * CSV downloads are UTF-8 with a BOM and CRLF lines; a cell starting with = + - @ gets a leading '
 * so spreadsheet programs do not run it as a formula.
 * An unknown or expired importId: 404 code 32 `error.import.expired`.
 *
 * Batch generation (auto generate): `count` devices of one product, named
 * `<product name prefix>_<8 random [A-Z0-9]>` (valid by the name rule, unique), alias
 * `<aliasPrefix><n>` (n from 1) when a prefix is given, each with a generated access token. The
 * CSV (`name,alias,token`) for factory provisioning stays downloadable for 24 hours.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { EpochMs, Nullable } from './common.ts';
import { DeviceTypeSchema } from './product.ts';
import { NAME_MAX, VISIBLE_TEXT_PATTERN } from './validation.ts';

export const IMPORT_MAX_ROWS = 10_000;
export const IMPORT_SAMPLE_ROWS = 10;
export const IMPORT_TTL_MS = 30 * 60 * 1000;
/** File types `preview` reads, by extension. */
export const importFormats = ['csv', 'xlsx'] as const;
export type ImportFormat = (typeof importFormats)[number];

/** The format a file name's extension names (any case), or undefined for other files. */
export function importFormatOf(fileName: string): ImportFormat | undefined {
  const name = fileName.toLowerCase();
  return importFormats.find((format) => name.endsWith(`.${format}`));
}
/** An .xlsx may inflate to this much (the parts read: workbook, styles, strings, first sheet). */
export const XLSX_MAX_INFLATED_BYTES = 50 * 1024 * 1024;
/** Columns an .xlsx row may fill: a value further right refuses the file. */
export const XLSX_MAX_COLUMNS = 100;
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const BATCH_MIN = 1;
export const BATCH_MAX = 1000;
export const BATCH_ALIAS_PREFIX_MAX = NAME_MAX;
export const BATCH_TTL_MS = 24 * 3600 * 1000;

/** Device fields a CSV column can feed ("column type" step). `name` is required; `product` is the row's product (id or name). */
export const importFields = ['name', 'alias', 'label', 'addressCode', 'longitude', 'latitude', 'address', 'description', 'product'] as const;
export type ImportField = (typeof importFields)[number];

/**
 * Header spellings (as `normalizeImportHeader` leaves them) that name a field or the token column,
 * English and Chinese. The server suggests exact matches in `preview`; the console also uses them
 * to guess columns whose headers only contain a spelling ("设备名称(必填)").
 */
export const importHeaderHints: Readonly<Record<ImportField | 'token', readonly string[]>> = {
  name: ['name', 'devicename', '设备名称', '名称'],
  alias: ['alias', 'devicealias', '别名', '设备别名'],
  label: ['label', '标签'],
  addressCode: ['addresscode', '地址码'],
  longitude: ['longitude', 'lng', 'lon', '经度'],
  latitude: ['latitude', 'lat', '纬度'],
  address: ['address', '地址', '位置'],
  description: ['description', 'remark', '描述', '备注'],
  product: ['product', 'productname', 'deviceprofile', '产品', '产品名称', '所属产品'],
  token: ['token', 'accesstoken', '访问令牌'],
};

/** A header as the hints are written: trimmed, lower case, without spaces, `_` or `-`. */
export function normalizeImportHeader(header: string): string {
  return header.trim().toLowerCase().replace(/[\s_-]/g, '');
}

const Column = Type.Integer({ minimum: 0, maximum: 1023 });
const OptionalColumn = Type.Optional(Nullable(Column));

/** Which column feeds each field; null or left out: the field stays unset. */
export const ImportMappingSchema = Type.Object(
  {
    name: Column,
    alias: OptionalColumn,
    label: OptionalColumn,
    addressCode: OptionalColumn,
    longitude: OptionalColumn,
    latitude: OptionalColumn,
    address: OptionalColumn,
    description: OptionalColumn,
    product: OptionalColumn,
  },
  { additionalProperties: false },
);
export type ImportMapping = Static<typeof ImportMappingSchema>;

export const ImportPreviewSchema = Type.Object({
  importId: Type.String(),
  fileName: Type.String(),
  /** Header row, as written in the file. */
  columns: Type.Array(Type.String()),
  /** The first 10 data rows, cells as text. */
  sample: Type.Array(Type.Array(Type.String())),
  /** Data rows (the header row not counted). */
  rowCount: Type.Integer({ minimum: 0 }),
  /** Columns whose header names a device field (e.g. `name`, `deviceName`, `alias`), for a head start. */
  suggestedMapping: Type.Partial(ImportMappingSchema),
  /** A column headed `token` or `accessToken`, or null. */
  suggestedCredentialsColumn: Nullable(Type.Integer()),
  expiresTime: EpochMs,
});
export type ImportPreview = Static<typeof ImportPreviewSchema>;

const Id = Type.String({ minLength: 1, maxLength: 64 });

/** What every imported device shares ("basic info" step). */
export const ImportDefaultsSchema = Type.Object(
  {
    deviceProfileId: Id,
    organizationId: Type.Optional(Nullable(Id)),
    /** Defaults to the product's device type (and must equal it). */
    deviceType: Type.Optional(DeviceTypeSchema),
    /** SENSOR products only: the gateway the imported sub-devices hang off. */
    gatewayId: Type.Optional(Nullable(Id)),
    isPublic: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ImportDefaults = Static<typeof ImportDefaultsSchema>;

export const ImportCommitBodySchema = Type.Object(
  {
    importId: Type.String({ minLength: 1, maxLength: 64 }),
    mapping: ImportMappingSchema,
    defaults: ImportDefaultsSchema,
    /** Column holding each device's access token; left out or null: tokens are generated. */
    credentialsColumn: OptionalColumn,
  },
  { additionalProperties: false },
);
export type ImportCommitBody = Static<typeof ImportCommitBodySchema>;

/** Why a row was refused: the field (`credentials` for the token column), the i18n key, the text. */
export const RowReasonSchema = Type.Object({ field: Type.String(), key: Type.String(), message: Type.String() });
export type RowReason = Static<typeof RowReasonSchema>;

export const RejectedRowSchema = Type.Object({
  /** Row number in the file, the header being row 1 (as a spreadsheet numbers it). */
  row: Type.Integer({ minimum: 2 }),
  /** The name cell, as written. */
  name: Type.String(),
  reasons: Type.Array(RowReasonSchema),
});
export type RejectedRow = Static<typeof RejectedRowSchema>;

export const ImportResultSchema = Type.Object({
  created: Type.Integer({ minimum: 0 }),
  rejected: Type.Array(RejectedRowSchema),
});
export type ImportResult = Static<typeof ImportResultSchema>;

export const ImportIdParamsSchema = Type.Object({ importId: Type.String({ minLength: 1, maxLength: 64 }) });

export const RejectedQuerySchema = Type.Object({
  /** Left out: csv, as before `.xlsx` uploads were accepted. */
  format: Type.Optional(Type.Enum(importFormats)),
});
export type RejectedQuery = Static<typeof RejectedQuerySchema>;

export const BatchBodySchema = Type.Object(
  {
    deviceProfileId: Id,
    count: Type.Integer({ minimum: BATCH_MIN, maximum: BATCH_MAX }),
    /** Alias of the n-th device: `<aliasPrefix><n>`; left out: no alias. */
    aliasPrefix: Type.Optional(Nullable(Type.String({ maxLength: BATCH_ALIAS_PREFIX_MAX, pattern: VISIBLE_TEXT_PATTERN }))),
    organizationId: Type.Optional(Nullable(Id)),
    /** SENSOR products only: attach every generated device to this gateway. */
    gatewayId: Type.Optional(Nullable(Id)),
  },
  { additionalProperties: false },
);
export type BatchBody = Static<typeof BatchBodySchema>;

export const BatchItemSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  alias: Nullable(Type.String()),
  /** The generated ACCESS_TOKEN. */
  token: Type.String(),
});
export type BatchItem = Static<typeof BatchItemSchema>;

export const BatchResultSchema = Type.Object({ batchId: Type.String(), items: Type.Array(BatchItemSchema) });
export type BatchResult = Static<typeof BatchResultSchema>;

export const BatchIdParamsSchema = Type.Object({ batchId: Type.String({ minLength: 1, maxLength: 64 }) });

/** A CSV download (sent as text/csv, UTF-8 with BOM); the console fetches it as a blob. */
export const CsvTextSchema = Type.String({ description: 'text/csv; charset=utf-8' });

/** The rejected rows: CSV text as above, or with `?format=xlsx` an .xlsx workbook's bytes. */
export const RejectedFileSchema = Type.Union([
  CsvTextSchema,
  Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary', description: XLSX_CONTENT_TYPE }),
]);

const tags = ['device-import'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const deviceImportRoutes = defineRoutes({
  preview: {
    method: 'POST',
    url: '/api/yt/device/import/preview',
    schema: {
      tags,
      summary: 'Upload a .csv or .xlsx (multipart field `file`, ≤ 5 MB, ≤ 10,000 rows): header, first rows, importId',
      consumes: ['multipart/form-data'],
      response: { 200: ImportPreviewSchema, ...errors, 413: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'device:import' },
  },
  commit: {
    method: 'POST',
    url: '/api/yt/device/import/commit',
    schema: {
      tags,
      summary: 'Map columns to fields and create every valid row in one transaction; rejected rows with reasons',
      body: ImportCommitBodySchema,
      response: { 200: ImportResultSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:import' },
  },
  rejectedCsv: {
    method: 'GET',
    url: '/api/yt/device/import/:importId/rejected.csv',
    schema: {
      tags,
      summary: 'The rejected rows of a committed import as text/csv, or .xlsx with ?format=xlsx (original columns, row, reasons)',
      params: ImportIdParamsSchema,
      querystring: RejectedQuerySchema,
      response: { 200: RejectedFileSchema, 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'device:import' },
  },
  batch: {
    method: 'POST',
    url: '/api/yt/device/batch',
    schema: {
      tags,
      summary: 'Generate 1–1000 devices of a product with generated names and access tokens',
      body: BatchBodySchema,
      response: { 200: BatchResultSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:create' },
  },
  batchCsv: {
    method: 'GET',
    url: '/api/yt/device/batch/:batchId.csv',
    schema: {
      tags,
      summary: 'A generated batch as text/csv (name,alias,token) for factory provisioning',
      params: BatchIdParamsSchema,
      response: { 200: CsvTextSchema, 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'device:create' },
  },
});
