/**
 * Types of the exceljs modules server/lib/xlsx.ts takes one by one (the package
 * types only its whole entry point). exceljs is pinned to an exact version in package.json and
 * the .xlsx tests in tests/integration/device-import.test.ts go through every one of these modules.
 */

declare module 'exceljs/lib/stream/xlsx/workbook-writer.js' {
  import type { stream } from 'exceljs';
  const WorkbookWriter: typeof stream.xlsx.WorkbookWriter;
  export default WorkbookWriter;
}

declare module 'exceljs/lib/stream/xlsx/worksheet-reader.js' {
  import type { Row } from 'exceljs';
  /** What the reader takes from its workbook: the parsed parts a sheet's cells refer to. */
  export interface SheetContext {
    sharedStrings: unknown[];
    styles: unknown;
    properties: { model: { date1904?: boolean } };
  }
  export default class WorksheetReader {
    constructor(init: {
      workbook: SheetContext;
      id: number;
      iterator: AsyncIterable<string>;
      options: { worksheets: 'emit'; hyperlinks: 'ignore' };
    });
    [Symbol.asyncIterator](): AsyncIterator<Row>;
  }
}

/** Parsers of one workbook part each; parseStream reads the part's XML text in chunks. */
declare module 'exceljs/lib/xlsx/xform/style/styles-xform.js' {
  export default class StylesXform {
    constructor(initialise?: boolean);
    parseStream(chunks: AsyncIterable<string>): Promise<unknown>;
  }
}

declare module 'exceljs/lib/xlsx/xform/strings/shared-strings-xform.js' {
  export default class SharedStringsXform {
    parseStream(chunks: AsyncIterable<string>): Promise<{ values: unknown[] } | undefined>;
  }
}

declare module 'exceljs/lib/xlsx/xform/book/workbook-xform.js' {
  export interface WorkbookModel {
    sheets?: { name: string; id: number; rId: string; state?: string }[];
    properties?: { date1904?: boolean };
  }
  export default class WorkbookXform {
    parseStream(chunks: AsyncIterable<string>): Promise<WorkbookModel | undefined>;
  }
}

declare module 'exceljs/lib/xlsx/xform/core/relationships-xform.js' {
  export interface Relationship {
    Id: string;
    Type: string;
    Target: string;
    TargetMode?: string;
  }
  export default class RelationshipsXform {
    parseStream(chunks: AsyncIterable<string>): Promise<Relationship[] | undefined>;
  }
}

declare module 'exceljs/lib/utils/utils.js' {
  const utils: {
    /** Whether a number format shows a date or time. */
    isDateFmt(format: string | undefined): boolean;
    /** A serial day number as the Date whose UTC fields are the sheet's wall-clock time. */
    excelToDate(serial: number, date1904?: boolean): Date;
  };
  export default utils;
}
