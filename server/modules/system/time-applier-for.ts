/**
 * Where the gateway's clock settings go, chosen by `--network-applier` like the network's: `file`
 * records them in `<data-dir>/network/time.json` and touches nothing on the host (the default,
 * what development machines and tests use), `networkmanager` hosts are systemd hosts
 * (`timedatectl`, timesyncd), `openwrt` uses `uci`.
 */
import type { NetworkApplier } from '../../contract/system.ts';
import { FileTimeApplier } from './file-time-applier.ts';
import { OpenWrtTimeApplier } from './openwrt-time-applier.ts';
import { SystemdTimeApplier } from './systemd-time-applier.ts';
import type { TimeApplier } from './time-applier.ts';

export function timeApplierFor(kind: NetworkApplier, dataDir: string): TimeApplier {
  if (kind === 'networkmanager') return new SystemdTimeApplier();
  if (kind === 'openwrt') return new OpenWrtTimeApplier();
  return new FileTimeApplier(dataDir);
}
