/**
 * The dashboard workbench: counts of
 * products, devices, messages and alarms, the gateway's CPU, memory and disk, and the device
 * message volume per time bucket.
 *
 * Message volume ranges: 1h in 5-minute buckets, 1d in 30-minute, 7d in 2-hour, 30d in 1-day
 * buckets (aligned to the gateway's local time; the last bucket is the current, partial one), or
 * `custom` with startTs and endTs (epoch ms): the interval is the smallest of
 * CUSTOM_INTERVALS_MS giving at most MAX_BUCKETS buckets. A custom range needs both ends
 * (`error.workbench.rangeRequired`), end after start and at most 366 days
 * (`error.workbench.rangeInvalid`).
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DateInput, EpochMs, Nullable } from './common.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const messageRanges = ['1h', '1d', '7d', '30d', 'custom'] as const;
export const MessageRangeSchema = Type.Enum(messageRanges);
export type MessageRange = (typeof messageRanges)[number];

/** Span and bucket interval of each fixed range. */
export const fixedRanges: Record<Exclude<MessageRange, 'custom'>, { spanMs: number; intervalMs: number }> = {
  '1h': { spanMs: HOUR, intervalMs: 5 * MINUTE },
  '1d': { spanMs: DAY, intervalMs: 30 * MINUTE },
  '7d': { spanMs: 7 * DAY, intervalMs: 2 * HOUR },
  '30d': { spanMs: 30 * DAY, intervalMs: DAY },
};
/** Candidate intervals of a custom range, smallest first. */
export const CUSTOM_INTERVALS_MS = [MINUTE, 5 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY];
export const MAX_BUCKETS = 200;
export const CUSTOM_RANGE_MAX_MS = 366 * DAY;

const Count = Type.Integer({ minimum: 0 });
const Bytes = Type.Number({ minimum: 0 });

export const WorkbenchSummarySchema = Type.Object({
  products: Count,
  devices: Type.Object({ total: Count, online: Count, offline: Count, inactive: Count }),
  /**
   * Device messages received since local midnight, and in all, over the whole gateway; null for a
   * customer, whose workbench shows only what lies in their organizations.
   */
  messages: Nullable(Type.Object({ today: Count, total: Count })),
  /** True since alarms exist (server/contract/alarm.ts); kept for consoles that still read it. */
  alarmsAvailable: Type.Boolean(),
  /** A customer's: the alarms of their organizations' devices. */
  alarms: Type.Object({ total: Count, unacknowledged: Count }),
  /** The gateway's load; null for a customer (the machine is not theirs to watch). */
  system: Nullable(
    Type.Object({
      /** Whole-machine CPU use in percent (0–100) over the last sample (at least 200 ms). */
      cpu: Type.Number({ minimum: 0, maximum: 100 }),
      memory: Type.Object({ total: Bytes, used: Bytes }),
      /** The file system holding the data directory. */
      disk: Type.Object({ total: Bytes, used: Bytes }),
    }),
  ),
  /** Free disk space is below `--min-free-disk-mb`: devices' telemetry is refused until it returns. */
  storage: Type.Object({ telemetryRefused: Type.Boolean() }),
});
export type WorkbenchSummary = Static<typeof WorkbenchSummarySchema>;

export const MessageVolumeQuerySchema = Type.Object({
  range: MessageRangeSchema,
  startTs: Type.Optional(DateInput),
  endTs: Type.Optional(DateInput),
});
export type MessageVolumeQuery = Static<typeof MessageVolumeQuerySchema>;

export const MessageBucketSchema = Type.Object({
  /** Start of the bucket. */
  ts: EpochMs,
  count: Count,
});
export type MessageBucket = Static<typeof MessageBucketSchema>;

export const MessageVolumeSchema = Type.Object({
  intervalMs: Type.Integer({ minimum: 1 }),
  startTs: EpochMs,
  endTs: EpochMs,
  buckets: Type.Array(MessageBucketSchema),
});
export type MessageVolume = Static<typeof MessageVolumeSchema>;

const tags = ['workbench'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema };

export const workbenchRoutes = defineRoutes({
  summary: {
    method: 'GET',
    url: '/api/yt/workbench/summary',
    schema: { tags, summary: 'Counts and gateway load for the workbench', response: { 200: WorkbenchSummarySchema, ...errors } },
    config: { access: 'user', permission: 'dashboard:view' },
  },
  messages: {
    method: 'GET',
    url: '/api/yt/workbench/messages',
    schema: {
      tags,
      summary: 'Device message volume per bucket for 1h, 1d, 7d, 30d or a custom range',
      querystring: MessageVolumeQuerySchema,
      response: { 200: MessageVolumeSchema, ...errors },
    },
    config: { access: 'user', permission: 'dashboard:view' },
  },
});
