/**
 * Report rules, runs and their files (server/contract/report.ts). A scoped caller sees only its
 * organizations' reports and runs; anything else answers 404. Runs go one at a time (a queue), so
 * a run by hand and a scheduled one never write at once on a two-core gateway.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DeleteResult, PageQuery } from '../../contract/common.ts';
import type { Language } from '../../contract/languages.ts';
import {
  REPORT_RANGE_MAX,
  type Report,
  type ReportBody,
  type ReportListQuery,
  type ReportPage,
  type ReportRun,
  type ReportRunBody,
  type ReportRunPage,
  type ReportTrigger,
  type ReportUpdateBody,
} from '../../contract/report.ts';
import type { Db } from '../../db/sqlite.ts';
import { transaction } from '../../db/sqlite.ts';
import { inScope, type DeviceScope, type ScopedDevices } from '../../lib/device-scope.ts';
import { assertNoViolations, notFound, violationError, type Violation } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import { ReportFiles } from './report-files.ts';
import { ReportRepository } from './report-repository.ts';
import { isIanaTimeZone, nextRunAfter, previousRunBefore } from './report-schedule.ts';
import { reportTable, type HistoryQuery } from './report-table.ts';
import { fileText, reportCsv, reportXlsx } from './report-workbook.ts';

export interface ReportServiceDeps {
  db: Db;
  log: FastifyBaseLogger;
  dataDir: string;
  /** Bytes all runs' files may take together; the oldest runs go first. */
  budgetBytes: number;
  /** How often the one timer of all reports looks for due ones. */
  tickMs: number;
  history: HistoryQuery;
  devicesWithin(scope: DeviceScope): ScopedDevices;
  organizationExists(id: string): boolean;
}

/** Broken rules a schema cannot state: the schedule's days for its frequency, the zone, the interval, the devices. */
function definitionViolations(body: ReportBody, devices: ScopedDevices): Violation[] {
  const v: Violation[] = [];
  const s = body.schedule;
  if (s.frequency === 'MONTHLY' && !s.monthDays?.length) v.push({ field: 'schedule.monthDays', key: 'error.report.monthDays' });
  if (s.frequency === 'WEEKLY' && !s.weekdays?.length) v.push({ field: 'schedule.weekdays', key: 'error.report.weekdays' });
  if (!isIanaTimeZone(s.timeZone)) v.push({ field: 'schedule.timeZone', key: 'error.report.timeZone' });
  if (body.aggregation !== 'NONE' && body.interval === undefined) v.push({ field: 'interval', key: 'error.report.intervalRequired' });
  body.series.forEach((p, i) => {
    if (!devices.exists(p.deviceId)) v.push({ field: `series.${i}.deviceId`, key: 'error.report.deviceUnknown', params: { key: p.key } });
  });
  return v;
}

