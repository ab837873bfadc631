/**
 * Scheduled reports through the HTTP API, with telemetry sent over MQTT: CRUD and its refusals, a
 * run by hand read back with exceljs, a scheduled run when the clock reaches its time
 * (vi.setSystemTime moves Date only; the report timer stays real and ticks every 100 ms here), a
 * run missed while the gateway was off, and the disk budget.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterEach, describe, expect, it, vi } from 'vitest';
import zhReports from '../../locales/zh_CN/reports.json' with { type: 'json' };
import { deviceRoutes } from '../../server/contract/device.ts';
import { reportRoutes as r, type ReportBody, type ReportRun } from '../../server/contract/report.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { makeApp } from '../helpers/app.ts';
import { DeviceApi, makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';
import { signIn } from '../helpers/session.ts';
import { valuesOfXlsx } from '../helpers/xlsx.ts';

const tuning = { reportTickMs: 100 };
const HOUR = 3_600_000;
const everyHour = Array.from({ length: 24 }, (_, h) => h);

function body(deviceId: string, extra: Partial<ReportBody> = {}): ReportBody {
  return {
    name: 'Boiler daily',
    series: [
      { deviceId, key: 'temperature' },
      { deviceId, key: 'humidity' },
    ],
    aggregation: 'NONE',
    schedule: { frequency: 'DAILY', hours: [8], timeZone: 'Asia/Shanghai' },
    enabled: true,
    ...extra,
  };
}

/** Publishes one telemetry message over MQTT and waits until the history holds it. */
async function sendOverMqtt(t: DeviceTestApp, deviceId: string, ts: number, values: Record<string, number>): Promise<void> {
  const client = await connectDevice(t.app, { username: await tokenOf(t.api, deviceId) });
  await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts, values }), { qos: 1 });
  await client.endAsync();
  const key = Object.keys(values)[0]!;
  await eventually(
    () => t.api.ok(telemetryRoutes.timeseries, { params: { id: deviceId }, query: { keys: key, startTs: ts, endTs: ts + 1 } }),
    (v) => (v[key]?.length ?? 0) > 0,
    20_000,
  );
}

