/**
 * Scheduled reports (issue 31 item 6; spec §3: schedules run monthly on days 1–31, weekly on
 * weekdays or daily at hours).
 *
 * A report names device/key pairs, an aggregation over an interval (the telemetry history's own:
 * server/contract/telemetry.ts) and a schedule in an IANA time zone. Each run writes the period's
 * history as `.xlsx` (a data sheet with one column per device/key and a chart sheet) and `.csv`
 * under `<data-dir>/reports/`, within the `--report-disk-mb` budget (oldest runs removed first).
 *
 * The period of a scheduled run is [the schedule's previous time, this time): a daily report at 08
 * covers the 24 hours before 08:00, a monthly one on day 1 the month before. A run started by hand
 * covers the range it names, or by default the period that ends now. A run the gateway missed while
 * it was off runs once at the next start (the latest missed time; older ones are not repeated).
 *
 * Rules the server enforces (400 code 31): name 1–64 visible characters; 1–REPORT_SERIES_MAX pairs,
 * each a device within the caller's scope (`error.report.deviceUnknown`); an aggregation other than
 * NONE needs an interval of at least a minute (`error.report.intervalRequired`); MONTHLY needs month
 * days 1–31, WEEKLY weekdays 1–7 (ISO: 1 Monday … 7 Sunday), every schedule hours 0–23
 * (`error.report.monthDays`, `…weekdays`, `…hours`); a time zone this runtime knows
 * (`error.report.timeZone`). A month day past the month's end runs on its last day.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DeleteResultSchema, EpochMs, IdParamsSchema, IdsBodySchema, Nullable, PageOf, PageQuerySchema, ResourceIdSchema, UpdateBodyOf } from './common.ts';
import { VISIBLE_TEXT_PATTERN } from './validation.ts';

export const reportFrequencies = ['MONTHLY', 'WEEKLY', 'DAILY'] as const;
export type ReportFrequency = (typeof reportFrequencies)[number];

/** The telemetry history's aggregations a report offers (COUNT says little in a report). */
export const reportAggregations = ['NONE', 'AVG', 'MIN', 'MAX', 'SUM'] as const;
export type ReportAggregation = (typeof reportAggregations)[number];

export const reportTriggers = ['SCHEDULE', 'MISSED', 'MANUAL'] as const;
export type ReportTrigger = (typeof reportTriggers)[number];

export const reportFormats = ['xlsx', 'csv'] as const;
export type ReportFormat = (typeof reportFormats)[number];

export const REPORT_NAME_MAX = 64;
export const REPORT_SERIES_MAX = 50;
/** Shortest aggregation interval: a minute. */
export const REPORT_INTERVAL_MIN = 60_000;
/** Longest: 31 days (one bucket per month). */
export const REPORT_INTERVAL_MAX = 31 * 86_400_000;
/** Raw rows a run writes at most (the gateway holds them in memory while writing); past it the report says it was cut. */
export const REPORT_ROWS_MAX = 100_000;
/** The longest period a run by hand may cover. */
export const REPORT_RANGE_MAX = 366 * 86_400_000;
export const REPORT_DISK_MB_DEFAULT = 50;

const unique = <T extends ReturnType<typeof Type.Integer>>(item: T, max: number) => Type.Array(item, { minItems: 1, maxItems: max, uniqueItems: true });

export const ReportScheduleSchema = Type.Object(
  {
    frequency: Type.Enum(reportFrequencies),
    /** MONTHLY: days of the month, 1–31. */
    monthDays: Type.Optional(unique(Type.Integer({ minimum: 1, maximum: 31 }), 31)),
    /** WEEKLY: ISO weekdays, 1 Monday … 7 Sunday. */
    weekdays: Type.Optional(unique(Type.Integer({ minimum: 1, maximum: 7 }), 7)),
    /** Hours of the chosen days (every frequency), 0–23, at minute 0. */
    hours: unique(Type.Integer({ minimum: 0, maximum: 23 }), 24),
    /** IANA time zone the days and hours are read in. */
    timeZone: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
);
export type ReportSchedule = Static<typeof ReportScheduleSchema>;

export const ReportSeriesSchema = Type.Object({ deviceId: ResourceIdSchema, key: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false });
export type ReportSeries = Static<typeof ReportSeriesSchema>;

const bodyProperties = {
  name: Type.String({ minLength: 1, maxLength: REPORT_NAME_MAX, pattern: VISIBLE_TEXT_PATTERN }),
  organizationId: Type.Optional(Nullable(ResourceIdSchema)),
  series: Type.Array(ReportSeriesSchema, { minItems: 1, maxItems: REPORT_SERIES_MAX }),
  aggregation: Type.Enum(reportAggregations),
  /** Bucket width in ms for an aggregation other than NONE. */
  interval: Type.Optional(Type.Integer({ minimum: REPORT_INTERVAL_MIN, maximum: REPORT_INTERVAL_MAX })),
  schedule: ReportScheduleSchema,
  enabled: Type.Boolean(),
};

export const ReportBodySchema = Type.Object(bodyProperties, { additionalProperties: false });
export type ReportBody = Static<typeof ReportBodySchema>;
export const ReportUpdateBodySchema = UpdateBodyOf(bodyProperties);
export type ReportUpdateBody = Static<typeof ReportUpdateBodySchema>;

export const ReportSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  organizationId: Nullable(Type.String()),
  series: Type.Array(ReportSeriesSchema),
  aggregation: Type.Enum(reportAggregations),
  interval: Type.Optional(Type.Integer()),
  schedule: ReportScheduleSchema,
  enabled: Type.Boolean(),
  /** When the next scheduled run is due (null while disabled). */
  nextRunTs: Nullable(EpochMs),
  /** The scheduled time of the last scheduled run (what a restart compares against). */
  lastDueTs: Nullable(EpochMs),
  createdTime: EpochMs,
  updatedTime: EpochMs,
});
export type Report = Static<typeof ReportSchema>;

