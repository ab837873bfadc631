/**
 * Enabled scenes and active alarms survive a hard kill: the server runs as its own process (from
 * source, through tsx), a crossing raises an alarm, the process gets SIGKILL, and after a restart
 * on the same data dir the alarm is still active and the scene's clear rule still clears it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { alarmRoutes } from '../../server/contract/alarm.ts';
import { sceneLinkageRoutes } from '../../server/contract/scene-linkage.ts';
import { BENCH_ADMIN, mqttPortOf, provision } from '../../scripts/lib/bench-gateway.ts';
import { ConsoleHttp } from '../../scripts/lib/console-http.ts';
import { ensureDevices, ensureSimulatorProduct } from '../../scripts/lib/simulator.ts';
import { startBinary, type RunningBinary } from '../helpers/binary.ts';
import { generateKeyPair } from '../helpers/license.ts';
import { eventually } from '../helpers/mqtt.ts';
import { cooledDown, overheatScene } from '../helpers/scenes.ts';
import { sourceServer } from '../helpers/source-server.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function publishTemperature(server: RunningBinary, token: string, temperature: number): Promise<void> {
  const client = await connectAsync(`mqtt://127.0.0.1:${await mqttPortOf(server)}`, { username: token, reconnectPeriod: 0 });
  client.on('error', () => undefined);
  await client.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature }), { qos: 1 });
  await client.endAsync();
}

describe('alarms across a hard kill', () => {
  it('keeps the active alarm and the enabled scene after kill -9', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edge-alarm-crash-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const keys = generateKeyPair();
    const publicKey = join(dir, 'license-public.pem');
    writeFileSync(publicKey, keys.publicKeyPem);
    const options = { binary: sourceServer(dir), dataDir: join(dir, 'data'), args: ['--license-public-key', publicKey], timeoutMs: 60_000 };

    const first = await startBinary(options);
    cleanups.push(() => first.kill());
    await provision(first, keys.privateKeyPem);
    const http = await ConsoleHttp.signIn(first.url, BENCH_ADMIN.username, BENCH_ADMIN.password);
    const product = await ensureSimulatorProduct(http, 'Boilers');
    const [device] = await ensureDevices(http, product.id, 1);
    const scene = await http.call(sceneLinkageRoutes.create, { body: overheatScene(product.id, { clearRules: [cooledDown(product.id)] }) });
    await publishTemperature(first, device!.token, 90);
    const [alarm] = await eventually(() => http.call(alarmRoutes.list).then((p) => p.items), (items) => items.length === 1, 10_000);
    process.kill(first.pid, 'SIGKILL');
    await first.kill();

    const second = await startBinary(options);
    cleanups.push(() => second.kill());
    const again = await ConsoleHttp.signIn(second.url, BENCH_ADMIN.username, BENCH_ADMIN.password);
    expect(await again.call(alarmRoutes.get, { params: { id: alarm!.id } })).toMatchObject({ status: 'ACTIVE_UNACK', count: 1, details: { value: 90 } });
    expect((await again.call(sceneLinkageRoutes.get, { params: { id: scene.id } })).enabled).toBe(true);
    await publishTemperature(second, device!.token, 40);
    await eventually(() => again.call(alarmRoutes.get, { params: { id: alarm!.id } }), (a) => a.status === 'CLEARED_UNACK', 10_000);
  });
});
