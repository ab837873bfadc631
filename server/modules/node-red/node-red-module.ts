/**
 * Soft gateway: managed Node-RED instances, each a child process behind the console's sign-in
 * (server/contract/node-red.ts). Without an installed node-red package the module still answers
 * its list; everything needing a runtime says the service is not started.
 */
import { defineModule } from '../../module.ts';
import { findNodeRedDir } from './node-red-launch.ts';
import { NodeRedRepository } from './node-red-repository.ts';
import { registerNodeRedRoutes } from './node-red-routes.ts';
import { NodeRedSecrets } from './node-red-secrets.ts';
import { NodeRedPalette } from './node-red-palette.ts';
import { nodeRedPaletteLive } from './node-red-palette-live.ts';
import { NodeRedService } from './node-red-service.ts';
import { NodeRedSnapshots } from './node-red-snapshots.ts';
import { NodeRedSupervisor } from './node-red-supervisor.ts';
import { NodeRedTickets } from './node-red-tickets.ts';
import m0070 from './migrations/0070-node-red.sql';
import m0076 from './migrations/0076-node-red-expose-http.sql';

declare module '../../module.ts' {
  interface Services {
    nodeRed: NodeRedService;
    nodeRedSnapshots: NodeRedSnapshots;
    nodeRedTickets: NodeRedTickets;
    /** The palette's principal: a running instance's credential, and what it may do. */
    nodeRedPalette: NodeRedPalette;
  }
}

export const nodeRedModule = defineModule({
  name: 'node-red',
  needs: ['portRange', 'telemetry', 'devices', 'products', 'tcpAccess', 'commands', 'alarms'],
  migrations: [
    { name: '0070-node-red', sql: m0070 },
    { name: '0076-node-red-expose-http', sql: m0076 },
  ],
  apiTags: { 'node-red': 'Soft gateway: Node-RED instances, their editor tickets, snapshots and rollback' },
  build: ({ core, log, services, onClose }) => {
    const repo = new NodeRedRepository(core.db);
    const nodeRedDir = findNodeRedDir(core.config.nodeRedDir);
    const secrets = new NodeRedSecrets(core.config.dataDir);
    let supervisor: NodeRedSupervisor | null = null;
    const nodeRedPalette = new NodeRedPalette({
      secrets,
      running: (id) => supervisor?.alive(id) ?? false,
      telemetry: services.telemetry,
      devices: services.devices,
      commands: services.commands,
      alarms: services.alarms,
      instanceName: (id) => repo.get(id)?.name ?? id,
      tcp: services.tcpAccess,
      port: core.config.port,
    });
    supervisor = nodeRedDir ? new NodeRedSupervisor({ nodeRedDir, log, gatewayUrl: () => nodeRedPalette.gatewayUrl() }) : null;
    const running = supervisor;
    if (running) onClose(() => running.stopAll());
    const nodeRedTickets = new NodeRedTickets();
    const nodeRed = new NodeRedService({
      repo,
      supervisor,
      secrets,
      tickets: nodeRedTickets,
      portRange: services.portRange,
      dataDir: core.config.dataDir,
      max: core.config.nodeRedMax,
    });
    return { nodeRed, nodeRedTickets, nodeRedPalette, nodeRedSnapshots: new NodeRedSnapshots({ repo, instances: nodeRed, healthMs: core.config.nodeRedRollbackHealthMs }) };
  },
  live: nodeRedPaletteLive,
  routes: (app, scope) => {
    scope.nodeRedPalette.listensOn(app.server);
    return registerNodeRedRoutes(app, scope);
  },
  start: ({ nodeRed }) => nodeRed.startWanted(),
});
