/**
 * A run's files under `<data-dir>/reports/`: `<run id>.xlsx` and `<run id>.csv`, each written to a
 * temporary name, flushed and renamed (server/lib/durable-file.ts), so a download or a power cut
 * never meets half a file.
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ReportFormat } from '../../contract/report.ts';
import { writeFileDurably } from '../../lib/durable-file.ts';

export class ReportFiles {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'reports');
  }

  pathOf(runId: string, format: ReportFormat): string {
    // Run ids are the server's own (newId), never the client's text.
    return join(this.dir, `${runId}.${format}`);
  }

  write(runId: string, xlsx: Buffer, csv: string): { xlsxBytes: number; csvBytes: number } {
    writeFileDurably(this.pathOf(runId, 'xlsx'), xlsx);
    writeFileDurably(this.pathOf(runId, 'csv'), csv);
    return { xlsxBytes: statSync(this.pathOf(runId, 'xlsx')).size, csvBytes: statSync(this.pathOf(runId, 'csv')).size };
  }

  exists(runId: string, format: ReportFormat): boolean {
    return statSync(this.pathOf(runId, format), { throwIfNoEntry: false })?.isFile() ?? false;
  }

  remove(runId: string): void {
    for (const format of ['xlsx', 'csv'] as const) rmSync(this.pathOf(runId, format), { force: true });
  }
}
