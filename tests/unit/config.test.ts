import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaults, helpText, loadConfig } from '../../server/config.ts';
import { tempDir } from '../helpers/app.ts';

function configFile(content: unknown): string {
  const file = join(tempDir(), 'edge.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('configuration', () => {
  it('uses the defaults of the README configuration table when nothing is given', () => {
    const { config } = loadConfig([], {});
    expect(config).toEqual({ ...defaults, dataDir: resolve(defaults.dataDir) });
    expect(config).toMatchObject({ host: '0.0.0.0', port: 8080, mqttPort: 1883, upstream: null, logLevel: 'info' });
  });

  it('takes a flag over the environment, the environment over the file, the file over the defaults', () => {
    const file = configFile({ port: 7000, mqttPort: 7883, host: '10.0.0.1', logLevel: 'warn' });
    const env = { EDGE_CONFIG: file, EDGE_PORT: '9000', EDGE_MQTT_PORT: '9883' };
    const { config } = loadConfig(['--port', '9100'], env);
    expect(config.port).toBe(9100); // flag
    expect(config.mqttPort).toBe(9883); // env
    expect(config.host).toBe('10.0.0.1'); // file
    expect(config.logLevel).toBe('warn'); // file
    expect(config.deviceSn).toBeNull(); // default
  });

  it('reads every README configuration flag, in both --flag value and --flag=value forms', () => {
    const { config } = loadConfig(
      [
        '--host', '127.0.0.1', '--port=8081', '--data-dir', '/tmp/edge-data', '--mqtt-port', '1884', '--tcp-port=8901',
        '--upstream', 'http://10.0.0.2:8080', '--license-public-key', 'a.pem', '--license-public-key=b.pem',
        '--device-sn', 'SN-1', '--log-level', 'debug', '--trusted-proxy', '10.0.0.2', '--trusted-proxy=fd00::/8,192.168.1.0/24',
        '--history-max-mb', '512', '--min-free-disk-mb=128', '--cloud-offline-days', '7',
        '--commit-interval-ms', '1000', '--commit-burst=2', '--commit-batch', '512', '--network-applier', 'openwrt',
        '--node-red-dir', '/opt/node-red', '--node-red-max=5',
        '--ffmpeg-dir', '/opt/ffmpeg/bin', '--video-max-streams=2', '--report-disk-mb', '200',
        '--firmware-public-key', 'fw.pem', '--firmware-ready-timeout-ms=5000', '--firmware-health-window-ms', '60000',
      ],
      {},
    );
    expect(config).toEqual({
      host: '127.0.0.1',
      port: 8081,
      dataDir: '/tmp/edge-data',
      mqttPort: 1884,
      tcpPort: 8901,
      mqttsPort: 8883,
      mqttsCert: null,
      mqttsKey: null,
      upstream: 'http://10.0.0.2:8080',
      licensePublicKeys: ['a.pem', 'b.pem'],
      firmwarePublicKeys: ['fw.pem'],
      firmwareReadyTimeoutMs: 5000,
      firmwareHealthWindowMs: 60000,
      deviceSn: 'SN-1',
      logLevel: 'debug',
      trustedProxies: ['10.0.0.2', 'fd00::/8', '192.168.1.0/24'],
      historyMaxMb: 512,
      minFreeDiskMb: 128,
      cloudOfflineDays: 7,
      commitIntervalMs: 1000,
      commitBurst: 2,
      networkApplier: 'openwrt',
      commitBatch: 512,
      nodeRedDir: '/opt/node-red',
      nodeRedMax: 5,
      nodeRedRollbackHealthMs: 60_000,
      ffmpegDir: '/opt/ffmpeg/bin',
      videoMaxStreams: 2,
      reportDiskMb: 200,
    });
  });

  it('takes the commit policy within its ranges, 0 ms committing every batch at once', () => {
    expect(loadConfig([], {}).config).toMatchObject({ commitIntervalMs: 400, commitBurst: 4, commitBatch: 256 });
    expect(loadConfig(['--commit-interval-ms', '0'], {}).config.commitIntervalMs).toBe(0);
    expect(loadConfig([], { EDGE_COMMIT_INTERVAL_MS: '5000', EDGE_COMMIT_BURST: '100', EDGE_COMMIT_BATCH: '1' }).config).toMatchObject({ commitIntervalMs: 5000, commitBurst: 100, commitBatch: 1 });
  });

  it('refuses a commit policy out of range or not a whole number, saying which flag and what it takes', () => {
    expect(() => loadConfig(['--commit-interval-ms', '5001'], {})).toThrow('--commit-interval-ms: expected a whole number from 0 to 5000 ms, not 5001');
    expect(() => loadConfig(['--commit-interval-ms', '-1'], {})).toThrow('--commit-interval-ms: expected a whole number from 0 to 5000 ms, not -1');
    expect(() => loadConfig(['--commit-interval-ms', '2.5'], {})).toThrow(/--commit-interval-ms: expected a whole number from 0 to 5000 ms/);
    expect(() => loadConfig(['--commit-burst', '0'], {})).toThrow('--commit-burst: expected a whole number from 1 to 100, not 0');
    expect(() => loadConfig([], { EDGE_COMMIT_BATCH: '4097' })).toThrow('--commit-batch: expected a whole number from 1 to 4096, not 4097');
    expect(() => loadConfig(['--config', configFile({ commitBurst: 101 })], {})).toThrow('--commit-burst: expected a whole number from 1 to 100, not 101');
  });

  it('applies network settings to a file by default and refuses an applier it does not have', () => {
    expect(loadConfig([], {}).config.networkApplier).toBe('file');
    expect(loadConfig([], { EDGE_NETWORK_APPLIER: 'networkmanager' }).config.networkApplier).toBe('networkmanager');
    expect(() => loadConfig(['--network-applier', 'ifupdown'], {})).toThrow('--network-applier: expected one of file, networkmanager, openwrt, not ifupdown');
  });

  it('has no database size cap and a 64 MB free-disk floor by default, takes off for no cap, and refuses sizes that are not whole MB', () => {
    expect(loadConfig([], {}).config).toMatchObject({ historyMaxMb: null, minFreeDiskMb: 64 });
    expect(loadConfig(['--history-max-mb', 'off'], { EDGE_HISTORY_MAX_MB: '100' }).config.historyMaxMb).toBeNull();
    expect(loadConfig([], { EDGE_HISTORY_MAX_MB: '100', EDGE_MIN_FREE_DISK_MB: '0' }).config).toMatchObject({ historyMaxMb: 100, minFreeDiskMb: 0 });
    expect(() => loadConfig(['--history-max-mb', '1.5'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--min-free-disk-mb', 'off'], {})).toThrow(/--min-free-disk-mb: not a whole number of MB/);
    expect(() => loadConfig(['--min-free-disk-mb', '-3'], {})).toThrow(ConfigError);
  });

  it('reads EDGE_* variables, with a comma-separated list of licence keys', () => {
    const { config } = loadConfig([], { EDGE_DATA_DIR: '/srv/edge', EDGE_LICENSE_PUBLIC_KEY: 'a.pem, b.pem', EDGE_DEVICE_SN: 'SN-2' });
    expect(config).toMatchObject({ dataDir: '/srv/edge', licensePublicKeys: ['a.pem', 'b.pem'], deviceSn: 'SN-2' });
  });

  it('recognises --help and --version', () => {
    expect(loadConfig(['--help'], {})).toMatchObject({ help: true, version: false });
    expect(loadConfig(['--version'], {})).toMatchObject({ help: false, version: true });
  });

  it('refuses an unknown flag, naming it', () => {
    expect(() => loadConfig(['--prot', '80'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--prot', '80'], {})).toThrow(/--prot/);
  });

  it('refuses a port that is not a number or out of range, from a flag or the environment', () => {
    expect(() => loadConfig(['--port', 'abc'], {})).toThrow(/--port: not a port: abc/);
    expect(() => loadConfig(['--port', '65536'], {})).toThrow(ConfigError);
    expect(() => loadConfig(['--mqtt-port', '-1'], {})).toThrow(ConfigError);
    expect(() => loadConfig([], { EDGE_PORT: '80.5' })).toThrow(ConfigError);
  });

  it('refuses a flag without its value, an unknown log level and an upstream that is not a URL', () => {
    expect(() => loadConfig(['--data-dir'], {})).toThrow(/--data-dir needs a value/);
    expect(() => loadConfig(['--log-level', 'loud'], {})).toThrow(/unknown level/);
    expect(() => loadConfig(['--upstream', 'not a url'], {})).toThrow(/--upstream/);
  });

  it('takes the MQTT over TLS port (8883 by default) or off, and the operator certificate only with its key', () => {
    expect(loadConfig([], {}).config).toMatchObject({ mqttsPort: 8883, mqttsCert: null, mqttsKey: null });
    expect(loadConfig(['--mqtts-port', '0'], {}).config.mqttsPort).toBe(0);
    expect(loadConfig(['--mqtts-port', 'off'], {}).config.mqttsPort).toBeNull();
    expect(loadConfig([], { EDGE_MQTTS_PORT: 'off' }).config.mqttsPort).toBeNull();
    expect(loadConfig(['--config', configFile({ mqttsPort: 'off' })], {}).config.mqttsPort).toBeNull();
    expect(() => loadConfig(['--mqtts-port', '-1'], {})).toThrow(/--mqtts-port: not a port/);
    expect(() => loadConfig(['--mqtt-port', 'off'], {})).toThrow(/--mqtt-port: not a port/);
    expect(loadConfig(['--mqtts-cert', 'c.pem', '--mqtts-key', 'k.pem'], {}).config).toMatchObject({ mqttsCert: 'c.pem', mqttsKey: 'k.pem' });
    expect(() => loadConfig(['--mqtts-cert', 'c.pem'], {})).toThrow(/--mqtts-cert and --mqtts-key go together/);
    expect(helpText('1')).toMatch(/--mqtts-port PORT +EDGE_MQTTS_PORT/);
  });

  it('trusts no proxy by default, and takes trusted proxies as addresses or CIDRs from flags, environment or file', () => {
    expect(loadConfig([], {}).config.trustedProxies).toEqual([]);
    expect(loadConfig([], { EDGE_TRUSTED_PROXY: '127.0.0.1, ::1' }).config.trustedProxies).toEqual(['127.0.0.1', '::1']);
    expect(loadConfig(['--config', configFile({ trustedProxies: ['10.1.0.0/16'] })], {}).config.trustedProxies).toEqual(['10.1.0.0/16']);
    expect(loadConfig(['--config', configFile({ trustedProxies: '10.1.0.1,10.1.0.2' })], {}).config.trustedProxies).toEqual(['10.1.0.1', '10.1.0.2']);
    for (const bad of ['proxy.lan', '10.0.0.1/33', '::1/129', '10.0.0.1/', '10.0.0.256', '10.0.0.0/8x']) {
      expect(() => loadConfig(['--trusted-proxy', bad], {}), bad).toThrow(/--trusted-proxy: not an address or CIDR/);
    }
    expect(() => loadConfig(['--config', configFile({ trustedProxies: [1] })], {})).toThrow(/--trusted-proxy/);
    expect(helpText('1')).toMatch(/--trusted-proxy LIST +EDGE_TRUSTED_PROXY/);
  });

  it('refuses an unknown key or broken JSON in the config file', () => {
    expect(() => loadConfig(['--config', configFile({ prot: 80 })], {})).toThrow(/unknown key prot/);
    const broken = join(tempDir(), 'broken.json');
    writeFileSync(broken, '{ port: ');
    expect(() => loadConfig(['--config', broken], {})).toThrow(ConfigError);
  });

  it('lists every flag of the README configuration table and its variable in --help', () => {
    const text = helpText('1.2.3');
    for (const flag of ['--host', '--port', '--data-dir', '--mqtt-port', '--upstream', '--license-public-key', '--device-sn', '--log-level', '--trusted-proxy', '--commit-interval-ms', '--commit-burst', '--commit-batch', '--help', '--version']) {
      expect(text).toContain(flag);
    }
    for (const env of ['EDGE_HOST', 'EDGE_PORT', 'EDGE_DATA_DIR', 'EDGE_MQTT_PORT', 'EDGE_UPSTREAM', 'EDGE_LICENSE_PUBLIC_KEY', 'EDGE_DEVICE_SN', 'EDGE_LOG_LEVEL', 'EDGE_TRUSTED_PROXY', 'EDGE_COMMIT_INTERVAL_MS', 'EDGE_COMMIT_BURST', 'EDGE_COMMIT_BATCH']) {
      expect(text).toContain(env);
    }
    expect(text).toContain('1.2.3');
  });
});
