/**
 * Module services over a second connection to a test app's database, composed exactly as the app
 * composes them: what server-side callers without an HTTP route use (the MQTT transport's
 * `credentials.authenticate`, another module's cached thing models).
 */
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { edgeModules, migrations } from '../../server/app.ts';
import type { Core } from '../../server/core.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { EventBus } from '../../server/lib/event-bus.ts';
import { Composition, type Services } from '../../server/module.ts';
import type { TestApp } from './app.ts';
import { testLicenseKeys } from './license.ts';

const closers: (() => void)[] = [];
afterEach(() => {
  while (closers.length) closers.pop()!();
});

const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {}, trace: () => {}, fatal: () => {}, child: () => silent, level: 'silent' };

/**
 * The services of the named modules (they must be listed so that each one's needs come first).
 * The database, the bus and the configuration are the app's; the shared test licence key is
 * trusted, as makeProvisionedApp's apps trust it. Modules that need more of the core are not for this.
 */
export function moduleServices(t: TestApp, names: readonly string[], bus = new EventBus()): Services {
  const db = openDatabase(join(t.dataDir, 'edge.db'), migrations);
  closers.push(() => db.close());
  const core = { db, bus, config: t.config, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] } as Partial<Core> as Core;
  const modules = edgeModules.filter((m) => names.includes(m.name));
  const composed = new Composition(modules, { core, log: silent as never, tuning: {} });
  closers.push(() => void composed.close());
  return composed.services as Services;
}

/** Organizations, categories, products and devices with their credentials, import and batches (held to the licence). */
export function deviceServicesOf(t: TestApp, bus = new EventBus()): Services {
  return moduleServices(t, ['license', 'organization', 'category', 'product', 'device'], bus);
}
