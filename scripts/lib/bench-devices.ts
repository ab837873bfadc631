/**
 * The device-management figures, measured on the built binary over HTTP on loopback:
 * - import of 10,000 CSV rows (preview upload + commit), wall time;
 * - the device list page (`GET /api/yt/device`, pageSize 10) with 11,000 devices, under a mix of
 *   filters, sorts and page depths: p50/p95/p99 of the client's round trip.
 * The gateway is provisioned like a factory's: an organization tree, two products, 1,000 devices
 * batch-generated under one branch, then the 10,000-row import under another; 200 imported devices
 * connect over MQTT and 100 of them leave again (so the state filter has ONLINE, OFFLINE and
 * INACTIVE devices), and 50 are favourites.
 */
import { connectAsync, type MqttClient } from 'mqtt';
import { deviceImportRoutes, IMPORT_MAX_ROWS, type ImportPreview } from '../../server/contract/device-import.ts';
import { deviceRoutes, type DeviceListQuery } from '../../server/contract/device.ts';
import { organizationRoutes } from '../../server/contract/organization.ts';
import { productRoutes } from '../../server/contract/product.ts';
import type { RowSpec } from './bench-row.ts';
import { startProvisionedGateway } from './bench-gateway.ts';
import { count, cpuMs, percentile, schedNote, schedOf, schedShares, sleep } from './bench-measure.ts';
import type { ConsoleHttp } from './console-http.ts';

const LIST_REQUESTS = 300;
const WARMUP_REQUESTS = 30;
const CONNECTED = 200;
const LEFT_AGAIN = 100;
const FAVOURITES = 50;
const CITIES = ['hangzhou', 'shanghai', 'beijing', 'shenzhen', 'chengdu', 'wuhan', 'xian', 'nanjing', 'suzhou', 'tianjin'];

interface ImportedDevice {
  name: string;
  token: string;
}

/** The import file: name, alias, label, position and a preset token per row (the token lets the bench connect some of them). */
function importCsv(rows: number): { csv: string; devices: ImportedDevice[] } {
  const devices: ImportedDevice[] = [];
  const lines = ['name,alias,label,longitude,latitude,token'];
  for (let i = 0; i < rows; i++) {
    const n = String(i).padStart(5, '0');
    const city = CITIES[i % CITIES.length]!;
    const device = { name: `sensor-${city}-${n}`, token: `bench-token-${n}-${(i * 7919).toString(36)}` };
    devices.push(device);
    const lng = (120 + (i % 1000) / 1000).toFixed(4);
    const lat = (30 + (i % 500) / 1000).toFixed(4);
    lines.push(`${device.name},Sensor ${city} ${i},floor-${i % 12},${lng},${lat},${device.token}`);
  }
  return { csv: `${lines.join('\n')}\n`, devices };
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

async function preview(http: ConsoleHttp, csv: string): Promise<ImportPreview> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'devices.csv');
  const res = await fetch(`${http.baseUrl}${deviceImportRoutes.preview.url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${http.accessToken ?? ''}`, 'accept-language': 'en-US' },
    body: form,
  });
  if (!res.ok) throw new Error(`bench: import preview answered ${res.status} ${await res.text()}`);
  return (await res.json()) as ImportPreview;
}

/** Until the list shows `expected` devices in `state` (state changes are written as devices come and go). */
async function waitForState(http: ConsoleHttp, state: 'ONLINE' | 'OFFLINE', expected: number): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 100) {
    const page = await http.call(deviceRoutes.list, { query: { deviceState: state, pageSize: 1 } });
    if (page.total === expected) return;
    await sleep(100);
  }
  throw new Error(`bench: ${expected} devices never showed as ${state}`);
}

