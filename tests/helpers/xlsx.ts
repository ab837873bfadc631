/** Workbooks made and read with exceljs' own full API, independent of the server's reader and writer. */
import ExcelJS from 'exceljs';

/** An .xlsx whose first worksheet holds `rows`; `more` may style cells or add sheets before it is written. */
export async function xlsxOf(rows: ExcelJS.CellValue[][], more?: (workbook: ExcelJS.Workbook, sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('devices');
  sheet.addRows(rows);
  more?.(workbook, sheet);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The first worksheet's cell values, row by row (column 1 first), an empty cell as ''. */
export async function valuesOfXlsx(bytes: Buffer): Promise<ExcelJS.CellValue[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  const rows: ExcelJS.CellValue[][] = [];
  workbook.worksheets[0]!.eachRow((row) => {
    const values = row.values as ExcelJS.CellValue[];
    rows.push(Array.from({ length: values.length - 1 }, (_, i) => values[i + 1] ?? ''));
  });
  return rows;
}
