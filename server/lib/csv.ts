/**
 * CSV downloads: UTF-8 with a BOM (so spreadsheet programs read Chinese text right) and cells that
 * would start a formula prefixed with ' (a spreadsheet must not execute imported text).
 */
import Papa from 'papaparse';

/**
 * A cell a spreadsheet may read as a formula: one starting with = + - @, or with a tab, CR or LF
 * before one. Only the first character is tested, whatever follows: papaparse's own pattern
 * (`escapeFormulae: true`) ends in `.*$` without the `s` flag, so a cell holding a line break
 * ("=HYPERLINK(…)\n…") escapes it.
 */
const FORMULA_START = /^[=+\-@\t\r\n]/;

export function toCsv(fields: string[], rows: string[][]): string {
  return `\uFEFF${Papa.unparse({ fields, data: rows }, { escapeFormulae: FORMULA_START, newline: '\r\n' })}\r\n`;
}
