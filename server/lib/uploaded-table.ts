/**
 * An uploaded .csv or .xlsx file as rows of cell text (the device import and the Modbus point
 * table), refused with the `error.import.*` keys the console knows. The .xlsx reader is loaded only
 * when an .xlsx comes.
 */
import Papa from 'papaparse';
import { IMPORT_MAX_ROWS, XLSX_MAX_COLUMNS, XLSX_MAX_INFLATED_BYTES } from '../contract/device-import.ts';
import { ErrorCode } from '../contract/errors.ts';
import { AppError } from './app-error.ts';
import { translate } from './messages.ts';

type ImportErrorKey =
  | 'error.import.badType'
  | 'error.import.empty'
  | 'error.import.malformed'
  | 'error.import.notXlsx'
  | 'error.import.xlsxMalformed'
  | 'error.import.xlsxTooLarge'
  | 'error.import.tooManyColumns';

/** A refusal of the uploaded file, its reason under the `file` field. */
export function importError(key: ImportErrorKey, params: Record<string, number> = {}): AppError {
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, key, params, {
    details: [{ field: 'file', key, message: translate('en_US', key, params) }],
  });
}

/** UTF-8 (BOM or not), else GB18030 as Excel saves CSV on Chinese systems; binary content is refused. */
function decodeText(bytes: Buffer): string | null {
  for (const encoding of ['utf-8', 'gb18030']) {
    try {
      const text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
      return text.includes('\u0000') ? null : text;
    } catch {
      // not this encoding: try the next
    }
  }
  return null;
}

export function csvTable(bytes: Buffer): string[][] {
  const text = decodeText(bytes);
  if (text === null) throw importError('error.import.badType');
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  const broken = parsed.errors.find((e) => e.type === 'Quotes');
  if (broken) throw importError('error.import.malformed', { row: (broken.row ?? 0) + 1 });
  return parsed.data;
}

/** The first worksheet, read no further than one row past the limit. */
export async function xlsxTable(bytes: Buffer): Promise<string[][]> {
  // Loaded on the first .xlsx: exceljs is large and most gateways never see one (xlsx.ts).
  const { readXlsxRows, XlsxRefused } = await import('./xlsx.ts');
  try {
    return await readXlsxRows(bytes, IMPORT_MAX_ROWS + 1);
  } catch (err) {
    if (!(err instanceof XlsxRefused)) throw err;
    switch (err.reason) {
      case 'notXlsx':
        throw importError('error.import.notXlsx');
      case 'malformed':
        throw importError('error.import.xlsxMalformed');
      case 'tooLarge':
        throw importError('error.import.xlsxTooLarge', { size: XLSX_MAX_INFLATED_BYTES / 1024 / 1024 });
      case 'tooManyColumns':
        throw importError('error.import.tooManyColumns', { max: XLSX_MAX_COLUMNS });
    }
  }
}
