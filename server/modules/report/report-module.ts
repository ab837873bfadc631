/** Scheduled reports: device/key history written as .xlsx and CSV on a schedule or by hand. */
import { defineModule } from '../../module.ts';
import m0096 from './migrations/0096-report.sql';
import { registerReportRoutes } from './report-routes.ts';
import { ReportService } from './report-service.ts';

declare module '../../module.ts' {
  interface Services {
    reports: ReportService;
  }
  interface Tuning {
    /** How often the report timer looks for due reports, in ms (tests make it short). */
    reportTickMs?: number;
    /** Bytes of report files kept, in place of `--report-disk-mb` (tests make it small). */
    reportBudgetBytes?: number;
  }
}

/** The one timer for all reports looks every 20 s: a run starts within that of its time. */
const REPORT_TICK_MS = 20_000;
const MB = 1024 * 1024;

export const reportModule = defineModule({
  name: 'report',
  needs: ['devices', 'organizations', 'telemetry'],
  migrations: [{ name: '0096-report', sql: m0096 }],
  apiTags: { report: 'Scheduled reports: device/key history as .xlsx and CSV, monthly, weekly or daily, kept within a disk budget' },
  build: ({ core, log, tuning, services: { devices, organizations, telemetry } }) => {
    const reports = new ReportService({
      db: core.db,
      log,
      dataDir: core.config.dataDir,
      budgetBytes: tuning.reportBudgetBytes ?? core.config.reportDiskMb * MB,
      tickMs: tuning.reportTickMs ?? REPORT_TICK_MS,
      history: (deviceId, query) => telemetry.timeseries(deviceId, query),
      devicesWithin: (scope) => devices.within(scope),
      organizationExists: (id) => organizations.exists(id),
    });
    return { reports };
  },
  routes: registerReportRoutes,
  start: ({ reports }) => reports.startSchedule(),
  close: ({ reports }) => reports.stopSchedule(),
});
