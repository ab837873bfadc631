/**
 * Network configuration: the LAN, WAN, WiFi and 4G settings, applied by the applier of
 * `--network-applier` under the safe apply of network-service.ts. Its state lives in
 * `<data-dir>/network/` (files, not tables: the pending apply must survive a power cut in the
 * middle of an apply and be read before anything else at start).
 */
import { join } from 'node:path';
import { defineModule } from '../../module.ts';
import { ApplyJournal } from './apply-journal.ts';
import { makeApplier } from './appliers.ts';
import { registerNetworkRoutes } from './network-routes.ts';
import { NetworkService } from './network-service.ts';

declare module '../../module.ts' {
  interface Services {
    network: NetworkService;
  }
}

export const networkModule = defineModule({
  name: 'network',
  needs: [],
  apiTags: { network: 'LAN, WAN, WiFi and 4G settings under a safe apply: plan, apply, confirm or automatic rollback' },
  build: ({ core, log }) => {
    const dir = join(core.config.dataDir, 'network');
    return { network: new NetworkService({ applier: makeApplier(core.config.networkApplier, dir), journal: new ApplyJournal(dir), log }) };
  },
  routes: registerNetworkRoutes,
  start: ({ network }) => network.recover(),
  close: ({ network }) => network.close(),
});
