/**
 * An edge gateway in a process of its own, on an existing data dir, so a test can kill it with
 * SIGKILL while it drains its cloud backlog. Says "started" once it is up.
 * Run: node --import tsx --import sql-text-loader.mjs cloud-link-child.ts <data dir> <licence public key PEM file>
 */
import { readFileSync } from 'node:fs';
import { buildApp } from '../../server/app.ts';
import { defaults } from '../../server/config.ts';

const [dataDir, keyFile] = process.argv.slice(2) as [string, string];
await buildApp({
  config: { ...defaults, port: 0, mqttPort: 0, mqttsPort: 0, deviceSn: 'TEST-SN-0001', dataDir },
  version: '0.0.0-test',
  embeddedLicenseKeys: [readFileSync(keyFile, 'utf8')],
  // One message in flight: the drain takes long enough to be cut in the middle.
  tuning: { cloudLink: { window: 1, backoffMinMs: 100, backoffMaxMs: 400 } },
});
process.stdout.write('started\n');
