/**
 * The live websocket /api/ws (ThingsBoard's telemetry websocket protocol) as a host: sockets,
 * authentication, scope and limits. The commands are contributed by the modules that own their
 * data (each manifest's `live` entry, server/live.ts); this module imports none of them.
 */
import { defineModule } from '../../module.ts';
import { LiveHost } from './live-host.ts';
import { registerRealtimeRoutes } from './realtime-routes.ts';

declare module '../../module.ts' {
  interface Services {
    realtime: LiveHost;
  }
}

export const realtimeModule = defineModule({
  name: 'realtime',
  needs: ['sessions', 'license', 'devices', 'deviceScopes'],
  build: ({ core, log, liveCommands, services: { sessions, license, devices, deviceScopes } }) => ({
    realtime: new LiveHost({
      bus: core.bus,
      commands: liveCommands,
      verifyAccessToken: (token) => sessions.verifyAccessToken(token),
      deviceScopeOf: (user) => deviceScopes.scopeOf(user),
      devicesWithin: (scope) => devices.within(scope),
      accessTokenExpiresAt: (token) => sessions.accessTokenExpiresAt(token),
      licenseStatus: () => license.status(),
      log,
    }),
  }),
  routes: registerRealtimeRoutes,
  close: ({ realtime }) => realtime.close(),
});
