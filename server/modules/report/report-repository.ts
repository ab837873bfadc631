/** SQL for `report` and `report_run`. */
import type { Report, ReportListQuery, ReportPage, ReportRun, ReportRunPage } from '../../contract/report.ts';
import type { PageQuery } from '../../contract/common.ts';
import type { Language } from '../../contract/languages.ts';
import type { Db } from '../../db/sqlite.ts';
import { containsPattern, pageWindow, Where } from '../../db/list-query.ts';

interface ReportRecord {
  id: string;
  name: string;
  organization_id: string | null;
  definition: string;
  enabled: number;
  next_run_ts: number | null;
  last_due_ts: number | null;
  language: Language;
  create_time: number;
  update_time: number;
}

interface RunRecord {
  id: string;
  report_id: string;
  trigger: ReportRun['trigger'];
  start_ts: number;
  end_ts: number;
  create_time: number;
  rows: number;
  truncated: number;
  xlsx_bytes: number;
  csv_bytes: number;
}

type Definition = Pick<Report, 'series' | 'aggregation' | 'interval' | 'schedule'>;

function toReport(r: ReportRecord): Report {
  const d = JSON.parse(r.definition) as Definition;
  return {
    id: r.id,
    name: r.name,
    organizationId: r.organization_id,
    series: d.series,
    aggregation: d.aggregation,
    ...(d.interval !== undefined ? { interval: d.interval } : {}),
    schedule: d.schedule,
    enabled: r.enabled === 1,
    nextRunTs: r.next_run_ts,
    lastDueTs: r.last_due_ts,
    createdTime: r.create_time,
    updatedTime: r.update_time,
  };
}

function toRun(r: RunRecord): ReportRun {
  return {
    id: r.id,
    reportId: r.report_id,
    trigger: r.trigger,
    startTs: r.start_ts,
    endTs: r.end_ts,
    createdTime: r.create_time,
    rows: r.rows,
    truncated: r.truncated === 1,
    xlsxBytes: r.xlsx_bytes,
    csvBytes: r.csv_bytes,
  };
}

export class ReportRepository {
  constructor(private readonly db: Db) {}

  page(query: ReportListQuery, organizationIds: readonly string[] | null): ReportPage {
    const where = new Where();
    if (organizationIds) where.add(organizationIds.length ? `organization_id IN (${organizationIds.map(() => '?').join(',')})` : '0', ...organizationIds);
    if (query.name) where.add("name LIKE ? ESCAPE '\\'", containsPattern(query.name));
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const rows = this.db.prepare(`SELECT * FROM report ${where.sql} ORDER BY update_time DESC, rowid DESC LIMIT ? OFFSET ?`).all(...where.params, limit, offset) as unknown as ReportRecord[];
    const { n } = this.db.prepare(`SELECT COUNT(*) AS n FROM report ${where.sql}`).get(...where.params) as { n: number };
    return { items: rows.map(toReport), total: n };
  }

  find(id: string): Report | undefined {
    const r = this.db.prepare('SELECT * FROM report WHERE id = ?').get(id) as ReportRecord | undefined;
    return r && toReport(r);
  }

  /** Enabled reports whose next run is due at `now`. */
  due(now: number): Report[] {
    return (this.db.prepare('SELECT * FROM report WHERE enabled = 1 AND next_run_ts <= ? ORDER BY next_run_ts').all(now) as unknown as ReportRecord[]).map(toReport);
  }

  /** The language the report's files are written in. */
  languageOf(id: string): Language | undefined {
    return (this.db.prepare('SELECT language FROM report WHERE id = ?').get(id) as { language: Language } | undefined)?.language;
  }

  save(r: Report, language: Language): void {
    const definition = JSON.stringify({ series: r.series, aggregation: r.aggregation, interval: r.interval, schedule: r.schedule });
    this.db
      .prepare(
        `INSERT INTO report (id, name, organization_id, definition, enabled, next_run_ts, last_due_ts, language, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, organization_id = excluded.organization_id, definition = excluded.definition,
           enabled = excluded.enabled, next_run_ts = excluded.next_run_ts, language = excluded.language, update_time = excluded.update_time`,
      )
      .run(r.id, r.name, r.organizationId, definition, r.enabled ? 1 : 0, r.nextRunTs, r.lastDueTs, language, r.createdTime, r.updatedTime);
  }

  /** After a scheduled run: what it was due for and when the next one is. */
  scheduled(id: string, lastDueTs: number, nextRunTs: number | null): void {
    this.db.prepare('UPDATE report SET last_due_ts = ?, next_run_ts = ? WHERE id = ?').run(lastDueTs, nextRunTs, id);
  }

  delete(ids: readonly string[]): number {
    const stmt = this.db.prepare('DELETE FROM report WHERE id = ?');
    return ids.reduce((n, id) => n + Number(stmt.run(id).changes), 0);
  }

  addRun(run: ReportRun): void {
    this.db
      .prepare('INSERT INTO report_run (id, report_id, trigger, start_ts, end_ts, create_time, rows, truncated, xlsx_bytes, csv_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(run.id, run.reportId, run.trigger, run.startTs, run.endTs, run.createdTime, run.rows, run.truncated ? 1 : 0, run.xlsxBytes, run.csvBytes);
  }

  runPage(reportId: string, query: PageQuery): ReportRunPage {
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const rows = this.db.prepare('SELECT * FROM report_run WHERE report_id = ? ORDER BY create_time DESC, rowid DESC LIMIT ? OFFSET ?').all(reportId, limit, offset) as unknown as RunRecord[];
    const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM report_run WHERE report_id = ?').get(reportId) as { n: number };
    return { items: rows.map(toRun), total: n };
  }

  findRun(id: string): ReportRun | undefined {
    const r = this.db.prepare('SELECT * FROM report_run WHERE id = ?').get(id) as RunRecord | undefined;
    return r && toRun(r);
  }

  runIdsOf(reportId: string): string[] {
    return (this.db.prepare('SELECT id FROM report_run WHERE report_id = ?').all(reportId) as { id: string }[]).map((r) => r.id);
  }

  deleteRun(id: string): boolean {
    return Number(this.db.prepare('DELETE FROM report_run WHERE id = ?').run(id).changes) > 0;
  }

  /** Every run's id and bytes on disk, oldest first (what the disk budget removes first). */
  runSizesOldestFirst(): { id: string; bytes: number }[] {
    return this.db.prepare('SELECT id, xlsx_bytes + csv_bytes AS bytes FROM report_run ORDER BY create_time, rowid').all() as { id: string; bytes: number }[];
  }
}
