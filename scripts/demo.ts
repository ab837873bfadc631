/**
 * `npm run demo`: a pre-activated console on a scratch data dir, so a newcomer sees the console in
 * one command. It provisions over HTTP exactly as a factory script would (setup code, licence from
 * a local development key, administrator) and prints the administrator's password once.
 * Then a small device simulator (3 devices, 1 message per second each) feeds it live data, so the
 * workbench and device pages have something to show; `--no-simulate` leaves it out. Other
 * arguments go to the server (e.g. `--port 8081 --mqtt-port 0`).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './build.ts';
import { ensureDevKeys } from './license.ts';
import { freePort } from './lib/free-port.ts';
import { runServer } from './lib/run-server.ts';
import { startSimulator } from './lib/simulator.ts';
import { issueLicense } from '../server/modules/license/license-issue.ts';
import { oneTimePassword } from '../server/lib/one-time-password.ts';
import { httpStatus } from '../tests/helpers/binary.ts';

const NO_SIMULATE = '--no-simulate';
const simulate = !process.argv.includes(NO_SIMULATE);
const serverArgs = process.argv.slice(2).filter((a) => a !== NO_SIMULATE);

/** A server flag's value as the server reads it (`--name N` or `--name=N`, the last one wins), else the environment's. */
function flagValue(args: readonly string[], name: string, envName: string): string | undefined {
  let value = process.env[envName];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) value = args[i + 1];
    else if (args[i]!.startsWith(`${name}=`)) value = args[i]!.slice(name.length + 1);
  }
  return value;
}

const port = Number(flagValue(serverArgs, '--port', 'EDGE_PORT') ?? 8080);
// `--mqtt-port 0` asks for any free port; the simulator must know which, so the demo picks it.
let mqttPort = Number(flagValue(serverArgs, '--mqtt-port', 'EDGE_MQTT_PORT') ?? 1883);
if (mqttPort === 0) {
  mqttPort = await freePort();
  serverArgs.push('--mqtt-port', String(mqttPort));
}
const dataDir = mkdtempSync(join(tmpdir(), 'edge-demo-'));
const keys = ensureDevKeys(join(root, '.keys'));
const base = `http://127.0.0.1:${port}`;

runServer(['--data-dir', dataDir, '--port', String(port), '--license-public-key', keys.publicKeyFile, '--log-level', 'warn', ...serverArgs], { quietStdout: true });

async function call(method: string, path: string, body: BodyInit | object | undefined, setupCode: string): Promise<void> {
  const isForm = body instanceof FormData;
  const res = await fetch(base + path, {
    method,
    headers: { 'x-setup-code': setupCode, 'accept-language': 'en-US', ...(isForm || !body ? {} : { 'content-type': 'application/json' }) },
    body: isForm ? body : body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

async function provision(): Promise<string> {
  const deadline = Date.now() + 20_000;
  while ((await httpStatus(`${base}/api/health`)) !== 200) {
    if (Date.now() > deadline) throw new Error(`the server did not answer on ${base}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const setupCode = readFileSync(join(dataDir, 'setup-code'), 'utf8').trim();
  const lic = issueLicense({
    privateKeyPem: readFileSync(keys.privateKeyFile, 'utf8'),
    device: '*',
    days: 365,
    customer: 'Demo',
    maxDevices: 1000,
  });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(lic)]), 'demo.lic');
  await call('POST', '/api/license/uploading', form, setupCode);
  const password = oneTimePassword();
  await call('POST', '/api/yt/setup/admin', { username: 'admin', password, platformName: 'Edge Demo' }, setupCode);
  process.stdout.write(
    [
      '',
      `edge-console demo is running at ${base} (data: ${dataDir})`,
      `sign in as  admin / ${password}   (shown once; Ctrl-C stops the demo)`,
      '',
    ].join('\n'),
  );
  return password;
}

/** Live data for a newcomer; a failure here leaves the console running. */
async function startDemoDevices(password: string): Promise<void> {
  const mqttUrl = `mqtt://127.0.0.1:${mqttPort}`;
  try {
    const sim = await startSimulator({ url: base, mqttUrl, username: 'admin', password, devices: 3, rate: 1 });
    process.stdout.write(
      `${sim.devices.length} simulated devices of product "${sim.product.name}" report to ${mqttUrl} once a second (${NO_SIMULATE} leaves them out)\n\n`,
    );
  } catch (err) {
    process.stderr.write(`demo: the device simulator did not start: ${(err as Error).message}\n`);
  }
}

provision()
  .then((password) => (simulate ? startDemoDevices(password) : undefined))
  .catch((err: unknown) => {
    process.stderr.write(`demo: ${(err as Error).message}\n`);
    process.exit(1);
  });
