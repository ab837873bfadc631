/**
 * CSV downloads: UTF-8 with a BOM (so spreadsheet programs read Chinese text right) and cells that
 * would start a formula prefixed with ' (a spreadsheet must not execute imported text).
 */
import Papa from 'papaparse';

export function toCsv(fields: string[], rows: string[][]): string {
  return `\uFEFF${Papa.unparse({ fields, data: rows }, { escapeFormulae: true, newline: '\r\n' })}\r\n`;
}
