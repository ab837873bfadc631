/**
 * Process entry: parse configuration, build the app, listen, print how to reach it, close
 * gracefully on SIGINT/SIGTERM. Everything testable lives in app.ts.
 */
import { networkInterfaces } from 'node:os';
import { buildApp } from './app.ts';
import { ConfigError, helpText, loadConfig, type Config } from './config.ts';
import { EventBus } from './lib/event-bus.ts';
import { planBoot, type BootPlan } from './lib/firmware/firmware-boot.ts';
import { announceReady } from './lib/firmware/firmware-ready.ts';
import { firmwarePaths } from './lib/firmware/firmware-state.ts';
import { EXIT_RESTART_FOR_UPDATE, SUPERVISED_ENV, superviseChild } from './lib/firmware/firmware-supervisor.ts';
import { loadAssets } from './lib/assets.ts';
import { StartError } from './lib/start-error.ts';
import { settleAfterStart, startOldGenerationTrim } from './lib/old-generation-trim.ts';
import { loggerOptions } from './lib/logger-options.ts';
import { droppingLogDestination } from './lib/log-destination.ts';
import { readLicenseKeyFiles } from './modules/license/license-keys.ts';
import { resetPasswordCommand } from './cli/reset-password.ts';
import { nodeRedRuntimeCommand } from './cli/node-red-runtime.ts';

/** Replaced at build time by scripts/build.ts (esbuild `define`). */
declare const EDGE_BUILD_VERSION: string | undefined;
declare const EDGE_BUILD_LICENSE_KEYS: string[] | undefined;
declare const EDGE_BUILD_FIRMWARE_KEYS: string[] | undefined;

const version = typeof EDGE_BUILD_VERSION === 'string' ? EDGE_BUILD_VERSION : '0.0.0-dev';

// One libuv worker: the gateway's pool work is password checks (scrypt, 32 MiB each while it
// runs, server/lib/password.ts) and a few file reads. One thread bounds that memory to a
// single hash at a time, and each thread also costs a malloc arena. libuv reads the variable when
// the pool first starts, after this line; an operator's value wins.
process.env.UV_THREADPOOL_SIZE ??= '1';

function lanUrls(host: string, port: number): string[] {
  if (host !== '0.0.0.0' && host !== '::') return [`http://${host}:${port}`];
  const urls = [`http://127.0.0.1:${port}`];
  for (const list of Object.values(networkInterfaces())) {
    for (const nic of list ?? []) {
      if (nic.family === 'IPv4' && !nic.internal) urls.push(`http://${nic.address}:${port}`);
    }
  }
  return urls;
}

/** Where SIGINT/SIGTERM go: the serving app's close, or the supervised child while one runs. */
let stopOn: (signal: NodeJS.Signals) => void = () => process.exit(0);
process.on('SIGINT', () => stopOn('SIGINT'));
process.on('SIGTERM', () => stopOn('SIGTERM'));

function firmwareLog(line: string): void {
  process.stderr.write(`edge-console: ${line}\n`);
}

