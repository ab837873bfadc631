/**
 * Process entry: parse configuration, build the app, listen, print how to reach it, close
 * gracefully on SIGINT/SIGTERM. Everything testable lives in app.ts.
 */
import { networkInterfaces } from 'node:os';
import { buildApp, type App } from './app.ts';
import { ConfigError, helpText, loadConfig, type Config } from './config.ts';
import { loadAssets } from './lib/assets.ts';
import { StartError } from './lib/start-error.ts';
import { settleAfterStart, startOldGenerationTrim } from './lib/old-generation-trim.ts';
import { loggerOptions } from './lib/logger-options.ts';
import { droppingLogDestination } from './lib/log-destination.ts';
import { readLicenseKeyFiles } from './modules/license/license-keys.ts';
import { resetPasswordCommand } from './cli/reset-password.ts';

/** Replaced at build time by scripts/build.ts (esbuild `define`). */
declare const EDGE_BUILD_VERSION: string | undefined;
declare const EDGE_BUILD_LICENSE_KEYS: string[] | undefined;

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

async function main(): Promise<void> {
  // Sub-commands run instead of the server and exit.
  if (process.argv[2] === 'reset-password') {
    process.exit(await resetPasswordCommand(process.argv.slice(3)));
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
  const embedded = typeof EDGE_BUILD_LICENSE_KEYS !== 'undefined' ? EDGE_BUILD_LICENSE_KEYS : [];
  const keys = [...embedded, ...readLicenseKeyFiles(config.licensePublicKeys)];

  let app: App;
  let closing = false;
  const build = (): Promise<App> =>
    buildApp({
      config: { ...config },
      version,
      // stdout is often a file on the data disk: a full disk drops log lines instead of freezing or ending the process.
      logger: config.logLevel === 'silent' ? false : { ...loggerOptions(config.logLevel), stream: droppingLogDestination({ fd: 1 }) },
      assets: loadAssets(),
      embeddedLicenseKeys: keys,
      restart: () => void restart(),
    });
  // A factory reset was recorded: close every module and the database, then open the data dir
  // again, which carries the reset out (server/lib/factory-reset.ts), on the same port.
  const restart = async (): Promise<void> => {
    if (closing) return;
    const port = (app.server.address() as { port: number }).port;
    app.log.warn('factory reset recorded: restarting in-process');
    try {
      await app.close();
      app = await build();
      await app.listen({ host: config.host, port });
      printBanner(app, config, port);
    } catch (err) {
      // The service manager restarts the process, and the recorded reset completes at that start.
      process.stderr.write(`edge-console: restart after factory reset failed: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    }
  };

  app = await build();
  const close = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A hung close must not keep the gateway's service manager waiting forever.
    setTimeout(() => process.exit(1), 10_000).unref();
    app.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', () => close('SIGINT'));
  process.on('SIGTERM', () => close('SIGTERM'));

  // The banner below goes through process.stdout, whose write error on a full disk would otherwise be unhandled.
  process.stdout.on('error', () => {});
  await app.listen({ host: config.host, port: config.port });
  // The binary runs with --expose-gc for this (scripts/binary.ts); its timer does not hold the process.
  startOldGenerationTrim();
  settleAfterStart();
  printBanner(app, config, (app.server.address() as { port: number }).port);
}

/** How to reach the gateway, and the setup code while it awaits activation. */
function printBanner(app: App, config: Config, port: number): void {
  const lines = [`edge-console ${version} listening on:`, ...lanUrls(config.host, port).map((u) => `  ${u}`)];
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
