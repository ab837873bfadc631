/**
 * A line chart over a report's data sheet, added to the workbook's zip as DrawingML parts, since
 * exceljs writes no charts: `xl/charts/chart1.xml` (one series per numeric column, the time column
 * as categories, formulas only: the spreadsheet program reads the values from the data sheet),
 * `xl/drawings/drawing1.xml` anchoring it on the chart sheet, their relationships, and the content
 * types. The chart sheet must be an empty worksheet written after the data sheet.
 */
import JSZip from 'jszip';

const NS = {
  c: 'http://schemas.openxmlformats.org/drawingml/2006/chart',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  xdr: 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing',
  rels: 'http://schemas.openxmlformats.org/package/2006/relationships',
};
const TYPES = {
  chart: 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml',
  drawing: 'application/vnd.openxmlformats-officedocument.drawing+xml',
};
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

export interface ChartSpec {
  /** The data sheet's name (quoted in formulas). */
  dataSheet: string;
  /** The chart sheet's part, e.g. `xl/worksheets/sheet3.xml`. */
  chartSheetPart: string;
  /** Data rows below the header row. */
  rows: number;
  /** 1-based data-sheet columns to plot (the time column is 1). */
  columns: number[];
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function columnName(n: number): string {
  let name = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) name = String.fromCharCode(65 + ((i - 1) % 26)) + name;
  return name;
}

function chartXml(spec: ChartSpec): string {
  const sheet = `'${spec.dataSheet.replace(/'/g, "''")}'`;
  const last = spec.rows + 1;
  const series = spec.columns
    .map((col, i) => {
      const c = columnName(col);
      return (
        `<c:ser><c:idx val="${i}"/><c:order val="${i}"/><c:tx><c:strRef><c:f>${escapeXml(`${sheet}!$${c}$1`)}</c:f></c:strRef></c:tx>` +
        `<c:marker><c:symbol val="none"/></c:marker><c:cat><c:strRef><c:f>${escapeXml(`${sheet}!$A$2:$A$${last}`)}</c:f></c:strRef></c:cat>` +
        `<c:val><c:numRef><c:f>${escapeXml(`${sheet}!$${c}$2:$${c}$${last}`)}</c:f></c:numRef></c:val><c:smooth val="0"/></c:ser>`
      );
    })
    .join('');
  return (
    `${XML_HEAD}<c:chartSpace xmlns:c="${NS.c}" xmlns:a="${NS.a}" xmlns:r="${NS.r}"><c:chart><c:autoTitleDeleted val="1"/><c:plotArea><c:layout/>` +
    `<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>${series}<c:marker val="1"/><c:axId val="1"/><c:axId val="2"/></c:lineChart>` +
    '<c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:tickLblPos val="nextTo"/><c:crossAx val="2"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>' +
    '<c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:majorGridlines/><c:numFmt formatCode="General" sourceLinked="1"/><c:tickLblPos val="nextTo"/><c:crossAx val="1"/><c:crosses val="autoZero"/><c:crossBetween val="between"/></c:valAx>' +
    '</c:plotArea><c:legend><c:legendPos val="b"/><c:overlay val="0"/></c:legend><c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart></c:chartSpace>'
  );
}

function drawingXml(): string {
  const corner = (col: number, row: number) => `<xdr:col>${col}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${row}</xdr:row><xdr:rowOff>0</xdr:rowOff>`;
  return (
    `${XML_HEAD}<xdr:wsDr xmlns:xdr="${NS.xdr}" xmlns:a="${NS.a}"><xdr:twoCellAnchor><xdr:from>${corner(0, 2)}</xdr:from><xdr:to>${corner(16, 32)}</xdr:to>` +
    '<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart 1"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>' +
    '<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">' +
    `<c:chart xmlns:c="${NS.c}" xmlns:r="${NS.r}" r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>`
  );
}

function relsXml(type: string, target: string): string {
  return `${XML_HEAD}<Relationships xmlns="${NS.rels}"><Relationship Id="rId1" Type="${NS.r}/${type}" Target="${target}"/></Relationships>`;
}

/** The workbook with the chart added; unchanged when there is nothing to plot. */
export async function withLineChart(xlsx: Buffer, spec: ChartSpec): Promise<Buffer> {
  if (spec.rows === 0 || spec.columns.length === 0) return xlsx;
  const zip = await JSZip.loadAsync(xlsx);
  const sheet = zip.file(spec.chartSheetPart);
  const types = zip.file('[Content_Types].xml');
  if (!sheet || !types) return xlsx;
  const sheetName = spec.chartSheetPart.split('/').pop()!;
  zip.file('xl/charts/chart1.xml', chartXml(spec));
  zip.file('xl/drawings/drawing1.xml', drawingXml());
  zip.file('xl/drawings/_rels/drawing1.xml.rels', relsXml('chart', '../charts/chart1.xml'));
  zip.file(`xl/worksheets/_rels/${sheetName}.rels`, relsXml('drawing', '../drawings/drawing1.xml'));
  // <drawing> follows pageSetup, the last element exceljs writes on an empty sheet.
  zip.file(spec.chartSheetPart, (await sheet.async('string')).replace('</worksheet>', '<drawing r:id="rId1"/></worksheet>'));
  const overrides = `<Override PartName="/xl/charts/chart1.xml" ContentType="${TYPES.chart}"/><Override PartName="/xl/drawings/drawing1.xml" ContentType="${TYPES.drawing}"/>`;
  zip.file('[Content_Types].xml', (await types.async('string')).replace('</Types>', `${overrides}</Types>`));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