export async function deviceRows(binary: string): Promise<RowSpec[]> {
  const gw = await startProvisionedGateway(binary);
  const clients: MqttClient[] = [];
  try {
    const { http } = gw;
    const org = (name: string, parentId: string | null) => http.call(organizationRoutes.create, { body: { name, parentId } });
    const company = await org('Bench', null);
    const east = await org('East', company.id);
    const plant = await org('Plant-1', east.id);
    const west = await org('West', company.id);
    const sensor = await http.call(productRoutes.create, { body: { name: 'Bench-sensor', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' } });
    const meter = await http.call(productRoutes.create, { body: { name: 'Bench-meter', deviceType: 'DIRECT_CONNECTION', transportType: 'DEFAULT' } });
    await http.call(deviceImportRoutes.batch, { body: { deviceProfileId: meter.id, count: 1000, aliasPrefix: 'meter-', organizationId: west.id } });

    // ---- import: the upload and the commit, as the wizard makes them
    const { csv, devices } = importCsv(IMPORT_MAX_ROWS);
    const pid = gw.bin.pid;
    const cpuBefore = cpuMs(pid);
    const up = await timed(() => preview(http, csv));
    const cpuAfterPreview = cpuMs(pid);
    const columns = up.value.columns;
    const col = (name: string): number => columns.indexOf(name);
    const commit = await timed(() =>
      http.call(deviceImportRoutes.commit, {
        body: {
          importId: up.value.importId,
          mapping: { name: col('name'), alias: col('alias'), label: col('label'), longitude: col('longitude'), latitude: col('latitude') },
          defaults: { deviceProfileId: sensor.id, organizationId: plant.id },
          credentialsColumn: col('token'),
        },
      }),
    );
    const importCpu = cpuMs(pid) - cpuBefore;
    if (commit.value.created !== IMPORT_MAX_ROWS) {
      throw new Error(`bench: the import created ${commit.value.created} of ${IMPORT_MAX_ROWS} (first refusal: ${JSON.stringify(commit.value.rejected[0])})`);
    }

    // ---- a realistic mix of states and favourites
    // Spread over the file, so they are not all on the first pages.
    const picked = Array.from({ length: CONNECTED }, (_, k) => devices[Math.floor((k * devices.length) / CONNECTED)]!);
    for (let i = 0; i < picked.length; i += 50) {
      const batch = picked.slice(i, i + 50);
      clients.push(...(await Promise.all(batch.map((d) => connectAsync(gw.mqttUrl, { username: d.token, clientId: `bench-${d.name}`, reconnectPeriod: 0 })))));
    }
    await Promise.all(clients.splice(0, LEFT_AGAIN).map((c) => c.endAsync()));
    await waitForState(http, 'ONLINE', CONNECTED - LEFT_AGAIN);
    await waitForState(http, 'OFFLINE', LEFT_AGAIN);
    const someSensors = await http.call(deviceRoutes.list, { query: { deviceProfileId: sensor.id, page: 3, pageSize: FAVOURITES } });
    for (const d of someSensors.items) await http.call(deviceRoutes.collect, { params: { id: d.id }, body: { isCollect: true } });
    const total = (await http.call(deviceRoutes.list, { query: { pageSize: 1 } })).total;

    // ---- the list page under the filters and sorts the console offers
    const lastPage = Math.ceil(total / 10);
    const shapes: { label: string; query: Partial<DeviceListQuery> }[] = [
      { label: 'page 1, newest first', query: {} },
      { label: 'page 1, by name', query: { sortField: 'name', sortOrder: 'ascend' } },
      { label: `deep page ${lastPage - 10}, newest first`, query: { page: lastPage - 10 } },
      { label: `deep page ${Math.floor(lastPage * 0.7)}, by name`, query: { page: Math.floor(lastPage * 0.7), sortField: 'name', sortOrder: 'descend' } },
      { label: 'name contains "hangzhou"', query: { name: 'hangzhou' } },
      { label: 'name contains "0042", by name', query: { name: '0042', sortField: 'name', sortOrder: 'ascend' } },
      { label: 'state ONLINE', query: { deviceState: 'ONLINE' } },
      { label: 'state INACTIVE, page 50', query: { deviceState: 'INACTIVE', page: 50 } },
      { label: 'product, oldest first', query: { deviceProfileId: sensor.id, sortField: 'createdTime', sortOrder: 'ascend' } },
      { label: 'organization tree root (all)', query: { organizationId: company.id, page: 20 } },
      { label: 'organization West, page 3', query: { organizationId: west.id, page: 3 } },
      { label: 'favourites', query: { isCollect: true } },
      {
        label: 'name + state + product + organization, by name',
        query: { name: 'shanghai', deviceState: 'INACTIVE', deviceProfileId: sensor.id, organizationId: east.id, sortField: 'name', sortOrder: 'ascend', page: 5 },
      },
    ];
    const run = async (i: number): Promise<{ shape: number; ms: number; total: number }> => {
      const shape = i % shapes.length;
      const { value, ms } = await timed(() => http.call(deviceRoutes.list, { query: { pageSize: 10, ...shapes[shape]!.query } }));
      return { shape, ms, total: value.total };
    };
    for (let i = 0; i < WARMUP_REQUESTS; i++) await run(i);
    const listCpuBefore = cpuMs(pid);
    const sched0 = schedOf(pid);
    const samples: { shape: number; ms: number; total: number }[] = [];
    for (let i = 0; i < LIST_REQUESTS; i++) samples.push(await run(i));
    const listCpu = cpuMs(pid) - listCpuBefore;
    const sched = schedNote(schedShares(sched0, schedOf(pid)));

    const all = samples.map((s) => s.ms);
    const p = (q: number): number => percentile(all, q);
    const byShape = shapes.map((s, i) => {
      const mine = samples.filter((x) => x.shape === i);
      return { label: s.label, p95: percentile(mine.map((x) => x.ms), 95), total: mine[0]?.total ?? 0 };
    });
    const slowest = [...byShape].sort((a, b) => b.p95 - a.p95).slice(0, 3);
    const detail: Record<string, number | string> = {
      devices: total,
      requests: LIST_REQUESTS,
      p50: p(50),
      p95: p(95),
      p99: p(99),
      max: Math.max(...all),
      serverCpuMsPerRequest: listCpu / LIST_REQUESTS,
    };
    byShape.forEach((s, i) => (detail[`shape${i + 1}`] = `${s.label}: total ${s.total}, p95 ${s.p95.toFixed(1)} ms`));

    return [
      {
        id: 'deviceListP95Ms',
        figure: `device list page (pageSize 10) with ${count(total)} devices, p95`,
        value: p(95),
        unit: 'ms',
        budget: 20,
        note:
          `${LIST_REQUESTS} sequential GET /api/yt/device over ${shapes.length} filter/sort/page mixes after ${WARMUP_REQUESTS} warm-up; ` +
          `p50 ${p(50).toFixed(1)} ms, p99 ${p(99).toFixed(1)} ms, max ${Math.max(...all).toFixed(0)} ms; ` +
          `server CPU ${(listCpu / LIST_REQUESTS).toFixed(2)} ms/request, ${sched}; slowest p95: ${slowest.map((s) => `${s.label} ${s.p95.toFixed(1)} ms`).join(', ')}`,
        detail,
      },
      {
        id: 'deviceImportMs',
        figure: `import of ${count(IMPORT_MAX_ROWS)} CSV rows (preview + commit)`,
        value: up.ms + commit.ms,
        unit: 'ms',
        budget: 5000,
        note:
          `${(csv.length / 1024).toFixed(0)} KB CSV (name, alias, label, position, preset token), 1,000 devices already present; ` +
          `preview ${up.ms.toFixed(0)} ms + commit ${commit.ms.toFixed(0)} ms, ${count(commit.value.created)} created in one transaction; ` +
          `server CPU ${importCpu.toFixed(0)} ms (preview ${(cpuAfterPreview - cpuBefore).toFixed(0)} ms)`,
        detail: { previewMs: up.ms, commitMs: commit.ms, rows: IMPORT_MAX_ROWS, created: commit.value.created, serverCpuMs: importCpu },
      },
    ];
  } finally {
    await Promise.all(clients.map((c) => c.endAsync().catch(() => undefined)));
    await gw.stop();
  }
}