/** GET /api/health of this process as the same host reaches it. */
function healthUrlOf(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}/api/health`;
}

/**
 * Builds the app and serves until a signal ends the process, or until a firmware update has been
 * staged or a factory reset recorded: then the app closes (ports and the data dir freed) and the
 * promise resolves with the port it used, for main() to start the update's trial or to open the
 * data dir again on the same port (which carries the reset out, server/lib/factory-reset.ts).
 */
async function serve(config: Config, port = config.port): Promise<number> {
  const embedded = typeof EDGE_BUILD_LICENSE_KEYS !== 'undefined' ? EDGE_BUILD_LICENSE_KEYS : [];
  const bus = new EventBus();
  let restartForReset = (): void => {};
  const app = await buildApp({
    config: { ...config },
    version,
    // stdout is often a file on the data disk: a full disk drops log lines instead of freezing or ending the process.
    logger: config.logLevel === 'silent' ? false : { ...loggerOptions(config.logLevel), stream: droppingLogDestination({ fd: 1 }) },
    assets: loadAssets(),
    embeddedLicenseKeys: [...embedded, ...readLicenseKeyFiles(config.licensePublicKeys)],
    embeddedFirmwareKeys: typeof EDGE_BUILD_FIRMWARE_KEYS !== 'undefined' ? EDGE_BUILD_FIRMWARE_KEYS : [],
    bus,
    restart: () => restartForReset(),
  });

  let closing = false;
  const close = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A hung close must not keep the gateway's service manager waiting forever.
    setTimeout(() => process.exit(1), 10_000).unref();
    app.close().then(() => process.exit(0), () => process.exit(1));
  };
  stopOn = close;
  // A supervising parent that died (kill -9) closes the IPC channel: its successor will start us again.
  if (process.env[SUPERVISED_ENV] === '1') process.once('disconnect', () => close('parent gone'));
  const reopen = new Promise<void>((resolve) => {
    const closeToReopen = (fields: object, why: string) => {
      if (closing) return;
      closing = true;
      app.log.info(fields, why);
      // Bounds a hung close only: once closed, this process lives on to run the trial or reopen.
      const hung = setTimeout(() => process.exit(1), 10_000).unref();
      app.close().then(() => {
        clearTimeout(hung);
        resolve();
      }, () => process.exit(1));
    };
    bus.on('firmware.staged', ({ version: next }) => closeToReopen({ version: next }, 'firmware staged: restarting into it'));
    restartForReset = () => closeToReopen({}, 'factory reset recorded: restarting in-process');
  });

  // The banner below goes through process.stdout, whose write error on a full disk would otherwise be unhandled.
  process.stdout.on('error', () => {});
  await app.listen({ host: config.host, port });
  // The binary runs with --expose-gc for this (scripts/binary.ts); its timer does not hold the process.
  startOldGenerationTrim();
  settleAfterStart();
  const listening = (app.server.address() as { port: number }).port;
  const lines = [`edge-console ${version} listening on:`, ...lanUrls(config.host, listening).map((u) => `  ${u}`)];
  if (config.upstream) lines.push(`proxy mode: /api -> ${config.upstream}`);
  else {
    if (app.services?.transport) lines.push(`device MQTT on port ${app.services?.transport.mqttPort}`);
    if (app.services?.tcpAccess) lines.push(`device TCP access (DTUs, Modbus RTU over TCP) on port ${app.services.tcpAccess.server.port}`);
    const tls = app.services?.transport?.mqttsCertificate;
    if (tls) lines.push(`device MQTT over TLS on port ${app.services!.transport!.mqttsPort}, certificate ${tls.certFile} (SHA-256 ${tls.fingerprint256})`);
    const hint = app.firstBootHint?.();
    if (hint) lines.push(hint);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  const stopWatchdog = await announceReady({ healthUrl: healthUrlOf(config.host, listening), brokerListening: Boolean(config.upstream) || app.services?.transport?.mqttPort !== undefined, log: firmwareLog });
  await reopen;
  stopWatchdog();
  return listening;
}

/** What this start runs (firmware-boot.ts); a state that cannot be read or counted runs this binary. */
function plan(config: Config): BootPlan {
  if (config.upstream || process.env[SUPERVISED_ENV] === '1') return { kind: 'here' };
  try {
    return planBoot(firmwarePaths(config.dataDir), firmwareLog, version);
  } catch (err) {
    firmwareLog(`firmware state unusable (${(err as Error).message}); starting this binary`);
    return { kind: 'here' };
  }
}

async function main(): Promise<void> {
  // Sub-commands run instead of the server and exit.
  if (process.argv[2] === 'reset-password') {
    process.exit(await resetPasswordCommand(process.argv.slice(3)));
  }
  // A soft-gateway instance (server/modules/node-red): runs until its supervisor stops it.
  if (process.argv[2] === 'node-red-runtime') {
    await nodeRedRuntimeCommand(process.argv.slice(3));
    return;
  }
  let parsed;
  try {
    parsed = loadConfig(process.argv.slice(2));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`edge-console: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (parsed.help) {
    process.stdout.write(`${helpText(version)}\n`);
    return;
  }
  if (parsed.version) {
    process.stdout.write(`${version}\n`);
    return;
  }
  const { config } = parsed;
  // Each turn runs what the firmware state says: this binary, or an installed one as a child.
  let port = config.port;
  for (;;) {
    const next = plan(config);
    if (next.kind === 'here') {
      port = await serve(config, port);
      if (process.env[SUPERVISED_ENV] === '1') process.exit(EXIT_RESTART_FOR_UPDATE);
      continue;
    }
    const result = await superviseChild({
      ...next,
      args: process.argv.slice(2),
      paths: firmwarePaths(config.dataDir),
      readyTimeoutMs: config.firmwareReadyTimeoutMs,
      healthWindowMs: config.firmwareHealthWindowMs,
      baseVersion: version,
      log: firmwareLog,
      onStopRequest: (stop) => (stopOn = stop),
    });
    if (result.kind === 'exit') process.exit(result.code);
  }
}

main().catch((err: unknown) => {
  // Bad configuration found after parsing (e.g. an unreadable --license-public-key file).
  if (err instanceof ConfigError) {
    process.stderr.write(`edge-console: ${err.message}\n`);
    process.exit(2);
  }
  // The data dir in use, read-only or full: one line naming it, no stack trace.
  if (err instanceof StartError) {
    process.stderr.write(`edge-console: ${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`edge-console: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
