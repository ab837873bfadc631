/** Alarms raised by scenes: one open alarm per (scene, device, type), ack and clear, counts. */
import type { Alarm } from '../../contract/alarm.ts';
import { defineModule } from '../../module.ts';
import { alarmLive } from './alarm-live.ts';
import { registerAlarmRoutes } from './alarm-routes.ts';
import { AlarmService } from './alarm-service.ts';
import m0015 from './migrations/0015-alarm.sql';

declare module '../../module.ts' {
  interface Services {
    alarms: AlarmService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** An alarm was raised, fired again, acknowledged or cleared (`previous`: null when new). */
    'alarm.changed': { alarm: Alarm; previous: Alarm | null };
  }
}

export const alarmModule = defineModule({
  name: 'alarm',
  needs: ['organizations'],
  migrations: [{ name: '0015-alarm', sql: m0015 }],
  apiTags: { alarm: 'Alarms raised by scene linkage: list, detail, acknowledge, clear, counts per organization' },
  build: ({ core, services }) => ({ alarms: new AlarmService({ db: core.db, bus: core.bus, organizations: services.organizations }) }),
  live: alarmLive,
  routes: registerAlarmRoutes,
});
