/** Protocol modules: vendors' Node-RED flow or subflow templates, installed into instances through the node-red module (server/contract/protocol-module.ts). */
import { defineModule } from '../../module.ts';
import { ProtocolModuleRepository } from './protocol-module-repository.ts';
import { registerProtocolModuleRoutes } from './protocol-module-routes.ts';
import { ProtocolModuleService } from './protocol-module-service.ts';
import m0071 from './migrations/0071-protocol-module.sql';

declare module '../../module.ts' {
  interface Services {
    protocolModules: ProtocolModuleService;
  }
}

export const protocolModuleModule = defineModule({
  name: 'protocol-module',
  needs: ['nodeRedSnapshots'],
  migrations: [{ name: '0071-protocol-module', sql: m0071 }],
  apiTags: { 'protocol-module': 'Soft gateway: protocol modules (Node-RED flow and subflow templates) and installing them into instances' },
  build: ({ core, services }) => ({
    protocolModules: new ProtocolModuleService({ repo: new ProtocolModuleRepository(core.db), nodeRed: services.nodeRedSnapshots }),
  }),
  routes: registerProtocolModuleRoutes,
});