export const ReportListQuerySchema = Type.Object({ ...PageQuerySchema.properties, name: Type.Optional(Type.String({ maxLength: REPORT_NAME_MAX })) });
export type ReportListQuery = Static<typeof ReportListQuerySchema>;
export const ReportPageSchema = PageOf(ReportSchema);
export type ReportPage = Static<typeof ReportPageSchema>;

export const ReportRunSchema = Type.Object({
  id: Type.String(),
  reportId: Type.String(),
  trigger: Type.Enum(reportTriggers),
  /** The period the run covers: [startTs, endTs). */
  startTs: EpochMs,
  endTs: EpochMs,
  createdTime: EpochMs,
  /** Data rows written (0: the period had no data, which the files say). */
  rows: Type.Integer({ minimum: 0 }),
  /** The rows were cut at REPORT_ROWS_MAX. */
  truncated: Type.Boolean(),
  xlsxBytes: Type.Integer({ minimum: 0 }),
  csvBytes: Type.Integer({ minimum: 0 }),
});
export type ReportRun = Static<typeof ReportRunSchema>;
export const ReportRunPageSchema = PageOf(ReportRunSchema);
export type ReportRunPage = Static<typeof ReportRunPageSchema>;

export const ReportRunBodySchema = Type.Object({ startTs: Type.Optional(EpochMs), endTs: Type.Optional(EpochMs) }, { additionalProperties: false });
export type ReportRunBody = Static<typeof ReportRunBodySchema>;

export const ReportFileQuerySchema = Type.Object({ format: Type.Enum(reportFormats) });
/** The .xlsx bytes, or the CSV (UTF-8 with BOM); the console fetches either as a blob. */
export const ReportFileSchema = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary', description: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet or text/csv' });

const tags = ['report'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };
const config = { access: 'user', permission: 'visualization:manage' } as const;

export const reportRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/report',
    schema: { tags, summary: 'Reports as a page', querystring: ReportListQuerySchema, response: { 200: ReportPageSchema, ...errors } },
    config,
  },
  get: {
    method: 'GET',
    url: '/api/yt/report/:id',
    schema: { tags, summary: 'One report', params: IdParamsSchema, response: { 200: ReportSchema, ...errors } },
    config,
  },
  create: {
    method: 'POST',
    url: '/api/yt/report',
    schema: { tags, summary: 'Create a report', body: ReportBodySchema, response: { 200: ReportSchema, ...errors } },
    config,
  },
  update: {
    method: 'PUT',
    url: '/api/yt/report',
    schema: { tags, summary: 'Change a report (its next run is computed again)', body: ReportUpdateBodySchema, response: { 200: ReportSchema, ...errors } },
    config,
  },
  delete: {
    method: 'DELETE',
    url: '/api/yt/report',
    schema: { tags, summary: 'Delete reports with their runs and files', body: IdsBodySchema, response: { 200: DeleteResultSchema, ...errors } },
    config,
  },
  run: {
    method: 'POST',
    url: '/api/yt/report/:id/run',
    schema: { tags, summary: 'Run a report now (default: the period that ends now)', params: IdParamsSchema, body: ReportRunBodySchema, response: { 200: ReportRunSchema, ...errors } },
    config,
  },
  runs: {
    method: 'GET',
    url: '/api/yt/report/:id/runs',
    schema: { tags, summary: "A report's runs, newest first", params: IdParamsSchema, querystring: PageQuerySchema, response: { 200: ReportRunPageSchema, ...errors } },
    config,
  },
  file: {
    method: 'GET',
    url: '/api/yt/report/run/:id/file',
    schema: { tags, summary: "A run's .xlsx or .csv", params: IdParamsSchema, querystring: ReportFileQuerySchema, response: { 200: ReportFileSchema, ...errors } },
    config,
  },
  deleteRuns: {
    method: 'DELETE',
    url: '/api/yt/report/run',
    schema: { tags, summary: 'Delete runs with their files', body: IdsBodySchema, response: { 200: DeleteResultSchema, ...errors } },
    config,
  },
});
