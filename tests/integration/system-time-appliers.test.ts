/**
 * The clock settings over HTTP on a systemd host (`--network-applier networkmanager`: timedatectl
 * and timesyncd) and on OpenWrt (uci), the host tools faked at the process boundary by stubs on
 * PATH that record their arguments. The timesyncd drop-in goes to a directory of the test's own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemRoutes, type SystemInfo } from '../../server/contract/system.ts';
import { timesyncdPaths } from '../../server/modules/system/systemd-time-applier.ts';
import { tempDir } from '../helpers/app.ts';
import { ContractClient } from '../helpers/devices.ts';
import { installOpenWrtStub } from '../helpers/openwrt-stub.ts';
import { installRecordingStubs } from '../helpers/recording-stub.ts';
import { signIn } from '../helpers/session.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';
import type { NetworkApplierName } from '../../server/contract/network.ts';

/** `timedatectl show` of a Debian host in Shanghai whose clock is synchronised. */
const timedatectlShow = 'Timezone=Asia/Shanghai\nLocalRTC=no\nCanNTP=yes\nNTP=yes\nNTPSynchronized=yes\nTimeUSec=Sat 2026-11-28 10:00:00 CST\nRTCTimeUSec=Sat 2026-11-28 10:00:00 CST\n';

const realDropInDir = timesyncdPaths.dropInDir;
afterEach(() => {
  timesyncdPaths.dropInDir = realDropInDir;
});

async function adminOn(networkApplier: NetworkApplierName): Promise<ContractClient> {
  const t = await makeProvisionedApp({ networkApplier });
  const { token } = await signIn(t.app, t.admin.username, t.admin.password);
  return new ContractClient(t.app, token);
}

describe('time settings on a systemd host (timedatectl, timesyncd)', () => {
  it('sets the zone and NTP through timedatectl, writes the servers in a timesyncd drop-in and restarts timesyncd', async () => {
    timesyncdPaths.dropInDir = join(tempDir('edge-timesyncd-'), 'timesyncd.conf.d');
    const stubs = installRecordingStubs({ timedatectl: { show: timedatectlShow }, systemctl: {} });
    const api = await adminOn('networkmanager');
    const res = await api.call(systemRoutes.time, { body: { timeZone: 'Asia/Shanghai', ntpEnabled: true, ntpServers: ['ntp.aliyun.com', '10.0.0.1'] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(stubs.calls()).toEqual(expect.arrayContaining([
      ['timedatectl', 'set-timezone', 'Asia/Shanghai'],
      ['timedatectl', 'set-ntp', 'true'],
      ['systemctl', 'try-restart', 'systemd-timesyncd'],
    ]));
    expect(readFileSync(join(timesyncdPaths.dropInDir, 'edge-console.conf'), 'utf8')).toContain('NTP=ntp.aliyun.com 10.0.0.1\n');
    const info = (await api.call(systemRoutes.info)).json() as SystemInfo;
    expect(info).toMatchObject({ timeZone: 'Asia/Shanghai', ntp: { enabled: true, servers: ['ntp.aliyun.com', '10.0.0.1'], synced: true } });
  });

  it('turns NTP off and sets the time by hand in whole seconds', async () => {
    timesyncdPaths.dropInDir = join(tempDir('edge-timesyncd-'), 'timesyncd.conf.d');
    const stubs = installRecordingStubs({ timedatectl: { show: timedatectlShow }, systemctl: {} });
    const api = await adminOn('networkmanager');
    const time = Date.UTC(2030, 0, 1, 8, 0, 0, 999);
    const res = await api.call(systemRoutes.time, { body: { timeZone: 'UTC', ntpEnabled: false, ntpServers: [], time } });
    expect(res.statusCode, res.body).toBe(200);
    const calls = stubs.calls();
    expect(calls).toContainEqual(['timedatectl', 'set-ntp', 'false']);
    expect(calls).toContainEqual(['timedatectl', 'set-time', `@${Math.floor(time / 1000)}`]);
    expect(calls.some((c) => c[0] === 'systemctl')).toBe(false);
  });
});

describe('time settings on OpenWrt (uci)', () => {
  it('sets the zone and the NTP server list in uci, commits and reloads through procd', async () => {
    const stub = installOpenWrtStub({ 'system.ntp.enabled': '1', 'system.ntp.server': '0.openwrt.pool.ntp.org 1.openwrt.pool.ntp.org' });
    const api = await adminOn('openwrt');
    const res = await api.call(systemRoutes.time, { body: { timeZone: 'Asia/Shanghai', ntpEnabled: true, ntpServers: ['ntp.aliyun.com', '10.0.0.1'] } });
    expect(res.statusCode, res.body).toBe(200);
    const calls = stub.calls();
    expect(calls).toContainEqual(['uci', 'set', 'system.@system[0].zonename=Asia/Shanghai']);
    expect(calls).toContainEqual(['uci', 'add_list', 'system.ntp.server=10.0.0.1']);
    expect(calls).toContainEqual(['uci', 'commit', 'system']);
    expect(calls).toContainEqual(['ubus', 'call', 'service', 'event', '{"type":"config.change","data":{"package":"system"}}']);
    expect(stub.state().get('system.ntp.server')).toBe('ntp.aliyun.com 10.0.0.1');
    const info = (await api.call(systemRoutes.info)).json() as SystemInfo;
    expect(info).toMatchObject({ timeZone: 'Asia/Shanghai', ntp: { enabled: true, servers: ['ntp.aliyun.com', '10.0.0.1'] } });
  });
});
