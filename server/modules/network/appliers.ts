/** The applier `--network-applier` names. */
import type { NetworkApplierName } from '../../contract/network.ts';
import { FileApplier } from './file-applier.ts';
import type { NetworkApplier } from './network-applier.ts';
import { NetworkManagerApplier } from './networkmanager-applier.ts';
import { OpenWrtApplier } from './openwrt-applier.ts';

export function makeApplier(name: NetworkApplierName, dir: string): NetworkApplier {
  switch (name) {
    case 'file':
      return new FileApplier(dir);
    case 'openwrt':
      return new OpenWrtApplier();
    case 'networkmanager':
      return new NetworkManagerApplier();
  }
}
