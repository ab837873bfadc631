/**
 * .xlsx for imports and exports (the device import, server/contract/device-import.ts, and the
 * Modbus point table): the first worksheet of an upload as rows of cell text, as a spreadsheet
 * program shows them, and a table written back as a workbook. Its users load this module with
 * `import()` only when an .xlsx comes or is asked for (uploaded-table.ts).
 *
 * exceljs' whole-workbook loader is not used for reading: it inflates every part of the zip and
 * keeps a model of every cell of every sheet, about 10 bytes of heap per byte of sheet XML (540 MB
 * for 10,000 rows × 100 columns), and a small upload can inflate to gigabytes. Here JSZip opens
 * the zip without inflating anything, the five parts needed are inflated under one byte budget,
 * and exceljs' streaming WorksheetReader turns the first worksheet into rows one at a time, so
 * reading stops at the row and column limits. Only the exceljs modules used are bundled
 * (server/lib/exceljs-parts.d.ts): the package entry would add its whole-workbook
 * model, its streaming reader's unzip and temp-file libraries and its CSV parsers, ~0.7 MB more.
 */
import { posix } from 'node:path';
import { PassThrough } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import JSZip from 'jszip';
import type { CellValue, Row } from 'exceljs';
import WorkbookWriter from 'exceljs/lib/stream/xlsx/workbook-writer.js';
import WorksheetReader, { type SheetContext } from 'exceljs/lib/stream/xlsx/worksheet-reader.js';
import StylesXform from 'exceljs/lib/xlsx/xform/style/styles-xform.js';
import SharedStringsXform from 'exceljs/lib/xlsx/xform/strings/shared-strings-xform.js';
import WorkbookXform from 'exceljs/lib/xlsx/xform/book/workbook-xform.js';
import RelationshipsXform, { type Relationship } from 'exceljs/lib/xlsx/xform/core/relationships-xform.js';
import excelUtils from 'exceljs/lib/utils/utils.js';
import { XLSX_MAX_COLUMNS, XLSX_MAX_INFLATED_BYTES } from '../contract/device-import.ts';

/** Why an upload is not read: not a workbook, a broken one, or one past the size limits. */
export type XlsxRefusal = 'notXlsx' | 'malformed' | 'tooLarge' | 'tooManyColumns';

export class XlsxRefused extends Error {
  constructor(readonly reason: XlsxRefusal) {
    super(`xlsx refused: ${reason}`);
  }
}

/** Bytes of XML handed to the parser at a time (the size exceljs' own loader uses). */
const XML_CHUNK = 16 * 1024;
const YIELD_EVERY = 64 * XML_CHUNK;
const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';

/**
 * The first worksheet's non-empty rows as text, each as wide as the header row or its own last
 * value; reading stops after `maxRows` rows, so more than that means "too many".
 * Throws XlsxRefused for anything but a readable workbook within the limits.
 */
export async function readXlsxRows(bytes: Buffer, maxRows: number): Promise<string[][]> {
  // A zip starts with a local file header; anything else (a CSV or an old .xls renamed) is no workbook.
  if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50) throw new XlsxRefused('notXlsx');
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw new XlsxRefused('malformed');
  }
  const parts = new PartReader(zip);
  if (!parts.has('xl/workbook.xml')) throw new XlsxRefused('notXlsx');
  try {
    return await readFirstSheet(parts, maxRows);
  } catch (err) {
    // The parsers throw plain errors (or TypeErrors) on XML they do not expect: a broken file.
    if (err instanceof XlsxRefused) throw err;
    throw new XlsxRefused('malformed');
  }
}

async function readFirstSheet(parts: PartReader, maxRows: number): Promise<string[][]> {
  const workbook = (await new WorkbookXform().parseStream(await parts.xml('xl/workbook.xml'))) ?? {};
  const rels = (parts.has('xl/_rels/workbook.xml.rels') && (await new RelationshipsXform().parseStream(await parts.xml('xl/_rels/workbook.xml.rels')))) || [];
  const target = (type: string): string | undefined => {
    const rel = rels.find((r) => r.Type === `${RELS}${type}`);
    return rel ? partName(rel.Target) : undefined;
  };
  // Sheets are listed in tab order; the first one that is a worksheet (not a chart sheet) is read.
  const sheetPart = (workbook.sheets ?? [])
    .map((sheet) => rels.find((r: Relationship) => r.Id === sheet.rId && r.Type === `${RELS}worksheet`))
    .find((rel) => rel !== undefined);
  const sheetName = sheetPart ? partName(sheetPart.Target) : 'xl/worksheets/sheet1.xml';
  if (!parts.has(sheetName)) throw new XlsxRefused('malformed');

  const stringsName = target('sharedStrings') ?? 'xl/sharedStrings.xml';
  const sharedStrings = parts.has(stringsName) ? ((await new SharedStringsXform().parseStream(await parts.xml(stringsName)))?.values ?? []) : [];
  const stylesName = target('styles') ?? 'xl/styles.xml';
  const styles = new StylesXform(true);
  if (parts.has(stylesName)) await styles.parseStream(await parts.xml(stylesName));
  const date1904 = workbook.properties?.date1904 === true;

  const context: SheetContext = { sharedStrings, styles, properties: { model: { date1904 } } };
  const reader = new WorksheetReader({ workbook: context, id: 1, iterator: await parts.xml(sheetName), options: { worksheets: 'emit', hyperlinks: 'ignore' } });
  const rows: string[][] = [];
  for await (const row of reader) {
    const cells = rowText(row, date1904);
    if (cells.length === 0) continue;
    // As wide as the header at least, as a CSV line with its trailing empty fields would be.
    while (cells.length < (rows[0]?.length ?? 0)) cells.push('');
    rows.push(cells);
    if (rows.length > maxRows) break;
  }
  return rows;
}

