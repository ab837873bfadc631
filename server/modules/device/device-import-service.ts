/**
 * CSV and XLSX device import (server/contract/device-import.ts): parse and keep the rows for a while, then
 * check every row with the device rules and create the valid ones in one transaction; the rejected
 * rows stay downloadable with their reasons.
 */
import { Compile } from 'typebox/compile';
import { ErrorCode } from '../../contract/errors.ts';
import { DeviceBodySchema, type DeviceBody } from '../../contract/device.ts';
import {
  importFormatOf,
  IMPORT_MAX_ROWS,
  IMPORT_SAMPLE_ROWS,
  IMPORT_TTL_MS,
  importFields,
  importHeaderHints,
  normalizeImportHeader,
  type ImportCommitBody,
  type ImportField,
  type ImportPreview,
  type ImportResult,
  type RejectedRow,
} from '../../contract/device-import.ts';
import { AppError } from '../../lib/app-error.ts';
import { toCsv } from '../../lib/csv.ts';
import { csvTable, importError, xlsxTable } from '../../lib/uploaded-table.ts';
import { assertNoViolations, schemaViolations, type Violation } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Language } from '../../contract/languages.ts';
import { translate } from '../../lib/messages.ts';
import type { Product } from '../../contract/product.ts';
import type { ProductService } from '../product/product-service.ts';
import type { CredentialsService } from './credentials-service.ts';
import { deviceFieldKeys, deviceViolations, draftOf, type DeviceRefs } from './device-rules.ts';
import type { DeviceService, NewDevice } from './device-service.ts';
import { ExpiringStore } from './expiring-store.ts';

/** Parsed files held at once: each can be 5 MB of text, and the gateway's memory is small. */
const MAX_SESSIONS = 4;
const deviceBody = Compile(DeviceBodySchema);

interface RejectedCells {
  row: number;
  cells: string[];
  violations: Violation[];
}

/** Names and tokens met so far in the file, with the row that has them. */
interface SeenInFile {
  names: Map<string, number>;
  tokens: Map<string, number>;
}

/** What every row of an import shares ("basic info" step). */
type SharedFields = Pick<DeviceBody, 'deviceType' | 'deviceProfileId' | 'organizationId' | 'gatewayId' | 'isPublic'>;

interface ImportSession {
  columns: string[];
  /** Data rows until the commit; dropped by it. */
  rows: string[][] | null;
  /** After the commit: the rejected rows with their cells, for the CSV. */
  rejected: RejectedCells[] | null;
}

function suggestColumns(columns: string[]): { mapping: ImportPreview['suggestedMapping']; token: number | null } {
  const normalized = columns.map(normalizeImportHeader);
  const find = (field: ImportField | 'token'): number | undefined => {
    const index = normalized.findIndex((h) => importHeaderHints[field].includes(h));
    return index < 0 ? undefined : index;
  };
  const mapping: ImportPreview['suggestedMapping'] = {};
  for (const field of importFields) {
    const index = find(field);
    if (index !== undefined) mapping[field] = index;
  }
  return { mapping, token: find('token') ?? null };
}

