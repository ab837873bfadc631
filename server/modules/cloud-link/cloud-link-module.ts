/**
 * The cloud link: the gateway as a ThingsBoard gateway device of the configured cloud
 * (cloud-link-service.ts). Listens to local changes on the bus; reconnects when the cloud
 * configuration is saved.
 */
import { defineModule } from '../../module.ts';
import { cloudLinkLive } from './cloud-link-live.ts';
import { registerCloudLinkRoutes } from './cloud-link-routes.ts';
import { CloudLinkService, type CloudLinkTuning } from './cloud-link-service.ts';
import m0020 from './migrations/0020-cloud-event.sql';
import m0021 from './migrations/0021-cloud-cursor.sql';
import m0036 from './migrations/0036-cloud-progress.sql';
import m0041 from './migrations/0041-event-cursor-sequence.sql';

declare module '../../module.ts' {
  interface Services {
    cloudLink: CloudLinkService;
  }
  interface Tuning {
    cloudLink?: CloudLinkTuning;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** The cloud link's state changed (status, or the backlog and messages sent): EDGE_STATE subscribers read it again. */
    'edge.stateChanged': Record<string, never>;
  }
}

export const cloudLinkModule = defineModule({
  name: 'cloud-link',
  needs: ['cloud', 'license', 'devices', 'telemetry', 'sharedAttributes', 'commands'],
  migrations: [
    { name: '0020-cloud-event', sql: m0020 },
    { name: '0021-cloud-cursor', sql: m0021 },
    { name: '0036-cloud-progress', sql: m0036 },
    { name: '0041-event-cursor-sequence', sql: m0041 },
  ],
  build: ({ core, log, tuning, services }) => {
    const cloudLink = new CloudLinkService({ core, services, log, tuning: tuning.cloudLink ?? {} });
    const { bus } = core;
    cloudLink.onStateChanged(() => bus.emit('edge.stateChanged', {}));
    bus.on('cloud.configured', ({ config }) => cloudLink.configure(config));
    bus.on('device.created', ({ deviceId }) => cloudLink.deviceCreated(deviceId));
    bus.on('device.updated', ({ deviceId }) => cloudLink.deviceUpdated(deviceId));
    bus.on('device.deleted', ({ deviceId }) => cloudLink.deviceDeleted(deviceId));
    bus.on('device.stateChanged', ({ deviceId, state }) => cloudLink.deviceState(deviceId, state === 'ONLINE'));
    bus.on('attributes.updated', ({ deviceId, scope, values }) => {
      if (scope === 'CLIENT_SCOPE') cloudLink.clientAttributes(deviceId, values);
    });
    bus.on('telemetry.stored', ({ deviceId, entries }) => cloudLink.telemetryStored(deviceId, entries));
    bus.on('device.eventReported', () => cloudLink.eventStored());
    bus.on('message.received', () => cloudLink.messageReceived());
    return { cloudLink };
  },
  routes: registerCloudLinkRoutes,
  live: cloudLinkLive,
  start: ({ cloudLink }) => cloudLink.start(),
  close: ({ cloudLink }) => cloudLink.close(),
});
