/**
 * A gateway in a process of its own that applies a network change over HTTP and then waits for a
 * confirmation that never comes: the crash test kills it with SIGKILL inside the window.
 * Prints "applied" once the change is in effect.
 * Run: node --import tsx --import sql-text-loader.mjs network-apply-child.ts <data dir> <licence public key PEM file> <username> <password> <body JSON>
 */
import { readFileSync } from 'node:fs';
import { buildApp } from '../../server/app.ts';
import { defaults } from '../../server/config.ts';
import { networkRoutes } from '../../server/contract/network.ts';

const [dataDir, keyFile, username, password, body] = process.argv.slice(2) as [string, string, string, string, string];
const app = await buildApp({
  config: { ...defaults, port: 0, mqttPort: 0, mqttsPort: 0, tcpPort: 0, deviceSn: 'TEST-SN-0001', dataDir },
  version: '0.0.0-test',
  embeddedLicenseKeys: [readFileSync(keyFile, 'utf8')],
});
const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
const headers = { authorization: `Bearer ${(login.json() as { token: string }).token}` };
const res = await app.inject({ method: 'POST', url: networkRoutes.apply.url, headers, payload: JSON.parse(body) as Record<string, unknown> });
if (res.statusCode !== 200) throw new Error(`apply answered ${res.statusCode} ${res.body}`);
process.stdout.write('applied\n');
setInterval(() => undefined, 60_000);
