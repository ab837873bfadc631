/**
 * A gateway in a process of its own, serving HTTP on a unix socket: a socket file crosses network
 * namespaces, so a test on the host reaches a gateway that runs inside one (tests/helpers/nm-namespace.ts)
 * without a single address on the host. Prints "listening" once it serves.
 * Run: node --import tsx --import sql-text-loader.mjs socket-gateway-child.ts <data dir> <licence public key PEM file> <socket path> <network applier>
 */
import { readFileSync } from 'node:fs';
import { buildApp } from '../../server/app.ts';
import { defaults } from '../../server/config.ts';
import type { NetworkApplierName } from '../../server/contract/network.ts';

const [dataDir, keyFile, socketPath, networkApplier] = process.argv.slice(2) as [string, string, string, NetworkApplierName];
const app = await buildApp({
  config: { ...defaults, port: 0, mqttPort: 0, mqttsPort: 0, tcpPort: 0, deviceSn: 'TEST-SN-0001', dataDir, networkApplier },
  version: '0.0.0-test',
  embeddedLicenseKeys: [readFileSync(keyFile, 'utf8')],
});
await app.listen({ path: socketPath });
process.stdout.write('listening\n');
