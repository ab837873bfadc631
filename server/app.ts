/**
 * buildApp(): the whole HTTP application as a Fastify instance that tests build too. Process
 * concerns (signals, listening, printing the setup code) live in main.ts.
 *
 * Embedded mode opens the database and composes the edge-core modules of `edgeModules`, in that
 * order (docs/ARCHITECTURE.md). Proxy mode (`--upstream`) builds none of it: /api and /api/ws go to
 * the upstream, and only the console files and GET /api/health stay local.
 */
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Core } from './core.ts';
import { EventBus } from './lib/event-bus.ts';
import { DATABASE_FILE, openDataDir } from './lib/data-dir.ts';
import { DatabaseFileWatch } from './lib/database-file-watch.ts';
import databaseLostPlugin from './plugins/database-lost.ts';
import type { AssetSource } from './lib/assets.ts';
import { lazySchemaController } from './lib/lazy-schema-compilers.ts';
import { Composition, migrationsOf, type EdgeModule, type Services, type Tuning } from './module.ts';
import errorsPlugin from './plugins/errors.ts';
import httpGuardPlugin, { httpLimits, httpServerOptions } from './plugins/http-guard.ts';
import { RequestLog } from './plugins/request-log.ts';
import apiHeadersPlugin from './plugins/api-headers.ts';
import dateInputPlugin from './plugins/date-input.ts';
import accessPlugin from './plugins/access.ts';
import secretsPlugin from './plugins/secrets.ts';
import openapiPlugin from './plugins/openapi.ts';
import staticPlugin from './plugins/static.ts';
import proxyPlugin from './plugins/proxy.ts';
import { healthModule } from './modules/platform/health-routes.ts';
import { platformModule } from './modules/platform/platform-module.ts';
import { operationModule } from './modules/operation/operation-module.ts';
import { authModule } from './modules/auth/auth-module.ts';
import { userModule } from './modules/user/user-module.ts';
import { ossModule } from './modules/oss/oss-module.ts';
import { licenseModule } from './modules/license/license-module.ts';
import { cloudModule } from './modules/cloud/cloud-module.ts';
import { setupModule } from './modules/setup/setup-module.ts';
import { organizationModule } from './modules/organization/organization-module.ts';
import { cloudAccountModule } from './modules/cloud-account/cloud-account-module.ts';
import { categoryModule } from './modules/category/category-module.ts';
import { productModule } from './modules/product/product-module.ts';
import { deviceModule } from './modules/device/device-module.ts';
import { userAdminModule } from './modules/user-admin/user-admin-module.ts';
import { thingModelModule } from './modules/thing-model/thing-model-module.ts';
import { telemetryModule } from './modules/telemetry/telemetry-module.ts';
import { transportModule } from './modules/transport/transport-module.ts';
import { commandModule } from './modules/command/command-module.ts';
import { tcpDeviceModule } from './modules/tcp-device/tcp-device-module.ts';
import { modbusModule } from './modules/modbus/modbus-module.ts';
import { eventRecordModule } from './modules/event-record/event-record-module.ts';
import { alarmModule } from './modules/alarm/alarm-module.ts';
import { notificationModule } from './modules/notification/notification-module.ts';
import { sceneLinkageModule } from './modules/scene-linkage/scene-linkage-module.ts';
import { ruleEngineModule } from './modules/rule-engine/rule-engine-module.ts';
import { workbenchModule } from './modules/workbench/workbench-module.ts';
import { realtimeModule } from './modules/realtime/realtime-module.ts';
import { cloudLinkModule } from './modules/cloud-link/cloud-link-module.ts';
import { apiUsageModule } from './modules/api-usage/api-usage-module.ts';
import { menuModule } from './modules/menu/menu-module.ts';
import { mapModule } from './modules/map/map-module.ts';
import { networkModule } from './modules/network/network-module.ts';
import { visualizationModule } from './modules/visualization/visualization-module.ts';
import { reportModule } from './modules/report/report-module.ts';
import { noticeModule } from './modules/notice/notice-module.ts';
import { auditLogModule } from './modules/audit-log/audit-log-module.ts';
import { portRangeModule } from './modules/port-range/port-range-module.ts';
import { nodeRedModule } from './modules/node-red/node-red-module.ts';
import { protocolModuleModule } from './modules/protocol-module/protocol-module-module.ts';
import websocket from '@fastify/websocket';
import { WS_MAX_MESSAGE_BYTES } from './contract/realtime.ts';
import { firmwareModule } from './modules/firmware/firmware-module.ts';
import { otaModule } from './modules/ota/ota-module.ts';
import { systemModule } from './modules/system/system-module.ts';
import auditHooks from './modules/audit-log/audit-hooks.ts';
import { videoModule } from './modules/video/video-module.ts';

