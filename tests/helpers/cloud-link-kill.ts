/**
 * A kill -9 in the middle of the cloud link's backlog drain, for the store-and-forward tests: the
 * gateway holding a backlog (stored while the broker was down) is closed, the broker returns, and
 * a gateway in a child process (cloud-link-child.ts: one message in flight) drains it until the
 * cloud saw the first of it, then gets SIGKILL. The test restarts a gateway on the same data dir.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, type TestApp } from './app.ts';
import type { subscriber } from './cloud-subscriber.ts';
import { testLicenseKeys } from './license.ts';
import type { Mosquitto } from './mosquitto.ts';
import { eventually } from './mqtt.ts';

const root = join(import.meta.dirname, '..', '..');

export async function killMidDrain(opts: {
  first: TestApp;
  broker: Mosquitto;
  cloud: Awaited<ReturnType<typeof subscriber>>;
  /** The cloud has seen part of the backlog. */
  drainStarted: () => boolean;
}): Promise<void> {
  await opts.first.app.close();
  await opts.broker.resume();
  await eventually(() => opts.cloud.client.connected, (up) => up);
  // The subscriber resubscribes after its reconnect; what the edge sent before would be lost to the test.
  await new Promise((resolve) => setTimeout(resolve, 300));

  const keyFile = join(tempDir('edge-key-'), 'license-public.pem');
  writeFileSync(keyFile, testLicenseKeys().publicKeyPem);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', join(root, 'tests/helpers/sql-text-loader.mjs'), join(root, 'tests/helpers/cloud-link-child.ts'), opts.first.dataDir, keyFile],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const exited = once(child, 'exit');
  await eventually(opts.drainStarted, (started) => started, 20_000);
  child.kill('SIGKILL');
  await exited;
}
