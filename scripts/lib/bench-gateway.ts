/**
 * The built binary as the bench drives it: on loopback, trusting a licence key made for the run,
 * provisioned over HTTP as a factory script does it (licence with the setup code, administrator),
 * signed in, with its device MQTT port and live websocket URL at hand.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { licenseRoutes, SETUP_CODE_HEADER } from '../../server/contract/license.ts';
import { WS_PATH } from '../../server/contract/realtime.ts';
import { generateLicenseKeyPair, issueLicense } from '../../server/modules/license/license-issue.ts';
import type { RunningBinary } from '../../tests/helpers/binary.ts';
import { startAfterReboot } from './bench-start.ts';
import { ConsoleHttp } from './console-http.ts';
import { sleep } from './bench-measure.ts';

export const BENCH_ADMIN = { username: 'admin', password: 'Edge@Console1' } as const;

export interface BenchGateway {
  bin: RunningBinary;
  http: ConsoleHttp;
  /** `mqtt://127.0.0.1:<port>` of the device broker. */
  mqttUrl: string;
  /** `ws://127.0.0.1:<port>/api/ws` */
  wsUrl: string;
  stop(): Promise<void>;
}

/** First boot over HTTP: licence upload with the setup code, then the administrator. */
export async function provision(bin: RunningBinary, privateKeyPem: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(issueLicense({ privateKeyPem, device: '*', days: 30 }))]), 'edge.lic');
  const headers = { [SETUP_CODE_HEADER]: bin.setupCode ?? '' };
  const lic = await fetch(`${bin.url}${licenseRoutes.upload.url}`, { method: 'POST', headers, body: form });
  if (!lic.ok) throw new Error(`bench: licence upload answered ${lic.status} ${await lic.text()}`);
  const admin = await fetch(`${bin.url}${licenseRoutes.setupAdmin.url}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  if (!admin.ok) throw new Error(`bench: administrator creation answered ${admin.status} ${await admin.text()}`);
}

/** A licence key pair written where `--license-public-key` can read it; `remove` deletes it. */
export function benchLicenceKeys(): { privateKeyPem: string; publicKeyFile: string; dir: string; remove(): void } {
  const keys = generateLicenseKeyPair();
  const dir = mkdtempSync(join(tmpdir(), 'edge-bench-'));
  const publicKeyFile = join(dir, 'license-public.pem');
  writeFileSync(publicKeyFile, keys.publicKeyPem);
  return { privateKeyPem: keys.privateKeyPem, publicKeyFile, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** main.ts prints the broker's port once it listens, which may be just after the first health 200. */
export async function mqttPortOf(bin: RunningBinary): Promise<number> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const match = /device MQTT on port (\d+)/.exec(bin.output());
    if (match) return Number(match[1]);
    await sleep(20);
  }
  throw new Error(`bench: the binary did not print its MQTT port:\n${bin.output()}`);
}

/** `args`: more command-line flags for the binary (a commit policy the bench compares). */
export async function startProvisionedGateway(binary: string, env?: NodeJS.ProcessEnv, args: readonly string[] = []): Promise<BenchGateway> {
  const keys = benchLicenceKeys();
  let bin: RunningBinary | null = null;
  try {
    bin = await startAfterReboot({ binary, args: ['--license-public-key', keys.publicKeyFile, ...args], ...(env ? { env } : {}) });
    await provision(bin, keys.privateKeyPem);
    const http = await ConsoleHttp.signIn(bin.url, BENCH_ADMIN.username, BENCH_ADMIN.password);
    const mqttUrl = `mqtt://127.0.0.1:${await mqttPortOf(bin)}`;
    const running = bin;
    return {
      bin: running,
      http,
      mqttUrl,
      wsUrl: `ws://127.0.0.1:${running.port}${WS_PATH}`,
      async stop() {
        await running.kill();
        keys.remove();
      },
    };
  } catch (err) {
    await bin?.kill();
    keys.remove();
    throw err;
  }
}
