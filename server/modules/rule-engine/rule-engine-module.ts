/**
 * The rule engine: runs enabled scenes on telemetry (after its commit), device events, cron
 * schedules, other scenes and the execute call (rule-engine.ts).
 */
import { defineModule } from '../../module.ts';
import { RuleEngine } from './rule-engine.ts';
import { registerRuleEngineRoutes } from './rule-engine-routes.ts';

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
  routes: registerRuleEngineRoutes,
  start: ({ ruleEngine }) => ruleEngine.start(),
  close: ({ ruleEngine }) => ruleEngine.close(),
});