/**
 * Every edge-core module, in the order they are built, get their routes and start; they close in
 * the reverse order. A module comes after the modules whose services it needs.
 */
export const edgeModules: readonly EdgeModule[] = [
  platformModule,
  authModule,
  userModule,
  ossModule,
  licenseModule,
  cloudModule,
  setupModule,
  organizationModule,
  categoryModule,
  productModule,
  deviceModule,
  userAdminModule,
  cloudAccountModule,
  thingModelModule,
  telemetryModule,
  transportModule,
  commandModule,
  tcpDeviceModule,
  modbusModule,
  eventRecordModule,
  alarmModule,
  notificationModule,
  sceneLinkageModule,
  ruleEngineModule,
  workbenchModule,
  cloudLinkModule,
  realtimeModule,
  apiUsageModule,
  menuModule,
  mapModule,
  networkModule,
  noticeModule,
  visualizationModule,
  reportModule,
  auditLogModule,
  portRangeModule,
  // Its editor's websocket reaches the proxy through the websocket plugin registered on the root (below).
  nodeRedModule,
  protocolModuleModule,
  videoModule,
  firmwareModule,
  otaModule,
  systemModule,
  operationModule,
];

/** Every migration of every module, in number order: what a database of this version has applied. */
export const migrations = migrationsOf(edgeModules);

export interface AppOptions {
  config: Config;
  version?: string;
  /** Pino options, or false for tests. */
  logger?: FastifyServerOptions['logger'];
  /** Where the console's built files come from (SEA assets, dist/web, or none in API tests). */
  assets?: AssetSource | null;
  /** Licence public keys (PEM) trusted without a flag: the ones embedded at build time. */
  embeddedLicenseKeys?: string[];
  /** Firmware signing public keys (PEM) trusted without a flag: the ones embedded at build time. */
  embeddedFirmwareKeys?: string[];
  /** The in-process event bus; tests pass their own to watch or inject events. */
  bus?: EventBus;
  /** Transport and telemetry timings; tests shorten the HTTP inactivity timeout. */
  tuning?: Tuning;
  /**
   * What the process does after a factory reset was recorded: main.ts closes this app and builds a
   * new one on the same data dir and port. Without it the app only closes, and the reset is carried
   * out at the next start.
   */
  restart?: () => void;
}

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    /** A line for the start-up banner while the gateway awaits activation, else null. */
    firstBootHint: () => string | null;
    /** Embedded mode only: every module's services by name (tests and main.ts read ports and counters). */
    services?: Partial<Services>;
  }
}

/** Request bodies beyond this are refused with 413 (uploads have their own 5 MB limit). */
const BODY_LIMIT = 1024 * 1024;

