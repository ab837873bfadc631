/**
 * buildApp(): the whole HTTP application as a Fastify instance that tests build too. Process
 * concerns (signals, listening, printing the setup code) live in main.ts.
 *
 * Embedded mode builds the edge core (SQLite, secrets, services) and registers the modules.
 * Proxy mode (`--upstream`) builds none of it: /api and /api/ws go to the upstream, and only the
 * console files and GET /api/health stay local (DESIGN.md section 1).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Core } from './core.ts';
import { openDatabase } from './db/sqlite.ts';
import { EventBus } from './lib/event-bus.ts';
import { loadSecrets } from './lib/secrets.ts';
import type { AssetSource } from './lib/assets.ts';
import { lazySchemaController } from './lib/lazy-schema-compilers.ts';
import errorsPlugin from './plugins/errors.ts';
import accessPlugin from './plugins/access.ts';
import openapiPlugin from './plugins/openapi.ts';
import staticPlugin from './plugins/static.ts';
import proxyPlugin from './plugins/proxy.ts';
import { healthModule } from './modules/platform/health-routes.ts';
import { platformModule } from './modules/platform/platform-routes.ts';
import { UserRepository } from './modules/user/user-repository.ts';
import { SessionService } from './modules/auth/session-service.ts';
import { authModule } from './modules/auth/auth-routes.ts';
import { userModule } from './modules/user/user-routes.ts';
import { ossModule } from './modules/oss/oss-routes.ts';
import { LicenseService } from './modules/license/license-service.ts';
import { licenseModule } from './modules/license/license-routes.ts';
import { setupModule } from './modules/setup/setup-routes.ts';
import { createDeviceManagement, type DeviceManagement } from './modules/device/device-management.ts';
import { organizationModule } from './modules/organization/organization-routes.ts';
import { categoryModule } from './modules/category/category-routes.ts';
import { productModule } from './modules/product/product-routes.ts';
import { deviceModule } from './modules/device/device-routes.ts';
import { createThingModels, type ThingModelService } from './modules/thing-model/thing-model-service.ts';
import { thingModelModule } from './modules/thing-model/thing-model-routes.ts';
import { workbenchModule } from './modules/workbench/workbench-routes.ts';
import { commandModule } from './modules/command/command-routes.ts';
import { commandModelChecks } from './modules/command/command-model-checks.ts';
import { eventRecordModule } from './modules/event-record/event-record-routes.ts';
import { realtimeModule } from './modules/realtime/realtime-routes.ts';
import { thingModelChecks } from './modules/telemetry/model-checks.ts';
import { createTelemetry } from './modules/telemetry/telemetry.ts';
import { telemetryModule } from './modules/telemetry/telemetry-routes.ts';
import type { TelemetryService } from './modules/telemetry/telemetry-service.ts';
import type { WriterOptions } from './modules/telemetry/telemetry-writer.ts';
import { DeviceTransport, type TransportOptions } from './modules/transport/transport.ts';
import { deviceApiModule } from './modules/transport/device-api-routes.ts';

export interface AppOptions {
  config: Config;
  version?: string;
  /** Pino options, or false for tests. */
  logger?: FastifyServerOptions['logger'];
  /** Where the console's built files come from (SEA assets, dist/web, or none in API tests). */
  assets?: AssetSource | null;
  /** Licence public keys (PEM) trusted without a flag: the ones embedded at build time. */
  embeddedLicenseKeys?: string[];
  /** The in-process event bus; tests pass their own to watch or inject events. */
  bus?: EventBus;
  /** Transport and telemetry timings; tests shorten the HTTP inactivity timeout. */
  tuning?: TransportOptions & { writer?: Partial<WriterOptions> };
}

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    /** A line for the start-up banner while the gateway awaits activation, else null. */
    firstBootHint: () => string | null;
    /** Embedded mode only: the device transport (bound MQTT port, RPC, state, counters). */
    transport?: DeviceTransport;
    /** Embedded mode only: telemetry storage and queries (retention runs on demand through it). */
    telemetry?: TelemetryService;
  }
}

/** Request bodies beyond this are refused with 413 (uploads have their own 5 MB limit). */
const BODY_LIMIT = 1024 * 1024;