/** A relationship target (relative to xl/, or absolute from the package root) as a zip path. */
function partName(target: string): string {
  return target.startsWith('/') ? posix.normalize(target.slice(1)) : posix.normalize(posix.join('xl', target));
}

/** The zip's parts by name (OPC names are case-insensitive), inflated under one shared budget. */
class PartReader {
  private readonly files = new Map<string, JSZip.JSZipObject>();
  private budget = XLSX_MAX_INFLATED_BYTES;

  constructor(zip: JSZip) {
    zip.forEach((path, file) => {
      if (!file.dir) this.files.set(path.replace(/^\/+/, '').toLowerCase(), file);
    });
  }

  has(name: string): boolean {
    return this.files.has(name.toLowerCase());
  }

  /** The part's XML text in chunks for exceljs' parsers. */
  async xml(name: string): Promise<AsyncIterable<string>> {
    const file = this.files.get(name.toLowerCase());
    if (!file) throw new XlsxRefused('malformed');
    return textChunks(await this.inflate(file));
  }

  /**
   * Inflates in the stream's chunks and gives up as soon as the budget is spent: the sizes a zip
   * declares can lie, so only the bytes really produced count.
   */
  private inflate(file: JSZip.JSZipObject): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const stream = file.nodeStream('nodebuffer') as NodeJS.ReadableStream & { destroy?: () => void };
      stream.on('data', (chunk: Buffer) => {
        this.budget -= chunk.length;
        if (this.budget < 0) {
          stream.pause();
          stream.removeAllListeners('data');
          stream.destroy?.();
          reject(new XlsxRefused('tooLarge'));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', () => reject(new XlsxRefused('malformed')));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  }
}

/**
 * UTF-8 decoded piecewise, so a character split between two pieces stays whole. Parsing a large
 * sheet takes a second or more of CPU: every 1 MB the event loop gets a turn, so MQTT traffic and
 * other requests are not held up meanwhile.
 */
async function* textChunks(bytes: Buffer): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for (let i = 0; i < bytes.length; i += XML_CHUNK) {
    if (i > 0 && i % YIELD_EVERY === 0) await setImmediate();
    yield decoder.decode(bytes.subarray(i, i + XML_CHUNK), { stream: true });
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

function rowText(row: Row, date1904: boolean): string[] {
  const cells: string[] = [];
  row.eachCell({ includeEmpty: false }, (cell, column) => {
    const text = cellText(cell.value, cell.numFmt, date1904);
    if (text === '') return;
    if (column > XLSX_MAX_COLUMNS) throw new XlsxRefused('tooManyColumns');
    while (cells.length < column - 1) cells.push('');
    cells[column - 1] = text;
  });
  return cells;
}

/**
 * What a spreadsheet program shows for a cell: numbers to the 15 significant digits Excel keeps
 * (no binary float tails such as 120.09999999999999), zero-padded when the format pads them,
 * dates as `YYYY-MM-DD HH:mm:ss`, a formula's cached result, rich text's characters.
 */
export function cellText(value: CellValue | undefined, numFmt: string | undefined, date1904: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    if (excelUtils.isDateFmt(numFmt)) return dateText(excelUtils.excelToDate(value, date1904));
    return numberText(value, numFmt);
  }
  if ('richText' in value && Array.isArray(value.richText)) return value.richText.map((run) => run.text ?? '').join('');
  // A formula, or a shared formula's other cells ({ formula: '', result }).
  if ('result' in value || 'formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: CellValue }).result;
    return result !== null && typeof result === 'object' && 'error' in result ? String(result.error) : cellText(result, numFmt, date1904);
  }
  if ('error' in value) return String(value.error);
  if ('text' in value) return cellText(value.text as CellValue, numFmt, date1904);
  return '';
}

const PADDED = /^(0+)(?:\.(0+))?$/;

function numberText(value: number, numFmt: string | undefined): string {
  const padded = numFmt ? PADDED.exec(numFmt) : null;
  if (padded) {
    const [, whole = '', decimals = ''] = padded;
    const [int = '', frac] = Math.abs(value).toFixed(decimals.length).split('.');
    return `${value < 0 ? '-' : ''}${int.padStart(whole.length, '0')}${frac === undefined ? '' : `.${frac}`}`;
  }
  return String(Number(value.toPrecision(15)));
}

/** The Date's UTC fields are the sheet's wall-clock time; rounded to the second Excel shows. */
function dateText(date: Date): string {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) return '';
  return new Date(Math.round(ms / 1000) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A one-sheet workbook of text cells, the header row bold and frozen. exceljs' streaming writer
 * zips each row as it is committed: its whole-workbook writer peaked at 1.1 GB of heap for 10,000
 * rows × 100 columns, this one at ~40 MB.
 */
export async function writeXlsx(sheetName: string, header: string[], rows: string[][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  const head = sheet.addRow(header);
  head.font = { bold: true };
  head.commit();
  // Strings stay strings: a cell such as "=1+1" or "007" is written as the text it was, never as a
  // formula or a number.
  for (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}
