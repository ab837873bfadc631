import JSZip from 'jszip';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import {
  deviceImportRoutes,
  type ImportCommitBody,
  type ImportPreview,
} from '../../server/contract/device-import.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { makeDeviceApp, type DeviceApi } from '../helpers/devices.ts';
import { multipart } from '../helpers/multipart.ts';
import { deviceServicesOf } from '../helpers/services.ts';
import { valuesOfXlsx, xlsxOf } from '../helpers/xlsx.ts';

const GOOD_AND_BAD = [
  'name,alias,addressCode,longitude,latitude',
  'good_1,Alias one,0a,120.1,30.2',
  'good_2,,FF,,',
  '"good_3","Three, with comma",,,',
  'bad name,x,,,',
  'bad_addr,,1G,200,',
].join('\n');

function upload(api: DeviceApi, content: Buffer | string, filename = 'devices.csv') {
  const form = multipart({ file: { filename, content, contentType: 'text/csv' } });
  return api.call(deviceImportRoutes.preview, { payload: form.payload, headers: form.headers });
}

async function preview(api: DeviceApi, content: Buffer | string, filename?: string): Promise<ImportPreview> {
  const res = await upload(api, content, filename);
  if (res.statusCode !== 200) throw new Error(`preview answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

function commitBody(importId: string, deviceProfileId: string, extra: Partial<ImportCommitBody> = {}): ImportCommitBody {
  return {
    importId,
    mapping: { name: 0, alias: 1, addressCode: 2, longitude: 3, latitude: 4 },
    defaults: { deviceProfileId },
    ...extra,
  };
}

function csvOfNames(count: number): string {
  return ['name', ...Array.from({ length: count }, (_, i) => `row_${i}`)].join('\n');
}

describe('device import', () => {
  it('previews the header, the first rows, the row count and a suggested mapping', async () => {
    const { api } = await makeDeviceApp();
    const rows = Array.from({ length: 12 }, (_, i) => `dev_${i},alias ${i},T${i}`);
    const result = await preview(api, ['deviceName,Alias,token', ...rows].join('\r\n'));
    expect(result).toMatchObject({
      fileName: 'devices.csv',
      columns: ['deviceName', 'Alias', 'token'],
      rowCount: 12,
      suggestedMapping: { name: 0, alias: 1 },
      suggestedCredentialsColumn: 2,
    });
    expect(result.sample).toHaveLength(10);
    expect(result.sample[0]).toEqual(['dev_0', 'alias 0', 'T0']);
    expect(result.expiresTime).toBeGreaterThan(Date.now());
  });

  it('creates the 3 good rows of 5 and reports the 2 bad ones with reasons', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const { importId } = await preview(api, GOOD_AND_BAD);
    const result = await api.ok(deviceImportRoutes.commit, { body: commitBody(importId, product.id), lang: 'en-US' });
    expect(result.created).toBe(3);
    expect(result.rejected).toEqual([
      { row: 5, name: 'bad name', reasons: [{ field: 'name', key: 'error.field.name', message: expect.stringContaining('1-30 characters') }] },
      {
        row: 6,
        name: 'bad_addr',
        reasons: [
          { field: 'addressCode', key: 'error.field.addressCode', message: expect.stringContaining('00 to FF') },
          { field: 'longitude', key: 'error.field.longitude', message: expect.stringContaining('-180') },
        ],
      },
    ]);
    const devices = await api.ok(deviceRoutes.list, { query: { sortField: 'name' } });
    expect(devices.items.map((d) => [d.name, d.alias, d.addressCode, d.longitude, d.latitude, d.deviceState])).toEqual([
      ['good_1', 'Alias one', '0A', 120.1, 30.2, 'INACTIVE'],
      ['good_2', null, 'FF', null, null, 'INACTIVE'],
      ['good_3', 'Three, with comma', null, null, null, 'INACTIVE'],
    ]);
    const token = await api.ok(credentialsRoutes.get, { params: { id: devices.items[0]!.id } });
    expect(token.credentialsId).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('downloads the rejected rows as CSV with the row numbers and reasons in the asked language', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const { importId } = await preview(api, GOOD_AND_BAD);
    await api.ok(deviceImportRoutes.commit, { body: commitBody(importId, product.id) });
    const en = await api.call(deviceImportRoutes.rejectedCsv, { params: { importId }, lang: 'en-US' });
    expect(en.statusCode).toBe(200);
    expect(en.headers['content-type']).toContain('text/csv');
    expect(en.headers['content-disposition']).toContain('attachment');
    expect(en.body.startsWith('\uFEFF')).toBe(true);
    const rows = Papa.parse<string[]>(en.body.slice(1), { skipEmptyLines: true }).data;
    expect(rows).toEqual([
      ['name', 'alias', 'addressCode', 'longitude', 'latitude', 'Row', 'Reasons'],
      ['bad name', 'x', '', '', '', '5', expect.stringMatching(/^The name must be 1-30 characters/)],
      ['bad_addr', '', '1G', '200', '', '6', expect.stringMatching(/address code.*; .*longitude/)],
    ]);
    const zh = await api.call(deviceImportRoutes.rejectedCsv, { params: { importId }, lang: 'zh-CN' });
    const zhRows = Papa.parse<string[]>(zh.body.slice(1), { skipEmptyLines: true }).data;
    expect(zhRows[0]!.slice(-2)).toEqual(['行号', '失败原因']);
    expect(zhRows[2]![6]).toContain('地址码须为 00 到 FF');
  });

  it('prefixes with a quote every rejected cell a spreadsheet would run as a formula, line breaks and all', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const formulas = ['=HYPERLINK("http://x")\nmore', '+1\r\n2', '-3\n', '@SUM(A1)\nB', '\n=1+1', '\t=1', 'plain\n=1'];
    const file = Papa.unparse({ fields: ['name', 'alias'], data: formulas.map((f) => ['bad name', f]) });
    const { importId } = await preview(api, file);
    await api.ok(deviceImportRoutes.commit, { body: commitBody(importId, product.id, { mapping: { name: 0, alias: 1 } }) });
    const csv = await api.call(deviceImportRoutes.rejectedCsv, { params: { importId } });
    const aliases = Papa.parse<string[]>(csv.body.slice(1), { skipEmptyLines: true }).data.slice(1).map((row) => row[1]);
    expect(aliases).toEqual([...formulas.slice(0, -1).map((f) => `'${f}`), 'plain\n=1']);
  });

  it('refuses duplicate names within the file and names devices already have', async () => {
    const { api } = await makeDeviceApp();
    const existing = await api.createDevice({ name: 'taken' });
    const { importId } = await preview(api, 'name\nfresh\nfresh\ntaken');
    const result = await api.ok(deviceImportRoutes.commit, { body: { importId, mapping: { name: 0 }, defaults: { deviceProfileId: existing.deviceProfileId } } });
    expect(result.created).toBe(1);
    expect(result.rejected.map((r) => [r.row, r.reasons.map((x) => x.key)])).toEqual([
      [3, ['error.import.duplicateInFile']],
      [4, ['error.device.nameTaken']],
    ]);
  });

  it('imports the tokens of a mapped column, refusing taken, duplicated and malformed ones', async () => {
    const t = await makeDeviceApp();
    const existing = await t.api.createDevice();
    const takenToken = (await t.api.ok(credentialsRoutes.get, { params: { id: existing.id } })).credentialsId;
    const csv = ['name,token', 'a_1,tok-A', 'a_2,tok-A', `a_3,${takenToken}`, 'a_4,bad token', 'a_5,'].join('\n');
    const { importId } = await preview(t.api, csv);
    const result = await t.api.ok(deviceImportRoutes.commit, {
      body: { importId, mapping: { name: 0 }, defaults: { deviceProfileId: existing.deviceProfileId }, credentialsColumn: 1 },
    });
    expect(result.created).toBe(2);
    expect(result.rejected.map((r) => [r.name, r.reasons.map((x) => `${x.field}:${x.key}`)])).toEqual([
      ['a_2', ['credentials:error.import.duplicateInFile']],
      ['a_3', ['credentials:error.credentials.tokenTaken']],
      ['a_4', ['credentials:error.credentials.tokenInvalid']],
    ]);
    expect(await deviceServicesOf(t).credentials.authenticate({ username: 'tok-A' })).toMatchObject({ name: 'a_1' });
  });

  it('applies the shared organization, gateway and public flag to every row', async () => {
    const { api } = await makeDeviceApp();
    const org = await api.createOrganization();
    const gateway = await api.createDevice({ deviceType: 'GATEWAY' });
    const sensors = await api.createProduct({ deviceType: 'SENSOR', transportType: 'TCP', tcpProtocolType: 'MODBUS_RTU', tcpAuthType: 'REGISTER_SEND' });
    const { importId } = await preview(api, 'name,code\ns_1,01\ns_2,02');
    const result = await api.ok(deviceImportRoutes.commit, {
      body: {
        importId,
        mapping: { name: 0, addressCode: 1 },
        defaults: { deviceProfileId: sensors.id, organizationId: org.id, gatewayId: gateway.id, isPublic: true },
      },
    });
    expect(result).toEqual({ created: 2, rejected: [] });
    const page = await api.ok(deviceRoutes.list, { query: { gatewayId: gateway.id, sortField: 'name' } });
    expect(page.items.map((d) => [d.name, d.deviceType, d.organizationId, d.isPublic, d.addressCode])).toEqual([
      ['s_1', 'SENSOR', org.id, true, '01'],
      ['s_2', 'SENSOR', org.id, true, '02'],
    ]);
  });

  it('refuses the whole import when the shared product or device type is wrong', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct({ deviceType: 'GATEWAY' });
    const { importId } = await preview(api, 'name\nx_1');
    const unknown = await api.call(deviceImportRoutes.commit, { body: { importId, mapping: { name: 0 }, defaults: { deviceProfileId: 'nope' } } });
    expect(unknown.json()).toMatchObject({ code: 31, key: 'error.device.productNotFound', details: [{ field: 'body.defaults.deviceProfileId' }] });
    const mismatch = await api.call(deviceImportRoutes.commit, {
      body: { importId, mapping: { name: 0 }, defaults: { deviceProfileId: product.id, deviceType: 'SENSOR' } },
    });
    expect(mismatch.json()).toMatchObject({ key: 'error.device.typeMismatch', details: [{ field: 'body.defaults.deviceType' }] });
    // Nothing was committed: the import can still go ahead.
    expect((await api.ok(deviceImportRoutes.commit, { body: { importId, mapping: { name: 0 }, defaults: { deviceProfileId: product.id } } })).created).toBe(1);
  });

  it('refuses a mapping to a column the file does not have', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const { importId } = await preview(api, 'name\nx_1');
    const res = await api.call(deviceImportRoutes.commit, { body: { importId, mapping: { name: 0, alias: 3 }, defaults: { deviceProfileId: product.id } } });
    expect(res.json()).toMatchObject({ key: 'error.import.columnOutOfRange', details: [{ field: 'body.mapping.alias' }] });
  });

  it('commits an import once, and answers 404 for an unknown import', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const { importId } = await preview(api, 'name\nonce');
    const body = { importId, mapping: { name: 0 }, defaults: { deviceProfileId: product.id } };
    await api.ok(deviceImportRoutes.commit, { body });
    expect((await api.call(deviceImportRoutes.commit, { body })).json().key).toBe('error.import.alreadyCommitted');
    const unknown = await api.call(deviceImportRoutes.commit, { body: { ...body, importId: 'nope' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 32, key: 'error.import.expired' });
    expect((await api.call(deviceImportRoutes.rejectedCsv, { params: { importId: 'nope' } })).statusCode).toBe(404);
  });

  it('reads a GB18030 file as Excel saves it on Chinese systems', async () => {
    const { api } = await makeDeviceApp();
    const gbk = Buffer.from([0xc9, 0xe8, 0xb1, 0xb8, 0x0a, 0xb5, 0xe7, 0xb1, 0xed]); // "设备\n电表"
    expect(await preview(api, gbk)).toMatchObject({ columns: ['设备'], sample: [['电表']], rowCount: 1 });
  });

  it('accepts 10,000 rows and creates them in one call', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const { importId, rowCount } = await preview(api, csvOfNames(10_000));
    expect(rowCount).toBe(10_000);
    const result = await api.ok(deviceImportRoutes.commit, { body: { importId, mapping: { name: 0 }, defaults: { deviceProfileId: product.id } } });
    expect(result).toEqual({ created: 10_000, rejected: [] });
    expect((await api.ok(deviceRoutes.list, { query: { deviceProfileId: product.id } })).total).toBe(10_000);
  });

  it('refuses 10,001 data rows', async () => {
    const { api } = await makeDeviceApp();
    const res = await upload(api, csvOfNames(10_001));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 41, key: 'error.import.tooManyRows' });
  });

  it('refuses a file over 5 MB', async () => {
    const { api } = await makeDeviceApp();
    const big = `name\n${'x'.repeat(5 * 1024 * 1024)}\n`;
    const res = await upload(api, big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ key: 'error.upload.tooLarge' });
  });

  it('refuses a file that is not a CSV text file', async () => {
    const { api } = await makeDeviceApp();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    for (const [content, filename] of [
      ['name\nx', 'devices.txt'],
      [png, 'image.csv'],
    ] as const) {
      const res = await upload(api, content, filename);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 31, key: 'error.import.badType' });
    }
  });

  it('refuses a file without data rows and a request without a file', async () => {
    const { api } = await makeDeviceApp();
    expect((await upload(api, 'name,alias\n')).json().key).toBe('error.import.empty');
    const noFile = await api.call(deviceImportRoutes.preview, { body: {} });
    expect(noFile.statusCode).toBe(400);
  });
});

