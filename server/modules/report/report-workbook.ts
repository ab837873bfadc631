/**
 * A run's files: the table as an .xlsx (a data sheet with a time column and one column per
 * device/key, a chart sheet plotting its numeric columns, and a sheet describing the run) and as a CSV, in the language the report was saved
 * in. A period without data still gives both files, saying so in place of rows.
 */
import { PassThrough } from 'node:stream';
import WorkbookWriter from 'exceljs/lib/stream/xlsx/workbook-writer.js';
import zhReports from '../../../locales/zh_CN/reports.json' with { type: 'json' };
import enReports from '../../../locales/en_US/reports.json' with { type: 'json' };
import type { Language } from '../../contract/languages.ts';
import { REPORT_ROWS_MAX, type Report } from '../../contract/report.ts';
import { toCsv } from '../../lib/csv.ts';
import { withLineChart } from './report-chart.ts';
import type { Cell, ReportTable } from './report-table.ts';

type FileKey = keyof typeof enReports.file;
const files: Record<Language, Record<FileKey, string>> = { zh_CN: zhReports.file, en_US: enReports.file };

export function fileText(lang: Language, key: FileKey, params: Record<string, string | number> = {}): string {
  return files[lang][key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** `YYYY-MM-DD HH:mm:ss` of `ts` in `timeZone` (sv-SE writes dates in that order). */
export function localTime(ts: number, timeZone: string): string {
  return new Date(ts).toLocaleString('sv-SE', { timeZone, hourCycle: 'h23' });
}

export interface RunContext {
  report: Report;
  table: ReportTable;
  /** Column titles, one per series ("Boiler 1 / temperature"). */
  columns: string[];
  startTs: number;
  endTs: number;
  lang: Language;
}

function header(c: RunContext): string[] {
  return [fileText(c.lang, 'time', { timeZone: c.report.schedule.timeZone }), ...c.columns];
}

/** Lines that say what is not in the rows: no data, rows cut. */
function notes(c: RunContext): string[] {
  const out: string[] = [];
  if (c.table.times.length === 0) out.push(fileText(c.lang, 'noData'));
  if (c.table.truncated) out.push(fileText(c.lang, 'truncated', { max: REPORT_ROWS_MAX }));
  return out;
}

function aboutRows(c: RunContext): string[][] {
  const tz = c.report.schedule.timeZone;
  const aggregation = c.report.aggregation === 'NONE' ? 'NONE' : `${c.report.aggregation} / ${c.report.interval! / 60_000} min`;
  return [
    [fileText(c.lang, 'name'), c.report.name],
    [fileText(c.lang, 'period'), `${localTime(c.startTs, tz)} – ${localTime(c.endTs, tz)} (${tz})`],
    [fileText(c.lang, 'aggregation'), aggregation],
    [fileText(c.lang, 'rows'), String(c.table.times.length)],
    ...notes(c).map((n) => [n]),
  ];
}

/**
 * The workbook, written row by row with exceljs' streaming writer (server/lib/xlsx.ts says why).
 * Numbers stay numbers so a spreadsheet can chart and sum them; text cells stay text.
 */
export async function reportXlsx(c: RunContext): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const data = workbook.addWorksheet(fileText(c.lang, 'data'), { views: [{ state: 'frozen', ySplit: 1 }] });
  data.columns = header(c).map((_, i) => ({ width: i === 0 ? 21 : 18 }));
  const head = data.addRow(header(c));
  head.font = { bold: true };
  head.commit();
  const tz = c.report.schedule.timeZone;
  c.table.times.forEach((t, i) => data.addRow([localTime(t, tz), ...(c.table.cells[i] as Cell[])]).commit());
  for (const note of notes(c)) data.addRow([note]).commit();
  data.commit();
  const chart = workbook.addWorksheet(fileText(c.lang, 'chart'));
  chart.addRow([fileText(c.lang, 'chartHint')]).commit();
  chart.commit();
  const about = workbook.addWorksheet(fileText(c.lang, 'about'));
  about.columns = [{ width: 16 }, { width: 48 }];
  for (const row of aboutRows(c)) about.addRow(row).commit();
  about.commit();
  await workbook.commit();
  const numeric = c.columns.map((_, i) => i).filter((i) => c.table.cells.some((row) => typeof row[i] === 'number'));
  return withLineChart(Buffer.concat(chunks), {
    dataSheet: fileText(c.lang, 'data'),
    chartSheetPart: 'xl/worksheets/sheet2.xml',
    rows: c.table.times.length,
    columns: numeric.map((i) => i + 2),
  });
}

export function reportCsv(c: RunContext): string {
  const tz = c.report.schedule.timeZone;
  const rows = c.table.times.map((t, i) => [localTime(t, tz), ...(c.table.cells[i] as Cell[]).map((v) => (v === null ? '' : String(v)))]);
  return toCsv(header(c), [...rows, ...notes(c).map((n) => [n])]);
}
