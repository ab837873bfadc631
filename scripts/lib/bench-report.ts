/**
 * A month's report (issue 31): 10 devices × 2 keys at 1 Hz for 30 days (51.8 million values),
 * stored through the telemetry repository's bulk insert and compacted into blocks as the gateway
 * does (the history group's store, scripts/lib/bench-history.ts), then one report run written: the
 * telemetry service's history query (AVG by hour, 720 rows × 20 columns) and the .xlsx and CSV,
 * in process. The figure is the run alone (query + files), not the seeding.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Report } from '../../server/contract/report.ts';
import { TelemetryService } from '../../server/modules/telemetry/telemetry-service.ts';
import { reportTable } from '../../server/modules/report/report-table.ts';
import { ReportFiles } from '../../server/modules/report/report-files.ts';
import { reportCsv, reportXlsx } from '../../server/modules/report/report-workbook.ts';
import type { RowSpec } from './bench-row.ts';
import { count } from './bench-measure.ts';
import { compact, fill, loadMigrations, simulatorReadings, START, store } from './bench-history.ts';

const DEVICES = 10;
const DAYS = 30;
const DAY = 86_400_000;

export async function reportRows(): Promise<RowSpec[]> {
  await loadMigrations();
  const s = store();
  const out = mkdtempSync(join(tmpdir(), 'edge-bench-report-'));
  try {
    const seedStarted = performance.now();
    const values = fill(s, DEVICES, (DAYS * DAY) / 1000, simulatorReadings());
    await compact(s);
    const seedS = (performance.now() - seedStarted) / 1000;
    // Only the history query of the service runs: it needs the device lookup and the repository.
    const telemetry = new TelemetryService({ db: s.db, rows: s.rows, devices: { get: () => ({}), refs: () => [] } } as never);
    const report: Report = {
      id: 'bench',
      name: 'Monthly',
      organizationId: null,
      series: Array.from({ length: DEVICES }, (_, d) => ['temperature', 'humidity'].map((key) => ({ deviceId: `device-${d}`, key }))).flat(),
      aggregation: 'AVG',
      interval: 3_600_000,
      schedule: { frequency: 'MONTHLY', monthDays: [1], hours: [0], timeZone: 'Asia/Shanghai' },
      enabled: true,
      nextRunTs: null,
      lastDueTs: null,
      createdTime: 0,
      updatedTime: 0,
    };
    const started = performance.now();
    const table = reportTable((id, q) => telemetry.timeseries(id, q), report, START, START + DAYS * DAY);
    const context = { report, table, columns: report.series.map((x) => `${x.deviceId} / ${x.key}`), startTs: START, endTs: START + DAYS * DAY, lang: 'en_US' as const };
    const sizes = new ReportFiles(out).write('run', await reportXlsx(context), reportCsv(context));
    const ms = performance.now() - started;
    return [
      {
        id: 'reportMonth10x2',
        figure: "a month's report of 10 devices × 2 keys at 1 Hz written (AVG by hour, .xlsx + CSV)",
        value: ms / 1000,
        unit: 's',
        budget: 5,
        note:
          `${count(values)} values stored through the repository's bulk insert and compacted (${seedS.toFixed(0)} s, not counted); ` +
          `${table.times.length} rows × ${report.series.length} columns, ${(sizes.xlsxBytes / 1024).toFixed(0)} KB .xlsx + ${(sizes.csvBytes / 1024).toFixed(0)} KB CSV, written durably`,
      },
    ];
  } finally {
    s.close();
    rmSync(out, { recursive: true, force: true });
  }
}