/** A cell as a number when it reads as one; otherwise the text, for the schema to refuse. */
function numberOrText(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

export interface DeviceImportServiceDeps {
  devices: DeviceService;
  credentials: CredentialsService;
  products: Pick<ProductService, 'findByIdOrName'>;
  now?: () => number;
}

export class DeviceImportService {
  private readonly sessions: ExpiringStore<ImportSession>;

  constructor(private readonly deps: DeviceImportServiceDeps) {
    this.sessions = new ExpiringStore(IMPORT_TTL_MS, MAX_SESSIONS, deps.now);
  }

  /** Parses the upload (.csv or .xlsx) and keeps its rows under a new importId. */
  async preview(fileName: string, bytes: Buffer): Promise<ImportPreview> {
    const format = importFormatOf(fileName);
    if (format === undefined) throw importError('error.import.badType');
    const [header, ...rows] = format === 'xlsx' ? await xlsxTable(bytes) : csvTable(bytes);
    if (!header || rows.length === 0) throw importError('error.import.empty');
    if (rows.length > IMPORT_MAX_ROWS) {
      throw new AppError(ErrorCode.LIMIT_EXCEEDED, 'error.import.tooManyRows', { max: IMPORT_MAX_ROWS }, {
        details: [{ field: 'file', key: 'error.import.tooManyRows', message: translate('en_US', 'error.import.tooManyRows', { max: IMPORT_MAX_ROWS }) }],
      });
    }

    const importId = newId();
    const expiresTime = this.sessions.set(importId, { columns: header, rows, rejected: null });
    const suggested = suggestColumns(header);
    return {
      importId,
      fileName,
      columns: header,
      sample: rows.slice(0, IMPORT_SAMPLE_ROWS),
      rowCount: rows.length,
      suggestedMapping: suggested.mapping,
      suggestedCredentialsColumn: suggested.token,
      expiresTime,
    };
  }

  /** Checks every row and creates the valid ones in one transaction. */
  commit(body: ImportCommitBody, lang: Language): ImportResult {
    const session = this.session(body.importId);
    if (session.rows === null) throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.import.alreadyCommitted');
    const rows = session.rows;
    assertNoViolations(this.mappingViolations(body, session.columns.length));

    const { devices } = this.deps;
    const refs = devices.cachedRefs();
    const product = refs.productType(body.defaults.deviceProfileId);
    const shared: SharedFields = {
      deviceType: body.defaults.deviceType ?? product ?? 'DIRECT_CONNECTION',
      deviceProfileId: body.defaults.deviceProfileId,
      organizationId: body.defaults.organizationId ?? null,
      gatewayId: body.defaults.gatewayId ?? null,
      isPublic: body.defaults.isPublic ?? false,
    };
    this.checkDefaults(shared, refs);

    // Checks and inserts run without a pause (no await), so no other request can take a name or
    // token in between; createMany inserts in one transaction and announces the devices after it.
    const valid: NewDevice[] = [];
    const rejected: RejectedCells[] = [];
    const seen: SeenInFile = { names: new Map(), tokens: new Map() };
    const productNamed = this.productLookup();
    rows.forEach((cells, index) => {
      const row = index + 2;
      const product = this.rowProduct(cells, body, shared, productNamed);
      const checked = 'key' in product ? [product] : this.checkRow(cells, row, body, product, refs, seen);
      if (Array.isArray(checked)) rejected.push({ row, cells, violations: checked });
      else valid.push(checked);
    });

    devices.createMany(valid);
    session.rows = null;
    session.rejected = rejected;
    return { created: valid.length, rejected: rejected.map((r) => this.rejectedRow(r, body.mapping.name, lang)) };
  }

  /** Products by the text of the product column, each looked up once per commit. */
  private productLookup(): (text: string) => Product | undefined {
    const found = new Map<string, Product | undefined>();
    return (text) => {
      if (!found.has(text)) found.set(text, this.deps.products.findByIdOrName(text));
      return found.get(text);
    };
  }

  /**
   * The shared fields with the row's own product when the product column names one (its device
   * type follows), the defaults when the cell is empty, or why the row is refused.
   */
  private rowProduct(
    cells: string[],
    body: ImportCommitBody,
    shared: SharedFields,
    productNamed: (text: string) => Product | undefined,
  ): SharedFields | Violation {
    const column = body.mapping.product;
    const text = column === null || column === undefined ? '' : (cells[column] ?? '').trim();
    if (text === '') return shared;
    const product = productNamed(text);
    if (!product) return { field: 'product', key: 'error.import.unknownProduct', params: { product: text } };
    return { ...shared, deviceProfileId: product.id, deviceType: product.deviceType };
  }

  /** One row as a device to create, or the rules it breaks (row numbers count the header as 1). */
  private checkRow(
    cells: string[],
    row: number,
    body: ImportCommitBody,
    shared: SharedFields,
    refs: DeviceRefs,
    seen: SeenInFile,
  ): NewDevice | Violation[] {
    const cell = (column: number | null | undefined): string | undefined => {
      if (column === null || column === undefined) return undefined;
      const text = (cells[column] ?? '').trim();
      return text === '' ? undefined : text;
    };
    const { mapping } = body;
    const raw: Record<string, unknown> = {
      ...shared,
      name: cell(mapping.name) ?? '',
      alias: cell(mapping.alias),
      label: cell(mapping.label),
      addressCode: cell(mapping.addressCode),
      longitude: numberOrText(cell(mapping.longitude)),
      latitude: numberOrText(cell(mapping.latitude)),
      address: cell(mapping.address),
      description: cell(mapping.description),
    };
    for (const key of Object.keys(raw)) if (raw[key] === undefined) delete raw[key];

    const found = schemaViolations(deviceBody.Errors(raw), deviceFieldKeys);
    if (found.length === 0) found.push(...deviceViolations(draftOf(raw as DeviceBody), undefined, refs));
    // The first row with a name or token keeps it; later ones are duplicates.
    const name = String(raw.name);
    const nameRow = seen.names.get(name);
    if (name !== '' && nameRow === undefined) seen.names.set(name, row);
    else if (name !== '' && !found.some((v) => v.field === 'name')) {
      found.push({ field: 'name', key: 'error.import.duplicateInFile', params: { row: nameRow! } });
    }
    const token = cell(body.credentialsColumn);
    if (token !== undefined) {
      const tokenRow = seen.tokens.get(token);
      if (tokenRow !== undefined) found.push({ field: 'credentials', key: 'error.import.duplicateInFile', params: { row: tokenRow } });
      else {
        seen.tokens.set(token, row);
        found.push(...this.deps.credentials.tokenViolations(token, undefined, 'credentials'));
      }
    }
    return found.length ? found : { draft: draftOf(raw as DeviceBody), token: token ?? null };
  }

  /** The rejected rows as CSV: the original columns, then the row number and the reasons. */
  rejectedCsv(importId: string, lang: Language): string {
    const { header, rows } = this.rejectedTable(importId, lang);
    return toCsv(header, rows);
  }

  /** The same table as rejectedCsv, as an .xlsx workbook of text cells. */
  async rejectedXlsx(importId: string, lang: Language): Promise<Buffer> {
    const { header, rows } = this.rejectedTable(importId, lang);
    const { writeXlsx } = await import('../../lib/xlsx.ts');
    return writeXlsx(translate(lang, 'error.import.rejectedSheet'), header, rows);
  }

  private rejectedTable(importId: string, lang: Language): { header: string[]; rows: string[][] } {
    const session = this.session(importId);
    if (session.rejected === null) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.import.expired');
    const width = session.columns.length;
    return {
      header: [...session.columns, translate(lang, 'error.import.rowColumn'), translate(lang, 'error.import.reasonsColumn')],
      rows: session.rejected.map((r) => [
        ...Array.from({ length: width }, (_, i) => r.cells[i] ?? ''),
        String(r.row),
        r.violations.map((v) => translate(lang, v.key, v.params)).join('; '),
      ]),
    };
  }

  private rejectedRow(r: RejectedCells, nameColumn: number, lang: Language): RejectedRow {
    return {
      row: r.row,
      name: r.cells[nameColumn] ?? '',
      reasons: r.violations.map((v) => ({ field: v.field, key: v.key, message: translate(lang, v.key, v.params) })),
    };
  }

  private mappingViolations(body: ImportCommitBody, width: number): Violation[] {
    const columns: [string, number | null | undefined][] = [
      ...Object.entries(body.mapping).map(([field, column]): [string, number | null | undefined] => [`mapping.${field}`, column]),
      ['credentialsColumn', body.credentialsColumn],
    ];
    return columns
      .filter(([, column]) => column !== null && column !== undefined && column >= width)
      .map(([field]) => ({ field, key: 'error.import.columnOutOfRange' }));
  }

  /** Product, organization and gateway are shared by every row: refuse the whole import when wrong. */
  private checkDefaults(shared: SharedFields, refs: DeviceRefs): void {
    const probe = draftOf({ ...shared, name: 'probe' });
    const found = deviceViolations(probe, undefined, { ...refs, nameOwner: () => undefined });
    assertNoViolations(found.map((v) => ({ ...v, field: `defaults.${v.field}` })));
  }

  private session(importId: string): ImportSession {
    const session = this.sessions.get(importId);
    if (!session) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.import.expired');
    return session;
  }
}
