/**
 * Commands to devices (server RPC): sent through the transport, checked against the published
 * thing model, recorded with their status until answered or timed out.
 */
import type { Command } from '../../contract/command.ts';
import { defineModule } from '../../module.ts';
import { commandLive } from './command-live.ts';
import { commandModelChecks } from './command-model-checks.ts';
import { registerCommandRoutes } from './command-routes.ts';
import { CommandService } from './command-service.ts';
import m0006 from './migrations/0006-command.sql';
import m0008 from './migrations/0008-command-delivered.sql';
import m0018 from './migrations/0018-command-source.sql';

declare module '../../module.ts' {
  interface Services {
    commands: CommandService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A command record was created or its status changed (pushed to the device's command list). */
    'command.changed': { deviceId: string; command: Command };
  }
}

export const commandModule = defineModule({
  name: 'command',
  needs: ['devices', 'thingModels', 'transport'],
  migrations: [
    { name: '0006-command', sql: m0006 },
    { name: '0008-command-delivered', sql: m0008 },
    { name: '0018-command-source', sql: m0018 },
  ],
  apiTags: { command: 'Commands to devices (server RPC): delivery records with status, reboot; live data is on the /api/ws websocket' },
  build: ({ core, log, services }) => ({
    commands: new CommandService({
      db: core.db,
      bus: core.bus,
      devices: services.devices,
      transport: services.transport,
      models: commandModelChecks(services.thingModels),
      log,
    }),
  }),
  routes: registerCommandRoutes,
  live: commandLive,
  close: ({ commands }) => commands.close(),
});
