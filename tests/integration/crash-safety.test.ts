/**
 * An acknowledged QoS 1 message survives a hard kill: the server runs as its own process (from
 * source, through tsx), a device publishes, every PUBACK is awaited, the process gets SIGKILL at
 * once, and after a restart on the same data dir every message is in history.
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

describe('crash safety', () => {
  it('keeps every acknowledged QoS 1 message when the process is killed right after the PUBACKs', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edge-crash-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dataDir = join(dir, 'data');
    const keys = generateKeyPair();
    const publicKey = join(dir, 'license-public.pem');
    writeFileSync(publicKey, keys.publicKeyPem);
    const options = { binary: sourceServer(dir), dataDir, args: ['--license-public-key', publicKey], timeoutMs: 60_000 };

    const first = await startBinary(options);
    cleanups.push(() => first.kill());
    // First boot over HTTP, as a provisioning script does it.
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

    const client = await connectAsync(`mqtt://127.0.0.1:${mqttPortOf(first)}`, { username: credentials.credentialsId, reconnectPeriod: 0 });
    client.on('error', () => undefined);
    // All in flight at once: the acknowledged ones span several batches, the last one just committed.
    await Promise.all(
      Array.from({ length: MESSAGES }, (_, i) =>
        client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: 1_000_000 + i, values: { seq: i } }), { qos: 1 }),
      ),
    );
    process.kill(first.pid, 'SIGKILL');
    client.end(true);
    await first.kill();

    const second = await startBinary(options);
    cleanups.push(() => second.kill());
    const values = await call<TimeseriesValues>(
      second,
      'GET',
      `${telemetryRoutes.timeseries.url.replace(':id', device.id)}?keys=seq&startTs=0&limit=50000&orderBy=ASC`,
      { token: await login(second) },
    );
    expect(values.seq?.map((p) => p.value)).toEqual(Array.from({ length: MESSAGES }, (_, i) => i));
    // Nobody is connected after the restart, whatever the state was when the process died.
    const after = await call<Device>(second, 'GET', deviceRoutes.get.url.replace(':id', device.id), { token: await login(second) });
    expect(after.deviceState).toBe('OFFLINE');
  });
});