export async function buildApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const version = options.version ?? '0.0.0-dev';
  const limits = httpLimits(options.tuning?.http);
  const app = Fastify({
    logger: options.logger ?? false,
    // One line per request, at debug unless slow or failed.
    logController: new RequestLog(limits.slowRequestMs),
    ...httpServerOptions(limits),
    bodyLimit: BODY_LIMIT,
    // Rate limits key on the socket address; X-Forwarded-For is believed only from the proxies
    // named by --trusted-proxy (none by default), whose own appended entry a client cannot forge.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    // Route schemas compile on first use: compiling them all up front dominated the cold start.
    schemaController: lazySchemaController(),
    // Fastify's ajv defaults (removeAdditional, coerceTypes, useDefaults) strip unknown fields,
    // coerce query strings and apply schema defaults.
  }).withTypeProvider<TypeBoxTypeProvider>();

  const apiTags: Record<string, string> = {};
  await app.register(errorsPlugin);
  await app.register(httpGuardPlugin, limits);
  await app.register(apiHeadersPlugin);
  await app.register(dateInputPlugin);
  await app.register(openapiPlugin, { version, docs: !config.upstream, tags: apiTags });
  await app.register(healthModule, { version, mode: config.upstream ? 'proxy' : 'embedded' });

  let guideRedirect: () => boolean = () => false;
  let imageOrigins: () => readonly string[] = () => [];
  if (config.upstream) {
    await app.register(proxyPlugin, { upstream: config.upstream });
    app.decorate('firstBootHint', () => null);
  } else {
    // One process per data dir; an unusable one stops here with a StartError naming it.
    const dataDir = openDataDir(config.dataDir, migrations);
    const bus = options.bus ?? new EventBus();
    bus.useLogger(app.log);
    const databaseFile = new DatabaseFileWatch({ file: join(config.dataDir, DATABASE_FILE), db: dataDir.db, log: app.log, announce: bus.emit.bind(bus), options: options.tuning?.databaseFile });
    const core: Core = {
      config,
      db: dataDir.db,
      databaseFile,
      bus,
      secrets: dataDir.secrets,
      version,
      embeddedLicenseKeys: options.embeddedLicenseKeys ?? [],
      embeddedFirmwareKeys: options.embeddedFirmwareKeys ?? [],
      factoryReset: dataDir.factoryReset,
      restart: options.restart ?? (() => void app.close()),
    };
    app.addHook('onClose', async () => {
      databaseFile.stop();
      dataDir.close();
    });

    const modules = new Composition(edgeModules, { core, log: app.log, tuning: options.tuning ?? {} });
    // Registered after the database's hook, so it runs first: modules close (devices go OFFLINE,
    // queued telemetry is committed) while the database is still open.
    app.addHook('onClose', async () => modules.close());
    const { accounts, sessions, license, deviceScopes, nodeRedPalette } = modules.services as Services;
    Object.assign(apiTags, modules.apiTags());
    await app.register(accessPlugin, {
      setupCode: core.secrets.setupCode,
      services: {
        verifyAccessToken: (token) => sessions.verifyAccessToken(token),
        licenseStatus: () => license.status(),
        adminExists: () => accounts.adminExists(),
        deviceScopeOf: (user) => deviceScopes.scopeOf(user),
        deviceVisible: (scope, deviceId) => deviceScopes.visible(scope, deviceId),
        productScopeOf: (scope) => deviceScopes.productScopeOf(scope),
        nodeRedInstanceOf: (header, addresses) => nodeRedPalette?.instanceOf(header, addresses) ?? null,
      },
    });
    // After the access hook: a caller learns that the database is gone only once signed in.
    await app.register(databaseLostPlugin, { watch: databaseFile });
    // Before the modules' routes: every route whose answer names a credential is redacted per role.
    await app.register(secretsPlugin);
    // On the root instance, before the modules' routes, so every route of every module is audited.
    const { auditLog } = modules.services as Services;
    await app.register(auditHooks, { record: (entry) => auditLog.record(entry) });
    // Once on the root: each registration would route every upgrade again (the live /api/ws and
    // the video previews both take websockets).
    await app.register(websocket, { options: { maxPayload: WS_MAX_MESSAGE_BYTES } });
    await modules.registerRoutes(app);
    await modules.start();
    databaseFile.start();
    app.decorate('services', modules.services);
    guideRedirect = () => license.status() === 'MISSING';
    const { mapSettings } = modules.services as Services;
    imageOrigins = () => mapSettings.imageOrigins();
    app.decorate('firstBootHint', () =>
      accounts.adminExists()
        ? null
        : `first boot: setup code ${core.secrets.setupCode} (also in ${join(config.dataDir, 'setup-code')}); open /guide to activate`,
    );
  }

  await app.register(staticPlugin, { assets: options.assets ?? null, guideRedirect, imageOrigins });
  return app;
}