export async function buildApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const version = options.version ?? '0.0.0-dev';
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    // Gateways sit on a LAN; rate limits key on the socket address, never a spoofable header.
    trustProxy: false,
    // Route schemas compile on first use: compiling them all up front dominated the cold start.
    schemaController: lazySchemaController(),
    // Fastify's ajv defaults (removeAdditional, coerceTypes, useDefaults) strip unknown fields,
    // coerce query strings and apply schema defaults.
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(errorsPlugin);
  await app.register(openapiPlugin, { version, docs: !config.upstream });
  await app.register(healthModule, { version, mode: config.upstream ? 'proxy' : 'embedded' });

  let guideRedirect: () => boolean = () => false;
  if (config.upstream) {
    await app.register(proxyPlugin, { upstream: config.upstream });
    app.decorate('firstBootHint', () => null);
  } else {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    const core: Core = {
      config,
      db: openDatabase(join(config.dataDir, 'edge.db')),
      bus: options.bus ?? new EventBus(),
      secrets: loadSecrets(config.dataDir),
      version,
      embeddedLicenseKeys: options.embeddedLicenseKeys ?? [],
    };
    app.addHook('onClose', async () => core.db.close());

    const users = new UserRepository(core.db);
    const sessions = new SessionService(core, users);
    const license = new LicenseService(core);
    await app.register(accessPlugin, {
      setupCode: core.secrets.setupCode,
      services: {
        verifyAccessToken: (token) => sessions.verifyAccessToken(token),
        licenseStatus: () => license.status(),
        adminExists: () => users.adminExists(),
      },
    });
    const devices = createDeviceManagement(core);
    const thingModels = createThingModels(core, devices);
    const telemetry = createTelemetry({ core, devices, checks: thingModelChecks(thingModels), log: app.log, writer: options.tuning?.writer });
    const transport = await DeviceTransport.start({ core, devices, telemetry: telemetry.service, log: app.log, options: options.tuning });
    // Runs before the database closes (onClose hooks run last-registered first): sessions end
    // (devices go OFFLINE) and queued telemetry is committed.
    app.addHook('onClose', async () => {
      await transport.close();
      telemetry.close();
    });
    app.decorate('transport', transport);
    app.decorate('telemetry', telemetry.service);
    const deps = { core, users, sessions, license, devices, thingModels, telemetry: telemetry.service, transport };
    await app.register(platformModule, deps);
    await app.register(authModule, deps);
    await app.register(userModule, deps);
    await app.register(ossModule, deps);
    await app.register(licenseModule, deps);
    await app.register(setupModule, deps);
    await app.register(organizationModule, deps);
    await app.register(categoryModule, deps);
    await app.register(productModule, deps);
    await app.register(deviceModule, deps);
    await app.register(thingModelModule, deps);
    await app.register(workbenchModule, deps);
    await app.register(commandModule, { ...deps, models: commandModelChecks(thingModels) });
    await app.register(eventRecordModule, deps);
    await app.register(realtimeModule, deps);
    await app.register(telemetryModule, deps);
    await app.register(deviceApiModule, deps);
    guideRedirect = () => license.status() === 'MISSING';
    app.decorate('firstBootHint', () =>
      users.adminExists()
        ? null
        : `first boot: setup code ${core.secrets.setupCode} (also in ${join(config.dataDir, 'setup-code')}); open /guide to activate`,
    );
  }

  await app.register(staticPlugin, { assets: options.assets ?? null, guideRedirect });
  return app;
}

/** What every embedded module receives: the core and the services other modules share. */
export interface ModuleDeps {
  core: Core;
  users: UserRepository;
  sessions: SessionService;
  license: LicenseService;
  /** Organizations, categories, products, devices, credentials, import and batch generation. */
  devices: DeviceManagement;
  /** Thing models: draft items, publication, TSL, and the published model devices are checked against. */
  thingModels: ThingModelService;
  /** Telemetry storage (batched writer), history queries, retention. */
  telemetry: TelemetryService;
  /** Device MQTT broker and HTTP device API: who is online, server RPC. */
  transport: DeviceTransport;
}
