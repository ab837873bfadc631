/**
 * Clock settings of an OpenWrt gateway through `uci` (system.@system[0].zonename, system.ntp),
 * committed so they survive a reboot, then announced to procd as a `config.change` of `system`
 * (what `reload_config` does: the system and sysntpd services reload on it, as the network
 * applier's packages do); a hand-set time through `date`.
 */
import type { SystemTimeBody } from '../../contract/system.ts';
import { hostCommand } from './host-command.ts';
import type { TimeApplier, TimeState } from './time-applier.ts';

async function uciGet(key: string): Promise<string> {
  try {
    return (await hostCommand('uci', ['-q', 'get', key])).trim();
  } catch {
    return '';
  }
}

export class OpenWrtTimeApplier implements TimeApplier {
  async read(): Promise<TimeState> {
    const [zone, enabled, servers] = await Promise.all([uciGet('system.@system[0].zonename'), uciGet('system.ntp.enabled'), uciGet('system.ntp.server')]);
    return { timeZone: zone || 'UTC', ntpEnabled: enabled !== '0', ntpServers: servers.split(/\s+/).filter(Boolean), ntpSynced: null };
  }

  async apply(change: SystemTimeBody): Promise<void> {
    await hostCommand('uci', ['set', `system.@system[0].zonename=${change.timeZone}`]);
    await hostCommand('uci', ['set', `system.ntp.enabled=${change.ntpEnabled ? '1' : '0'}`]);
    // A missing list is not an error for the delete; a host without the ntp section gets one.
    await hostCommand('uci', ['-q', 'delete', 'system.ntp.server']).catch(() => '');
    for (const server of change.ntpServers) await hostCommand('uci', ['add_list', `system.ntp.server=${server}`]);
    await hostCommand('uci', ['commit', 'system']);
    await hostCommand('ubus', ['call', 'service', 'event', JSON.stringify({ type: 'config.change', data: { package: 'system' } })]);
    if (!change.ntpEnabled && change.time !== undefined) await hostCommand('date', ['-s', `@${Math.floor(change.time / 1000)}`]);
  }
}
