/**
 * The rule engine: runs enabled scenes on telemetry (after its commit), device events, cron
 * schedules, other scenes and the execute call (rule-engine.ts).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sceneLinkageRoutes } from '../../contract/scene-linkage.ts';
import { defineModule } from '../../module.ts';
import { RuleEngine } from './rule-engine.ts';

declare module '../../module.ts' {
  interface Services {
    ruleEngine: RuleEngine;
  }
}

export const ruleEngineModule = defineModule({
  name: 'rule-engine',
  needs: ['scenes', 'alarms', 'notifications', 'commands', 'devices', 'telemetry', 'deviceScopes'],
  build: ({ core, log, services }) => ({
    ruleEngine: new RuleEngine({
      bus: core.bus,
      log,
      scenes: services.scenes,
      alarms: services.alarms,
      notifications: services.notifications,
      recipientsOf: (organizationId) => services.deviceScopes.usersSeeing(organizationId),
      commands: services.commands,
      devices: services.devices,
      latest: (deviceId, keys) => {
        const values = services.telemetry.timeseries(deviceId, { keys: keys.join(',') });
        return Object.fromEntries(Object.entries(values).map(([key, points]) => [key, points[0]?.value]));
      },
    }),
  }),
  routes: (fastify, { ruleEngine, scenes }) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.route({
      ...sceneLinkageRoutes.execute,
      handler: async (request) => {
        // A customer runs only the scenes they may see (404 for the others, as if missing).
        scenes.getWithin(request.params.id, request.deviceScope);
        return ruleEngine.execute(request.params.id);
      },
    });
  },
  start: ({ ruleEngine }) => ruleEngine.start(),
  close: ({ ruleEngine }) => ruleEngine.close(),
});
