/**
 * `npm run simulate -- --devices N --rate R [--url http://127.0.0.1:8080] [--mqtt mqtt://127.0.0.1:1883]
 * [--username admin --password …] [--product NAME] [--qos 0|1]`: N real MQTT devices publishing
 * thing-model-shaped telemetry at R messages per second each, reporting overheat events and
 * answering commands, against a running console. A status line every 5 s; Ctrl-C stops cleanly.
 * The password may also come from EDGE_PASSWORD.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_PRODUCT_NAME, startSimulator, statusLine } from './lib/simulator.ts';

const usage = `usage: npm run simulate -- --devices N --rate R [--url http://127.0.0.1:8080] [--mqtt mqtt://HOST:1883]
       [--username admin] --password PASSWORD [--product ${DEFAULT_PRODUCT_NAME}] [--qos 1]`;

function fail(message: string): never {
  process.stderr.write(`simulate: ${message}\n${usage}\n`);
  process.exit(2);
}

function positive(text: string | undefined, name: string, fallback: number, integer: boolean): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) fail(`--${name} must be a ${integer ? 'whole ' : ''}number above 0`);
  return n;
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        devices: { type: 'string' },
        rate: { type: 'string' },
        url: { type: 'string', default: 'http://127.0.0.1:8080' },
        mqtt: { type: 'string' },
        username: { type: 'string', default: 'admin' },
        password: { type: 'string' },
        product: { type: 'string', default: DEFAULT_PRODUCT_NAME },
        qos: { type: 'string', default: '1' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const devices = positive(values.devices as string | undefined, 'devices', 10, true);
  const rate = positive(values.rate as string | undefined, 'rate', 1, false);
  const qos = values.qos === '0' ? 0 : values.qos === '1' ? 1 : fail('--qos must be 0 or 1');
  const url = String(values.url);
  if (!URL.canParse(url)) fail(`--url ${url} is not a URL`);
  const mqttUrl = (values.mqtt as string | undefined) ?? `mqtt://${new URL(url).hostname}:1883`;
  const password = (values.password as string | undefined) ?? process.env.EDGE_PASSWORD;
  if (!password) fail('--password (or EDGE_PASSWORD) is required');

  const sim = await startSimulator({
    url,
    mqttUrl,
    username: String(values.username),
    password,
    devices,
    rate,
    qos,
    product: String(values.product),
    onStatus: (s) => process.stdout.write(`[simulate] ${statusLine(s)}\n`),
    log: (line) => process.stderr.write(`[simulate] ${line}\n`),
  });
  process.stdout.write(
    `[simulate] ${sim.devices.length} devices of product "${sim.product.name}" connected to ${mqttUrl}, ${rate} msg/s each; Ctrl-C stops\n`,
  );
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void sim.stop().then(() => {
      process.stdout.write(`[simulate] stopped: ${statusLine(sim.stats())}\n`);
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`simulate: ${(err as Error).message}\n`);
  process.exit(1);
});
