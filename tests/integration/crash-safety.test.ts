/**
 * An acknowledged QoS 1 message survives a hard kill: the server runs as its own process (from
 * source, through tsx), a device publishes, every PUBACK is awaited, the process gets SIGKILL at
 * once, and after a restart on the same data dir every message is in history. The same under each
 * commit policy (`--commit-interval-ms` and friends) with a paced device killed mid-stream: a
 * message waiting for the commit budget is not acknowledged yet, so nothing acknowledged is lost.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { authRoutes, type TokenPair } from '../../server/contract/auth.ts';
import { credentialsRoutes, type DeviceCredentials } from '../../server/contract/credentials.ts';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import { licenseRoutes, SETUP_CODE_HEADER } from '../../server/contract/license.ts';
import { productRoutes, type Product } from '../../server/contract/product.ts';
import { telemetryRoutes, type TimeseriesValues } from '../../server/contract/telemetry.ts';
import { startBinary, type RunningBinary } from '../helpers/binary.ts';
import { generateKeyPair, issueLicense } from '../helpers/license.ts';
import { sourceServer } from '../helpers/source-server.ts';

// A burst this size fills batches past the writer's `workerFrom`: they are committed by the history worker.
const MESSAGES = 1000;
const ADMIN = { username: 'admin', password: 'Edge@Console1' };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function mqttPortOf(server: RunningBinary): number {
  const match = /device MQTT on port (\d+)/.exec(server.output());
  if (!match) throw new Error(`no MQTT port in the output:\n${server.output()}`);
  return Number(match[1]);
}

async function call<T>(server: RunningBinary, method: string, url: string, init: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
  const isForm = init.body instanceof FormData;
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      ...init.headers,
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body === undefined ? undefined : isForm ? (init.body as FormData) : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function login(server: RunningBinary): Promise<string> {
  return (await call<TokenPair>(server, authRoutes.login.method, authRoutes.login.url, { body: ADMIN })).token;
}

interface Provisioned {
  first: RunningBinary;
  device: Device;
  mqttUsername: string;
  options: { binary: string; dataDir: string; args: string[]; timeoutMs: number };
}

/** A server from source on a new data dir, provisioned over HTTP as a factory script does it, with one MQTT device. */
async function provisioned(args: readonly string[] = []): Promise<Provisioned> {
  const dir = mkdtempSync(join(tmpdir(), 'edge-crash-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const dataDir = join(dir, 'data');
  const keys = generateKeyPair();
  const publicKey = join(dir, 'license-public.pem');
  writeFileSync(publicKey, keys.publicKeyPem);
  const options = { binary: sourceServer(dir), dataDir, args: ['--license-public-key', publicKey, ...args], timeoutMs: 60_000 };

  const first = await startBinary(options);
  cleanups.push(() => first.kill());
  const setup = { [SETUP_CODE_HEADER]: first.setupCode ?? '' };
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(issueLicense({ privateKeyPem: keys.privateKeyPem }))]), 'edge.lic');
  await call(first, licenseRoutes.upload.method, licenseRoutes.upload.url, { body: form, headers: setup });
  await call(first, licenseRoutes.setupAdmin.method, licenseRoutes.setupAdmin.url, { body: ADMIN, headers: setup });
  const token = await login(first);
  const product = await call<Product>(first, productRoutes.create.method, productRoutes.create.url, {
    token,
    body: { name: 'Meters', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' },
  });
  const device = await call<Device>(first, deviceRoutes.create.method, deviceRoutes.create.url, {
    token,
    body: { name: 'Meter_1', deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id },
  });
  const credentials = await call<DeviceCredentials>(first, 'GET', credentialsRoutes.get.url.replace(':id', device.id), { token });
  return { first, device, mqttUsername: credentials.credentialsId, options };
}

/** The `seq` values history holds for the device after a restart on the same data dir. */
async function storedAfterRestart(p: Provisioned): Promise<{ second: RunningBinary; seqs: number[] }> {
  const second = await startBinary(p.options);
  cleanups.push(() => second.kill());
  const values = await call<TimeseriesValues>(
    second,
    'GET',
    `${telemetryRoutes.timeseries.url.replace(':id', p.device.id)}?keys=seq&startTs=0&limit=50000&orderBy=ASC`,
    { token: await login(second) },
  );
  return { second, seqs: (values.seq ?? []).map((v) => Number(v.value)) };
}

describe('crash safety', () => {
  it('keeps every acknowledged QoS 1 message when the process is killed right after the PUBACKs', { timeout: 120_000 }, async () => {
    const p = await provisioned();
    const client = await connectAsync(`mqtt://127.0.0.1:${mqttPortOf(p.first)}`, { username: p.mqttUsername, reconnectPeriod: 0 });
    client.on('error', () => undefined);
    // All in flight at once: the acknowledged ones span several batches, the last one just committed.
    await Promise.all(
      Array.from({ length: MESSAGES }, (_, i) =>
        client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_000_000 + i, values: { seq: i } }), { qos: 1 }),
      ),
    );
    process.kill(p.first.pid, 'SIGKILL');
    client.end(true);
    await p.first.kill();

    const { second, seqs } = await storedAfterRestart(p);
    expect(seqs).toEqual(Array.from({ length: MESSAGES }, (_, i) => i));
    // Nobody is connected after the restart, whatever the state was when the process died.
    const after = await call<Device>(second, 'GET', deviceRoutes.get.url.replace(':id', p.device.id), { token: await login(second) });
    expect(after.deviceState).toBe('OFFLINE');
  });

  // Paced: messages arrive while commits wait for the budget, and the kill lands mid-stream, some
  // messages acknowledged, some queued for the next commit, some still on the wire.
  it.each([
    { policy: 'the default flash budget', args: [] },
    { policy: 'every batch at once', args: ['--commit-interval-ms', '0'] },
    { policy: 'one commit a second, no burst', args: ['--commit-interval-ms', '1000', '--commit-burst', '1'] },
    { policy: 'a budget with large batches committing early', args: ['--commit-interval-ms', '5000', '--commit-batch', '16'] },
  ])('keeps every acknowledged message of a paced device killed mid-stream under $policy', { timeout: 120_000 }, async ({ args }) => {
    const p = await provisioned(args);
    const client = await connectAsync(`mqtt://127.0.0.1:${mqttPortOf(p.first)}`, { username: p.mqttUsername, reconnectPeriod: 0 });
    client.on('error', () => undefined);
    const acked: number[] = [];
    let seq = 0;
    const pacer = setInterval(() => {
      const i = seq++;
      client.publish('v1/devices/me/telemetry', JSON.stringify({ ts: 1_000_000 + i, values: { seq: i } }), { qos: 1 }, (err) => {
        if (!err) acked.push(i);
      });
    }, 5);
    // Killed once a few commits were acknowledged, whatever the budget lets through by then.
    for (let waited = 0; acked.length < 40 && waited < 60_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    process.kill(p.first.pid, 'SIGKILL');
    clearInterval(pacer);
    const ackedAtKill = [...acked];
    client.end(true);
    await p.first.kill();

    expect(ackedAtKill.length).toBeGreaterThanOrEqual(40);
    const { seqs } = await storedAfterRestart(p);
    const stored = new Set(seqs);
    expect(ackedAtKill.filter((i) => !stored.has(i))).toEqual([]);
  });
});