describe('device import from .xlsx', () => {
  const XLSX_COLUMNS = ['name', 'token', 'addressCode', 'longitude', 'latitude', 'description', 'label'];
  /** The table of the workbook below as the person who made it sees it, and as a CSV of it would read. */
  const SEEN = [
    XLSX_COLUMNS,
    ['xl_1', 'tok-xl-1', '0A', '120.1', '30.2', '2024-03-05 08:09:10', 'xl_1-L'],
    ['xl_2', '12345678', '07', '0.3', '45', '2024-03-05 10:30:00', '0.333333333333333'],
    ['bad name', '', '1G', '200', '', '', ''],
  ];
  const xlsxMapping = { name: 0, addressCode: 2, longitude: 3, latitude: 4, description: 5, label: 6 };

  function devicesXlsx(): Promise<Buffer> {
    return xlsxOf(
      [
        XLSX_COLUMNS,
        ['xl_1', 'tok-xl-1', '0A', 120.1, 30.2, new Date(Date.UTC(2024, 2, 5, 8, 9, 10)), { formula: 'A2&"-L"', result: 'xl_1-L' }],
        [
          { richText: [{ text: 'xl_' }, { text: '2', font: { bold: true } }] },
          12345678,
          7,
          0.1 + 0.2,
          45,
          new Date(Date.UTC(2024, 2, 5, 10, 30)),
          { formula: '1/3', result: 1 / 3 },
        ],
        ['bad name', null, '1G', 200],
      ],
      (workbook, sheet) => {
        sheet.getCell('C3').numFmt = '00';
        workbook.addWorksheet('notes').addRow(['not read']);
      },
    );
  }

  it('previews and commits an .xlsx as it does the same table in CSV: text, tokens, numbers, dates, formulas, rich text', async () => {
    const fromXlsx = await makeDeviceApp();
    const fromCsv = await makeDeviceApp();
    const xlsxPreview = await preview(fromXlsx.api, await devicesXlsx(), 'devices.xlsx');
    const csvPreview = await preview(fromCsv.api, Papa.unparse(SEEN), 'devices.csv');
    expect(xlsxPreview).toMatchObject({ fileName: 'devices.xlsx', columns: XLSX_COLUMNS, sample: SEEN.slice(1), rowCount: 3 });
    const sameFields = (p: ImportPreview) => ({ ...p, importId: '', fileName: '', expiresTime: 0 });
    expect(sameFields(xlsxPreview)).toEqual(sameFields(csvPreview));

    const commit = async (t: typeof fromXlsx, importId: string) => {
      const product = await t.api.createProduct();
      const body = { importId, mapping: xlsxMapping, credentialsColumn: 1, defaults: { deviceProfileId: product.id } };
      const result = await t.api.ok(deviceImportRoutes.commit, { body, lang: 'en-US' });
      const devices = (await t.api.ok(deviceRoutes.list, { query: { sortField: 'name' } })).items;
      const credentials = deviceServicesOf(t).credentials;
      const tokens = await Promise.all(devices.map(async (d) => (await credentials.authenticate({ username: d.name === 'xl_1' ? 'tok-xl-1' : '12345678' }))?.name));
      return { result, devices: devices.map((d) => [d.name, d.addressCode, d.longitude, d.latitude, d.description, d.label]), tokens };
    };
    const xlsx = await commit(fromXlsx, xlsxPreview.importId);
    expect(xlsx.result.created).toBe(2);
    expect(xlsx.result.rejected.map((r) => [r.row, r.name, r.reasons.map((x) => x.key)])).toEqual([
      [4, 'bad name', ['error.field.name', 'error.field.addressCode', 'error.field.longitude']],
    ]);
    expect(xlsx.devices).toEqual([
      ['xl_1', '0A', 120.1, 30.2, '2024-03-05 08:09:10', 'xl_1-L'],
      ['xl_2', '07', 0.3, 45, '2024-03-05 10:30:00', '0.333333333333333'],
    ]);
    expect(xlsx.tokens).toEqual(['xl_1', 'xl_2']);
    expect(xlsx).toEqual(await commit(fromCsv, csvPreview.importId));
  });

  it('downloads the rejected rows as .xlsx when asked, and as CSV by default or when asked', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const { importId } = await preview(api, await xlsxOf(Papa.parse<string[]>(GOOD_AND_BAD).data), 'devices.xlsx');
    await api.ok(deviceImportRoutes.commit, { body: commitBody(importId, product.id) });
    const xlsx = await api.call(deviceImportRoutes.rejectedCsv, { params: { importId }, query: { format: 'xlsx' }, lang: 'en-US' });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.headers['content-disposition']).toContain('rejected-rows.xlsx');
    expect(await valuesOfXlsx(xlsx.rawPayload)).toEqual([
      ['name', 'alias', 'addressCode', 'longitude', 'latitude', 'Row', 'Reasons'],
      ['bad name', 'x', '', '', '', '5', expect.stringMatching(/^The name must be 1-30 characters/)],
      ['bad_addr', '', '1G', '200', '', '6', expect.stringMatching(/address code.*; .*longitude/)],
    ]);
    for (const query of [{}, { format: 'csv' as const }]) {
      const csv = await api.call(deviceImportRoutes.rejectedCsv, { params: { importId }, query, lang: 'en-US' });
      expect(csv.headers['content-type']).toContain('text/csv');
      expect(Papa.parse<string[]>(csv.body.slice(1), { skipEmptyLines: true }).data.map((r) => r.slice(0, 6))).toEqual([
        ['name', 'alias', 'addressCode', 'longitude', 'latitude', 'Row'],
        ['bad name', 'x', '', '', '', '5'],
        ['bad_addr', '', '1G', '200', '', '6'],
      ]);
    }
    const bad = await api.call(deviceImportRoutes.rejectedCsv, { params: { importId }, query: { format: 'pdf' } });
    expect(bad.statusCode).toBe(400);
  });

  it('writes rejected cells that look like formulas or numbers into the .xlsx as the text they were', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const { importId } = await preview(api, await xlsxOf([['name', 'alias'], ['=HYPERLINK("x")', '007'], ['ok_1', '']]), 'devices.xlsx');
    await api.ok(deviceImportRoutes.commit, { body: { importId, mapping: { name: 0, alias: 1 }, defaults: { deviceProfileId: product.id } } });
    const xlsx = await api.call(deviceImportRoutes.rejectedCsv, { params: { importId }, query: { format: 'xlsx' } });
    expect((await valuesOfXlsx(xlsx.rawPayload))[1]!.slice(0, 3)).toEqual(['=HYPERLINK("x")', '007', '2']);
  });

  it('refuses a damaged workbook, a text file named .xlsx, too many columns and a zip bomb, each with its own key', async () => {
    const { api } = await makeDeviceApp();
    const good = await xlsxOf([['name'], ['x_1']]);
    const withSheet = async (xml: string): Promise<Buffer> => {
      const zip = await JSZip.loadAsync(good);
      zip.file('xl/worksheets/sheet1.xml', xml);
      return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
    };
    const sheet = (rows: string) =>
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
    // 60 MB of one row repeated: it deflates to ~0.3 MB, far under the 5 MB upload limit.
    const row = '<row r="2"><c r="A2" t="inlineStr"><is><t>x</t></is></c></row>';
    const bomb = await withSheet(sheet(row.repeat(Math.ceil((60 * 1024 * 1024) / row.length))));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const cases: [string, Buffer | string, string][] = [
      ['truncated', good.subarray(0, good.length - 100), 'error.import.xlsxMalformed'],
      ['broken sheet XML', await withSheet(sheet('<row r="1"><c r="A1"><v>1</v></row>')), 'error.import.xlsxMalformed'],
      ['text named .xlsx', 'name\nx_1\n', 'error.import.notXlsx'],
      ['zip that is no workbook', await new JSZip().file('readme.txt', 'hi').generateAsync({ type: 'nodebuffer' }), 'error.import.notXlsx'],
      ['value in column 101', await xlsxOf([['name'], ['x_1']], (_, s) => (s.getCell(2, 101).value = 'far')), 'error.import.tooManyColumns'],
      ['zip bomb', bomb, 'error.import.xlsxTooLarge'],
    ];
    for (const [what, content, key] of cases) {
      const res = await upload(api, content, 'devices.xlsx');
      expect({ what, status: res.statusCode, body: res.json() }).toMatchObject({ what, status: 400, body: { code: 31, key, details: [{ field: 'file', key }] } });
    }
  });

  it('refuses an .xlsx of 10,001 data rows', async () => {
    const { api } = await makeDeviceApp();
    const res = await upload(api, await xlsxOf([['name'], ...Array.from({ length: 10_001 }, (_, i) => [`row_${i}`])]), 'devices.xlsx');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 41, key: 'error.import.tooManyRows' });
  });
});

