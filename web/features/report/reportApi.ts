/** Report calls over the contract (server/contract/report.ts). Saves are silent: the drawer shows failures on their fields. */
import type { DeleteResult } from '../../../server/contract/common.ts';
import { reportRoutes, type Report, type ReportBody, type ReportFormat, type ReportRun, type ReportUpdateBody } from '../../../server/contract/report.ts';
import { telemetryRoutes } from '../../../server/contract/telemetry.ts';
import { api } from '../../lib/api-client.ts';
import { saveBlob } from '../../lib/download.ts';

export function createReport(body: ReportBody): Promise<Report> {
  return api(reportRoutes.create, { body, silent: true });
}

export function updateReport(body: ReportUpdateBody): Promise<Report> {
  return api(reportRoutes.update, { body, silent: true });
}

export function deleteReports(ids: string[]): Promise<DeleteResult> {
  return api(reportRoutes.delete, { body: { ids } });
}

export function runReport(id: string): Promise<ReportRun> {
  return api(reportRoutes.run, { params: { id }, body: {} });
}

export function deleteRuns(ids: string[]): Promise<DeleteResult> {
  return api(reportRoutes.deleteRuns, { body: { ids } });
}

/** The keys a device ever reported, offered in the pair editor. */
export function reportedKeys(deviceId: string): Promise<string[]> {
  return api(telemetryRoutes.timeseriesKeys, { params: { id: deviceId }, silent: true });
}

/** Fetches a run's file behind the bearer token and saves it. */
export async function downloadRun(run: ReportRun, reportName: string, format: ReportFormat): Promise<void> {
  const blob = (await api(reportRoutes.file, { params: { id: run.id }, query: { format }, responseType: 'blob' })) as unknown as Blob;
  const stamp = new Date(run.endTs).toISOString().slice(0, 16).replace(/[-:T]/g, '');
  saveBlob(blob, `${reportName}-${stamp}.${format}`);
}
