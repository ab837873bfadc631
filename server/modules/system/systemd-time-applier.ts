/**
 * Clock settings of a systemd host (the NetworkManager applier's hosts): `timedatectl` for the
 * zone, NTP on or off and a hand-set time; the NTP servers in a timesyncd drop-in, which
 * timesyncd reads when restarted.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { SystemTimeBody } from '../../contract/system.ts';
import { hostCommand } from './host-command.ts';
import type { TimeApplier, TimeState } from './time-applier.ts';

/** Where timesyncd reads drop-ins; tests point it at a directory of their own. */
export const timesyncdPaths = { dropInDir: '/etc/systemd/timesyncd.conf.d' };
const dropIn = (): string => `${timesyncdPaths.dropInDir}/edge-console.conf`;

function property(text: string, name: string): string | undefined {
  return new RegExp(`^${name}=(.*)$`, 'm').exec(text)?.[1];
}

export class SystemdTimeApplier implements TimeApplier {
  async read(): Promise<TimeState> {
    const shown = await hostCommand('timedatectl', ['show']);
    let servers: string[] = [];
    try {
      servers = (property(readFileSync(dropIn(), 'utf8'), 'NTP') ?? '').split(/\s+/).filter(Boolean);
    } catch {
      // No drop-in yet: timesyncd uses the distribution's servers.
    }
    return {
      timeZone: property(shown, 'Timezone') || 'UTC',
      ntpEnabled: property(shown, 'NTP') === 'yes',
      ntpServers: servers,
      ntpSynced: property(shown, 'NTPSynchronized') === 'yes',
    };
  }

  async apply(change: SystemTimeBody): Promise<void> {
    await hostCommand('timedatectl', ['set-timezone', change.timeZone]);
    mkdirSync(timesyncdPaths.dropInDir, { recursive: true });
    writeFileSync(dropIn(), `# Written by edge-console (System configuration)\n[Time]\nNTP=${change.ntpServers.join(' ')}\n`);
    await hostCommand('timedatectl', ['set-ntp', change.ntpEnabled ? 'true' : 'false']);
    if (change.ntpEnabled) await hostCommand('systemctl', ['try-restart', 'systemd-timesyncd']);
    else if (change.time !== undefined) await hostCommand('timedatectl', ['set-time', `@${Math.floor(change.time / 1000)}`]);
  }
}
