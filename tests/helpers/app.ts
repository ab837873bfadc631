/**
 * One helper to build the app on a fresh temporary data dir and tear it down, plus a small DSL for
 * the steps most tests share (activate, create the administrator, sign in).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { buildApp, type App, type AppOptions } from '../../server/app.ts';
import { defaults, type Config } from '../../server/config.ts';
import { directoryAssets, type AssetSource } from '../../server/lib/assets.ts';
import type { EventBus } from '../../server/lib/event-bus.ts';

export interface TestApp {
  app: App;
  dataDir: string;
  config: Config;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

export function tempDir(prefix = 'edge-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A built console of one page and one hashed script, for apps that serve console files. */
export function consoleFiles(): AssetSource | null {
  const dir = tempDir('edge-web-');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(dir, 'assets', 'main-AB12CD34.js'), 'console.log(1)');
  return directoryAssets(dir);
}

/** Builds the app on a new data dir; closed and deleted after the test. */
export async function makeApp(
  overrides: Partial<Config> & { embeddedLicenseKeys?: string[]; bus?: EventBus; tuning?: AppOptions['tuning']; logger?: AppOptions['logger']; assets?: AppOptions['assets'] } = {},
): Promise<TestApp> {
  const { embeddedLicenseKeys, bus, tuning, logger, assets, ...configOverrides } = overrides;
  const dataDir = configOverrides.dataDir ?? tempDir();
  // Every batch committed at once unless a test asks for the flash commit budget: tests publish one
  // message after another, which the budget deliberately paces (tests of the policy set it, and the
  // crash test runs the real binary's defaults).
  const config: Config = { ...defaults, port: 0, mqttPort: 0, mqttsPort: 0, tcpPort: 0, deviceSn: 'TEST-SN-0001', commitIntervalMs: 0, ...configOverrides, dataDir };
  const app = await buildApp({ config, version: '0.0.0-test', embeddedLicenseKeys: embeddedLicenseKeys ?? [], bus, tuning, logger, assets });
  cleanups.push(async () => { await app.close(); });
  return { app, dataDir, config };
}