async function download(t: DeviceTestApp, run: ReportRun, format: 'xlsx' | 'csv'): Promise<Buffer> {
  const res = await t.api.call(r.file, { params: { id: run.id }, query: { format } });
  expect(res.statusCode, res.body).toBe(200);
  return res.rawPayload;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('reports', () => {
  it('creates, lists, changes and deletes a report, with its next run in its own time zone', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const created = await t.api.ok(r.create, { body: body(device.id) });
    expect(created).toMatchObject({ name: 'Boiler daily', enabled: true, lastDueTs: null });
    // 08:00 in Shanghai is 00:00 UTC.
    expect(new Date(created.nextRunTs!).getUTCHours()).toBe(0);
    expect((await t.api.ok(r.list, { query: { name: 'Boiler' } })).items.map((x) => x.id)).toEqual([created.id]);
    const weekly: ReportBody['schedule'] = { frequency: 'WEEKLY', weekdays: [1], hours: [9], timeZone: 'UTC' };
    const saved = await t.api.ok(r.update, { body: { ...body(device.id, { enabled: false, schedule: weekly }), id: created.id } });
    expect(saved).toMatchObject({ nextRunTs: null, schedule: weekly, enabled: false });
    expect(await t.api.ok(r.delete, { body: { ids: [created.id, 'unknown'] } })).toEqual({ deleted: 1 });
    expectError(await t.api.call(r.get, { params: { id: created.id } }), 404, 32, 'error.notFound');
  });

  it('refuses a schedule out of range, an unknown time zone, no pairs, a deleted device and an aggregation without interval', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const refused = async (b: ReportBody, key: string, field: string): Promise<void> => {
      const error = expectError(await t.api.call(r.create, { body: b }), 400, 31, key);
      expect(error.details?.[0]?.field).toBe(field);
    };
    await refused(body(device.id, { schedule: { frequency: 'MONTHLY', monthDays: [32], hours: [0], timeZone: 'UTC' } }), 'error.report.monthDays', 'body.schedule.monthDays.0');
    await refused(body(device.id, { schedule: { frequency: 'MONTHLY', hours: [0], timeZone: 'UTC' } }), 'error.report.monthDays', 'body.schedule.monthDays');
    await refused(body(device.id, { schedule: { frequency: 'WEEKLY', weekdays: [0], hours: [0], timeZone: 'UTC' } }), 'error.report.weekdays', 'body.schedule.weekdays.0');
    await refused(body(device.id, { schedule: { frequency: 'DAILY', hours: [24], timeZone: 'UTC' } }), 'error.report.hours', 'body.schedule.hours.0');
    await refused(body(device.id, { schedule: { frequency: 'DAILY', hours: [1], timeZone: 'Mars/Olympus' } }), 'error.report.timeZone', 'body.schedule.timeZone');
    await refused(body(device.id, { series: [] }), 'error.report.series', 'body.series');
    await refused(body(device.id, { aggregation: 'AVG' }), 'error.report.intervalRequired', 'body.interval');
    await t.api.ok(deviceRoutes.delete, { body: { ids: [device.id] } });
    await refused(body(device.id), 'error.report.deviceUnknown', 'body.series.0.deviceId');
  });

  it('runs by hand into an .xlsx and a CSV holding the values sent over MQTT, and says so when the period had none', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const at = Date.now() - 60_000;
    await sendOverMqtt(t, device.id, at, { temperature: 21.5, humidity: 40 });
    await sendOverMqtt(t, device.id, at + 1000, { temperature: 22.25 });
    const report = await t.api.ok(r.create, { body: body(device.id) });

    const run = await t.api.ok(r.run, { params: { id: report.id }, body: { startTs: at - 1000, endTs: at + 5000 } });
    expect(run).toMatchObject({ trigger: 'MANUAL', rows: 2, truncated: false });
    const xlsx = await download(t, run, 'xlsx');
    const rows = await valuesOfXlsx(xlsx);
    expect(rows[0]).toEqual([expect.stringContaining('Asia/Shanghai'), `${device.name} / temperature`, `${device.name} / humidity`]);
    expect(rows.slice(1).map((row) => row.slice(1))).toEqual([
      [21.5, 40],
      [22.25],
    ]);
    // The chart sheet's line chart plots both columns of the data sheet (its parts are our own DrawingML).
    const zip = await JSZip.loadAsync(xlsx);
    const chart = await zip.file('xl/charts/chart1.xml')!.async('string');
    expect(chart).toContain(`<c:f>&#39;${zhReports.file.data}&#39;!$B$2:$B$3</c:f>`);
    expect(chart).toContain(`<c:f>&#39;${zhReports.file.data}&#39;!$C$2:$C$3</c:f>`);
    expect(await zip.file('xl/worksheets/sheet2.xml')!.async('string')).toContain('<drawing r:id="rId1"/>');
    const csv = (await download(t, run, 'csv')).toString('utf8');
    expect(csv).toContain(',21.5,40');
    expect((await t.api.ok(r.runs, { params: { id: report.id } })).items.map((x) => x.id)).toEqual([run.id]);

    const empty = await t.api.ok(r.run, { params: { id: report.id }, body: { startTs: at - 10 * HOUR, endTs: at - 9 * HOUR } });
    expect(empty.rows).toBe(0);
    expect((await valuesOfXlsx(await download(t, empty, 'xlsx')))[1]).toEqual([zhReports.file.noData]);
  });

  it('runs when the clock reaches its time, over the period since the time before', async () => {
    const t = await makeDeviceApp({ tuning });
    const device = await t.api.createDevice();
    const report = await t.api.ok(r.create, { body: body(device.id, { schedule: { frequency: 'DAILY', hours: everyHour, timeZone: 'Europe/Berlin' } }) });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(report.nextRunTs! + 1000);
    const runs = await eventually(() => t.api.ok(r.runs, { params: { id: report.id } }), (p) => p.total > 0, 20_000);
    expect(runs.items[0]).toMatchObject({ trigger: 'SCHEDULE', startTs: report.nextRunTs! - HOUR, endTs: report.nextRunTs });
    const after = await t.api.ok(r.get, { params: { id: report.id } });
    expect(after).toMatchObject({ lastDueTs: report.nextRunTs, nextRunTs: report.nextRunTs! + HOUR });
  });

  it('runs once at start for the time it missed while the gateway was off', async () => {
    const t = await makeDeviceApp({ tuning });
    const device = await t.api.createDevice();
    const report = await t.api.ok(r.create, { body: body(device.id, { schedule: { frequency: 'DAILY', hours: everyHour, timeZone: 'UTC' } }) });
    await t.app.close();
    vi.useFakeTimers({ toFake: ['Date'] });
    // Two times passed while it was off: one run, for the later one.
    vi.setSystemTime(report.nextRunTs! + HOUR + 60_000);
    const again = await makeApp({ dataDir: t.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem], tuning: { reportTickMs: 60_000 } });
    const { token } = await signIn(again.app, t.admin.username, t.admin.password);
    const api = new DeviceApi(again.app, token);
    const runs = await eventually(() => api.ok(r.runs, { params: { id: report.id } }), (p) => p.total > 0, 20_000);
    expect(runs.items).toHaveLength(1);
    expect(runs.items[0]).toMatchObject({ trigger: 'MISSED', endTs: report.nextRunTs! + HOUR });
  });

  it('keeps the files within the disk budget, removing the oldest runs first', async () => {
    const t = await makeDeviceApp({ tuning: { reportBudgetBytes: 20_000 } });
    const device = await t.api.createDevice();
    const report = await t.api.ok(r.create, { body: body(device.id) });
    const runs: ReportRun[] = [];
    for (let i = 0; i < 5; i++) runs.push(await t.api.ok(r.run, { params: { id: report.id }, body: {} }));
    const bytes = runs[0]!.xlsxBytes + runs[0]!.csvBytes;
    const kept = Math.floor(20_000 / bytes);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(5);
    const listed = (await t.api.ok(r.runs, { params: { id: report.id } })).items.map((x) => x.id);
    expect(listed).toEqual(runs.slice(-kept).reverse().map((x) => x.id));
    expect(readdirSync(join(t.dataDir, 'reports')).sort()).toEqual(listed.flatMap((id) => [`${id}.csv`, `${id}.xlsx`]).sort());
    expectError(await t.api.call(r.file, { params: { id: runs[0]!.id }, query: { format: 'xlsx' } }), 404, 32, 'error.notFound');
  });
});
