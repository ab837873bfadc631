/**
 * History storage on the gateway's small disk (README, "Retention and disk budget"):
 *
 * - `GET /api/yt/telemetry/storage`: the database's size (file plus WAL), the size cap
 *   (`--history-max-mb`, null when off), free space on the data directory's file system and the
 *   floor below which telemetry is refused (`--min-free-disk-mb`), whether telemetry is refused
 *   now, the growth of the last hour and the time left at that rate (null when not measurable),
 *   and per product its history (rows, blocks, an estimate of their bytes) and its own retention.
 * - `PUT /api/yt/telemetry/products/{id}/retention` `{ retentionDays }`: a product's own history
 *   retention in days (1–3650, `error.telemetry.retentionDays`), or null for the global setting
 *   (server/contract/telemetry.ts, `telemetryRetentionDays`). Unknown product: 404 code 32.
 */
import Type, { type Static } from 'typebox';
import { IdParamsSchema, Nullable } from './common.ts';
import { ErrorBodySchema } from './errors.ts';
import { defineRoutes } from './route.ts';
import { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN } from './telemetry.ts';

const Bytes = Type.Number({ minimum: 0 });
const Count = Type.Integer({ minimum: 0 });
const RetentionDays = Nullable(Type.Integer({ minimum: RETENTION_DAYS_MIN, maximum: RETENTION_DAYS_MAX }));

export const ProductRetentionSchema = Type.Object(
  {
    /** The product's own history retention in days; null: the global setting applies. */
    retentionDays: RetentionDays,
  },
  { additionalProperties: false },
);
export type ProductRetention = Static<typeof ProductRetentionSchema>;

export const ProductHistoryUsageSchema = Type.Object({
  productId: Type.String(),
  productName: Type.String(),
  retentionDays: RetentionDays,
  /** History values not in blocks yet: staged (moved into blocks within a minute) and rows from before staged values became blocks. */
  rows: Count,
  /** Compressed history blocks and the values they hold. */
  blocks: Count,
  blockValues: Count,
  /** Rows at their measured ~28 bytes each plus the blocks' exact bytes (b-tree overhead left out). */
  estimatedBytes: Bytes,
});
export type ProductHistoryUsage = Static<typeof ProductHistoryUsageSchema>;

/**
 * What the gateway's process wrote to its storage (the kernel's /proc/self/io `write_bytes`,
 * sampled by the process itself) over the last 24 h, or since it started when that is later, and
 * per device message acknowledged meanwhile: what wears a flash card.
 */
export const WrittenBytesSchema = Type.Object({
  sinceTs: Type.Integer({ description: 'Start of the window, epoch ms' }),
  /** The window starts at the process's start (less than 24 h ago): a restart began the count again. */
  sinceStart: Type.Boolean(),
  /** null where the kernel does not count (not Linux). */
  bytes: Nullable(Bytes),
  messages: Count,
  /** null until a message was acknowledged in the window. */
  bytesPerMessage: Nullable(Type.Number({ minimum: 0 })),
});
export type WrittenBytes = Static<typeof WrittenBytesSchema>;

export const StorageStateSchema = Type.Object({
  /** The database file plus its WAL. */
  databaseBytes: Bytes,
  /** What the database holds, without the free pages it keeps for reuse. */
  usedBytes: Bytes,
  historyMaxBytes: Nullable(Bytes),
  freeDiskBytes: Bytes,
  minFreeDiskBytes: Bytes,
  /** Free space is below the floor: devices' telemetry is refused until it returns. */
  telemetryRefused: Type.Boolean(),
  /** Growth of the used bytes per hour over the last hour; null until measurable. */
  growthBytesPerHour: Nullable(Type.Number()),
  /** Until the cap or the free-space floor is reached at that rate; null when not growing or not measurable. */
  timeLeftMs: Nullable(Type.Number({ minimum: 0 })),
  telemetryRetentionDays: Type.Integer(),
  products: Type.Array(ProductHistoryUsageSchema),
  written: WrittenBytesSchema,
});
export type StorageState = Static<typeof StorageStateSchema>;

const tags = ['telemetry'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const telemetryStorageRoutes = defineRoutes({
  storage: {
    method: 'GET',
    url: '/api/yt/telemetry/storage',
    schema: { tags, summary: 'Database size, free disk, time left and history per product', response: { 200: StorageStateSchema, ...errors } },
    config: { access: 'user', permission: 'system:config' },
  },
  setProductRetention: {
    method: 'PUT',
    url: '/api/yt/telemetry/products/:id/retention',
    schema: {
      tags,
      summary: "Set a product's own history retention in days (null: the global setting)",
      params: IdParamsSchema,
      body: ProductRetentionSchema,
      response: { 200: ProductRetentionSchema, ...errors },
    },
    config: { access: 'user', permission: 'system:config', productParam: 'id' },
  },
});
