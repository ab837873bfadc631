/** Live data for the console: ThingsBoard's telemetry websocket protocol on /api/ws. */
import { defineModule } from '../../module.ts';
import { LiveData } from './live-data.ts';
import { LiveHub } from './live-hub.ts';
import { registerRealtimeRoutes } from './realtime-routes.ts';

declare module '../../module.ts' {
  interface Services {
    realtime: LiveHub;
  }
}

export const realtimeModule = defineModule({
  name: 'realtime',
  needs: ['sessions', 'license', 'devices', 'telemetry', 'sharedAttributes', 'alarms', 'notifications', 'deviceScopes', 'cloudLink'],
  build: ({ core, log, services: { sessions, license, devices, telemetry, sharedAttributes, alarms, notifications, deviceScopes, cloudLink } }) => ({
    realtime: new LiveHub({
      bus: core.bus,
      data: new LiveData(telemetry, devices, sharedAttributes, alarms, notifications, (lang) => cloudLink.state(lang)),
      verifyAccessToken: (token) => sessions.verifyAccessToken(token),
      deviceScopeOf: (user) => deviceScopes.scopeOf(user),
      accessTokenExpiresAt: (token) => sessions.accessTokenExpiresAt(token),
      licenseStatus: () => license.status(),
      log,
    }),
  }),
  routes: registerRealtimeRoutes,
  close: ({ realtime }) => realtime.close(),
});