export class ReportService {
  readonly rows: ReportRepository;
  readonly files: ReportFiles;
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ReportServiceDeps) {
    this.rows = new ReportRepository(deps.db);
    this.files = new ReportFiles(deps.dataDir);
  }

  page(query: ReportListQuery, scope: DeviceScope): ReportPage {
    return this.rows.page(query, scope?.organizationIds ?? null);
  }

  get(id: string, scope: DeviceScope): Report {
    const found = this.rows.find(id);
    if (!found || !inScope(scope, found.organizationId)) throw notFound();
    return found;
  }

  create(body: ReportBody, scope: DeviceScope, lang: Language): Report {
    this.check(body, scope);
    const now = Date.now();
    const report = this.of(newId(), body, { createdTime: now, lastDueTs: null });
    this.rows.save(report, lang);
    return report;
  }

  update(body: ReportUpdateBody, scope: DeviceScope, lang: Language): Report {
    const { id, ...fields } = body;
    const existing = this.get(id, scope);
    this.check(fields, scope);
    const report = this.of(id, fields, existing);
    this.rows.save(report, lang);
    return report;
  }

  delete(ids: readonly string[], scope: DeviceScope): DeleteResult {
    const mine = ids.filter((id) => {
      const found = this.rows.find(id);
      return found !== undefined && inScope(scope, found.organizationId);
    });
    const runIds = mine.flatMap((id) => this.rows.runIdsOf(id));
    const deleted = transaction(this.deps.db, () => this.rows.delete(mine));
    for (const runId of runIds) this.files.remove(runId);
    return { deleted };
  }

  runs(reportId: string, query: PageQuery, scope: DeviceScope): ReportRunPage {
    this.get(reportId, scope);
    return this.rows.runPage(reportId, query);
  }

  /** A run the caller may read (its report within the scope), or 404. */
  run(runId: string, scope: DeviceScope): ReportRun {
    const run = this.rows.findRun(runId);
    if (!run) throw notFound();
    this.get(run.reportId, scope);
    return run;
  }

  deleteRuns(ids: readonly string[], scope: DeviceScope): DeleteResult {
    let deleted = 0;
    for (const id of ids) {
      const run = this.rows.findRun(id);
      if (!run || !inScope(scope, this.rows.find(run.reportId)?.organizationId ?? null)) continue;
      if (this.rows.deleteRun(id)) deleted++;
      this.files.remove(id);
    }
    return { deleted };
  }

  /** A run by hand over the range asked, by default the schedule's period length ending now. */
  async runNow(id: string, body: ReportRunBody, scope: DeviceScope): Promise<ReportRun> {
    const report = this.get(id, scope);
    const now = Date.now();
    const endTs = body.endTs ?? now;
    const startTs = body.startTs ?? endTs - this.periodLength(report, now);
    if (startTs >= endTs) throw violationError([{ field: 'startTs', key: 'error.report.rangeInvalid' }]);
    if (endTs - startTs > REPORT_RANGE_MAX) throw violationError([{ field: 'startTs', key: 'error.report.rangeTooLong', params: { days: REPORT_RANGE_MAX / 86_400_000 } }]);
    return this.enqueue(report, 'MANUAL', startTs, endTs);
  }

  /**
   * Runs every enabled report whose time has come, once each, for its latest time due (times
   * passed over while the gateway was off or the clock jumped are not repeated one by one).
   */
  async runDue(trigger: Extract<ReportTrigger, 'SCHEDULE' | 'MISSED'>, now = Date.now()): Promise<void> {
    for (const report of this.rows.due(now)) {
      const due = previousRunBefore(report.schedule, now + 1);
      const next = nextRunAfter(report.schedule, now);
      if (due === null) continue;
      const startTs = previousRunBefore(report.schedule, due) ?? due - 86_400_000;
      try {
        await this.enqueue(report, trigger, startTs, due);
      } catch (err) {
        this.deps.log.error({ err, report: report.id }, 'scheduled report run failed');
      }
      // Advanced even after a failure: a report that cannot be written must not be retried every tick.
      this.rows.scheduled(report.id, due, next);
    }
  }

  /** Runs what was missed while the gateway was off (without holding up the start), then looks for due reports every tick. */
  startSchedule(): void {
    this.ticking = this.runDue('MISSED');
    this.timer = setInterval(() => {
      this.ticking = this.ticking.then(() => this.runDue('SCHEDULE'));
    }, this.deps.tickMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run under way (its files are then whole and recorded). */
  async stopSchedule(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
    await this.queue;
  }

  private periodLength(report: Report, now: number): number {
    const last = previousRunBefore(report.schedule, now + 1);
    const before = last === null ? null : previousRunBefore(report.schedule, last);
    return last !== null && before !== null ? last - before : 86_400_000;
  }

  private enqueue(report: Report, trigger: ReportTrigger, startTs: number, endTs: number): Promise<ReportRun> {
    const next = this.queue.then(() => this.write(report, trigger, startTs, endTs));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async write(report: Report, trigger: ReportTrigger, startTs: number, endTs: number): Promise<ReportRun> {
    const lang = this.rows.languageOf(report.id) ?? 'zh_CN';
    const table = reportTable(this.deps.history, report, startTs, endTs);
    const devices = this.deps.devicesWithin(null);
    const columns = report.series.map((s) => {
      const name = devices.exists(s.deviceId) ? devices.get(s.deviceId).name : fileText(lang, 'deletedDevice', { id: s.deviceId });
      return `${name} / ${s.key}`;
    });
    const context = { report, table, columns, startTs, endTs, lang };
    const xlsx = await reportXlsx(context);
    const id = newId();
    const sizes = this.files.write(id, xlsx, reportCsv(context));
    const run: ReportRun = { id, reportId: report.id, trigger, startTs, endTs, createdTime: Date.now(), rows: table.times.length, truncated: table.truncated, ...sizes };
    if (this.rows.find(report.id)) this.rows.addRun(run);
    else this.files.remove(id); // deleted while it ran
    this.keepWithinBudget(id);
    return run;
  }

  /** Removes the oldest runs until all files fit the budget; the run just written always stays. */
  private keepWithinBudget(keep: string): void {
    const runs = this.rows.runSizesOldestFirst();
    let total = runs.reduce((n, r) => n + r.bytes, 0);
    for (const r of runs) {
      if (total <= this.deps.budgetBytes) break;
      if (r.id === keep) continue;
      this.rows.deleteRun(r.id);
      this.files.remove(r.id);
      total -= r.bytes;
    }
  }

  private check(body: ReportBody, scope: DeviceScope): void {
    const org = body.organizationId ?? null;
    const orgViolations: Violation[] =
      (org !== null && !this.deps.organizationExists(org)) || !inScope(scope, org) ? [{ field: 'organizationId', key: 'error.report.organizationUnknown' }] : [];
    assertNoViolations([...orgViolations, ...definitionViolations(body, this.deps.devicesWithin(scope))]);
  }

  private of(id: string, body: ReportBody, kept: { createdTime: number; lastDueTs: number | null }): Report {
    const now = Date.now();
    return {
      id,
      name: body.name.trim(),
      organizationId: body.organizationId ?? null,
      series: body.series,
      aggregation: body.aggregation,
      ...(body.aggregation !== 'NONE' && body.interval !== undefined ? { interval: body.interval } : {}),
      schedule: body.schedule,
      enabled: body.enabled,
      nextRunTs: body.enabled ? nextRunAfter(body.schedule, now) : null,
      lastDueTs: kept.lastDueTs,
      createdTime: kept.createdTime,
      updatedTime: now,
    };
  }
}