describe('batch generation', () => {
  it('generates 5 devices with valid unique names, aliases and tokens, and a CSV of them', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct({ name: 'Meter-X1' });
    const result = await api.ok(deviceImportRoutes.batch, { body: { deviceProfileId: product.id, count: 5, aliasPrefix: 'Room ' } });
    expect(result.items).toHaveLength(5);
    expect(result.items.map((i) => i.alias)).toEqual(['Room 1', 'Room 2', 'Room 3', 'Room 4', 'Room 5']);
    for (const item of result.items) {
      expect(item.name).toMatch(/^Meter-X1_[A-Z0-9]{8}$/);
      expect(item.token).toMatch(/^[A-Za-z0-9]{20}$/);
      expect((await api.ok(credentialsRoutes.get, { params: { id: item.id } })).credentialsId).toBe(item.token);
    }
    expect(new Set(result.items.map((i) => i.name)).size).toBe(5);
    const page = await api.ok(deviceRoutes.list, { query: { deviceProfileId: product.id } });
    expect(page.total).toBe(5);
    expect(page.items.every((d) => d.deviceState === 'INACTIVE')).toBe(true);

    const csv = await api.call(deviceImportRoutes.batchCsv, { params: { batchId: result.batchId } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = Papa.parse<string[]>(csv.body.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(rows).toEqual([['name', 'alias', 'token'], ...result.items.map((i) => [i.name, i.alias, i.token])]);
  });

  it('prefixes with a quote a generated alias a spreadsheet would run as a formula', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const result = await api.ok(deviceImportRoutes.batch, { body: { deviceProfileId: product.id, count: 2, aliasPrefix: '=2+3' } });
    const csv = await api.call(deviceImportRoutes.batchCsv, { params: { batchId: result.batchId } });
    const rows = Papa.parse<string[]>(csv.body.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(rows.slice(1).map((row) => row[1])).toEqual(["'=2+31", "'=2+32"]);
  });

  it('cuts a long product name so generated names stay within 30 characters', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct({ name: 'p'.repeat(30) });
    const result = await api.ok(deviceImportRoutes.batch, { body: { deviceProfileId: product.id, count: 1 } });
    expect(result.items[0]!.name).toHaveLength(30);
    expect(result.items[0]!.alias).toBeNull();
  });

  it('attaches generated sensors to a gateway in an organization', async () => {
    const { api } = await makeDeviceApp();
    const org = await api.createOrganization();
    const gateway = await api.createDevice({ deviceType: 'GATEWAY' });
    const sensors = await api.createProduct({ deviceType: 'SENSOR' });
    await api.ok(deviceImportRoutes.batch, { body: { deviceProfileId: sensors.id, count: 2, organizationId: org.id, gatewayId: gateway.id } });
    expect((await api.ok(deviceRoutes.list, { query: { gatewayId: gateway.id, organizationId: org.id } })).total).toBe(2);
    const direct = await api.createProduct();
    const refused = await api.call(deviceImportRoutes.batch, { body: { deviceProfileId: direct.id, count: 2, gatewayId: gateway.id } });
    expect(refused.json()).toMatchObject({ key: 'error.device.gatewayNotAllowed', details: [{ field: 'body.gatewayId' }] });
  });

  it.each([0, 1001, 2.5])('refuses a count of %s', async (count) => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const res = await api.call(deviceImportRoutes.batch, { body: { deviceProfileId: product.id, count } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 31, key: 'error.field.batchCount', details: [{ field: 'body.count' }] });
  });

  it('refuses an alias prefix over 30 characters and an unknown product', async () => {
    const { api } = await makeDeviceApp();
    const product = await api.createProduct();
    const long = await api.call(deviceImportRoutes.batch, { body: { deviceProfileId: product.id, count: 1, aliasPrefix: 'a'.repeat(31) } });
    expect(long.json()).toMatchObject({ key: 'error.field.aliasPrefix' });
    const unknown = await api.call(deviceImportRoutes.batch, { body: { deviceProfileId: 'nope', count: 1 } });
    expect(unknown.json()).toMatchObject({ key: 'error.device.productNotFound', details: [{ field: 'body.deviceProfileId' }] });
  });

  it('answers 404 for an unknown batch', async () => {
    const { api } = await makeDeviceApp();
    const res = await api.call(deviceImportRoutes.batchCsv, { params: { batchId: 'nope' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 32, key: 'error.batch.expired' });
  });
});

describe('device import with a product column', () => {
  it('gives each row the product its product column names by name or id, with that product’s device type', async () => {
    const { api } = await makeDeviceApp();
    const fallback = await api.createProduct({ name: 'fallback_p', deviceType: 'DIRECT_CONNECTION' });
    const gateways = await api.createProduct({ name: 'gateway_p', deviceType: 'GATEWAY' });
    const csv = ['name,product', 'by_name,gateway_p', `by_id,${gateways.id}`, 'no_product,'].join('\n');
    const p = await preview(api, csv);
    expect(p.suggestedMapping).toMatchObject({ name: 0, product: 1 });
    const result = await api.ok(deviceImportRoutes.commit, {
      body: { importId: p.importId, mapping: { name: 0, product: 1 }, defaults: { deviceProfileId: fallback.id } },
    });
    expect(result).toEqual({ created: 3, rejected: [] });
    const devices = await api.ok(deviceRoutes.list, { query: { sortField: 'name' } });
    expect(devices.items.map((d) => [d.name, d.deviceProfileId, d.deviceType])).toEqual([
      ['by_id', gateways.id, 'GATEWAY'],
      ['by_name', gateways.id, 'GATEWAY'],
      ['no_product', fallback.id, 'DIRECT_CONNECTION'],
    ]);
  });

  it('rejects a row whose product does not exist, naming the product, and still creates the others', async () => {
    const { api } = await makeDeviceApp();
    const fallback = await api.createProduct({ name: 'fallback_q' });
    const p = await preview(api, ['name,product', 'kept,fallback_q', 'lost,no_such_product'].join('\n'));
    const result = await api.ok(deviceImportRoutes.commit, {
      body: { importId: p.importId, mapping: { name: 0, product: 1 }, defaults: { deviceProfileId: fallback.id } },
      lang: 'en-US',
    });
    expect(result.created).toBe(1);
    expect(result.rejected).toEqual([
      { row: 3, name: 'lost', reasons: [{ field: 'product', key: 'error.import.unknownProduct', message: expect.stringContaining('no_such_product') }] },
    ]);
  });
});
