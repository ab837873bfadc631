/**
 * Configuration: command-line flags > EDGE_* environment > config file (`--config FILE`, JSON) >
 * defaults. Flag names are fixed: firmware scripts and provisioning rely on them (README,
 * Configuration).
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { TCP_PORT_DEFAULT } from './contract/tcp-device.ts';
import { networkAppliers, type NetworkApplierName } from './contract/network.ts';
import { VIDEO_MAX_STREAMS_DEFAULT } from './contract/video.ts';
import { REPORT_DISK_MB_DEFAULT } from './contract/report.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const logLevels: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  mqttPort: number;
  /** TCP device access port (DTUs, custom TCP devices); server/modules/tcp-device/. */
  tcpPort: number;
  /** Device MQTT over TLS port; null when turned off (`--mqtts-port off`). */
  mqttsPort: number | null;
  /** PEM files of the TLS certificate (chain) and key the broker presents instead of its generated ones. */
  mqttsCert: string | null;
  mqttsKey: string | null;
  upstream: string | null;
  /** PEM files of extra trusted licence public keys, besides those embedded at build time. */
  licensePublicKeys: string[];
  firmwarePublicKeys: string[];
  firmwareReadyTimeoutMs: number;
  firmwareHealthWindowMs: number;
  /** Overrides the device serial number licences are bound to. */
  deviceSn: string | null;
  logLevel: LogLevel;
  /**
   * Addresses or CIDRs of reverse proxies (another edge-console in proxy mode, nginx…) whose
   * X-Forwarded-For is believed for the client's address; none by default.
   */
  trustedProxies: string[];
  /**
   * Cap on the database file plus its WAL, in MB: above it the oldest history is pruned until under
   * it with headroom (server/modules/telemetry/history-budget.ts); null: no cap.
   */
  historyMaxMb: number | null;
  /** Below this much free space (MB) on the data directory's file system, telemetry is refused. */
  minFreeDiskMb: number;
  /** How long a cloud account signs in with its stored verifier while the cloud is unreachable, since its last online check. */
  cloudOfflineDays: number;
  /**
   * The telemetry commit budget (server/modules/telemetry/commit-budget.ts): after `commitBurst`
   * back-to-back commits, one per `commitIntervalMs` (0: each batch at once); a batch of
   * `commitBatch` messages commits at once whatever the budget.
   */
  commitIntervalMs: number;
  commitBurst: number;
  commitBatch: number;
  /** What applies network settings (server/modules/network/): `file` touches nothing on the host. */
  networkApplier: NetworkApplierName;
  /** An installed `node-red` package directory; null: `node-red` beside the binary, then ./node_modules/node-red. */
  nodeRedDir: string | null;
  /** How many Node-RED instances may exist. */
  nodeRedMax: number;
  /** Time a rolled-back instance has to answer healthy before the flows it replaced are restored. */
  nodeRedRollbackHealthMs: number;
  /** Directory holding ffmpeg and ffprobe (video probes and previews); null: found on PATH. */
  ffmpegDir: string | null;
  /** Live video previews (one ffmpeg each) running at once. */
  videoMaxStreams: number;
  /** MB all report runs' files may take together (the oldest runs are removed first). */
  reportDiskMb: number;
}

interface OptionSpec {
  key: keyof Config;
  flag: string;
  env: string;
  help: string;
  kind: 'string' | 'port' | 'list' | 'level' | 'megabytes' | 'days' | 'ms' | 'count' | 'choice';
  /** The values a `choice` option takes. */
  choices?: readonly string[];
  /** A port or a size that may also be `off` (null). */
  off?: true;
  /** The least and greatest whole number an `ms` or `count` option takes. */
  range?: [number, number];
}

/** The commit policy chosen for flash storage (measured in docs/ARCHITECTURE.md, "Commit policy and flash wear"). */
export const COMMIT_DEFAULTS = { intervalMs: 400, burst: 4, batch: 256 } as const;

/** The one table `--help`, env parsing and the README's configuration table derive from. */
export const options: OptionSpec[] = [
  { key: 'host', flag: '--host', env: 'EDGE_HOST', kind: 'string', help: 'Bind address of the console and device HTTP API (default 0.0.0.0)' },
  { key: 'port', flag: '--port', env: 'EDGE_PORT', kind: 'port', help: 'HTTP port of the console (default 8080)' },
  { key: 'dataDir', flag: '--data-dir', env: 'EDGE_DATA_DIR', kind: 'string', help: 'Directory for the database, secrets and uploads (default ./.data)' },
  { key: 'mqttPort', flag: '--mqtt-port', env: 'EDGE_MQTT_PORT', kind: 'port', help: 'Device MQTT port (default 1883)' },
  { key: 'tcpPort', flag: '--tcp-port', env: 'EDGE_TCP_PORT', kind: 'port', help: `TCP device access port for DTUs and custom TCP devices (default ${TCP_PORT_DEFAULT})` },
  { key: 'mqttsPort', flag: '--mqtts-port', env: 'EDGE_MQTTS_PORT', kind: 'port', off: true, help: 'Device MQTT over TLS port (default 8883; off turns it off)' },
  { key: 'mqttsCert', flag: '--mqtts-cert', env: 'EDGE_MQTTS_CERT', kind: 'string', help: 'PEM certificate (chain) for MQTT over TLS (default: self-signed, made at first boot)' },
  { key: 'mqttsKey', flag: '--mqtts-key', env: 'EDGE_MQTTS_KEY', kind: 'string', help: 'PEM private key of --mqtts-cert' },
  { key: 'upstream', flag: '--upstream', env: 'EDGE_UPSTREAM', kind: 'string', help: 'Proxy /api and /api/ws to this edge core URL instead of the embedded one' },
  { key: 'licensePublicKeys', flag: '--license-public-key', env: 'EDGE_LICENSE_PUBLIC_KEY', kind: 'list', help: 'PEM file of a trusted licence public key (repeatable; env: comma-separated)' },
  { key: 'firmwarePublicKeys', flag: '--firmware-public-key', env: 'EDGE_FIRMWARE_PUBLIC_KEY', kind: 'list', help: 'PEM file of a trusted firmware signing key (repeatable; env: comma-separated)' },
  { key: 'firmwareReadyTimeoutMs', flag: '--firmware-ready-timeout-ms', env: 'EDGE_FIRMWARE_READY_TIMEOUT_MS', kind: 'ms', range: [500, 3_600_000], help: 'Time an updated binary has to report healthy before it is rolled back (default 60000)' },
  { key: 'firmwareHealthWindowMs', flag: '--firmware-health-window-ms', env: 'EDGE_FIRMWARE_HEALTH_WINDOW_MS', kind: 'ms', range: [500, 86_400_000], help: 'Time an updated binary must serve healthy before it is kept (default 300000)' },
  { key: 'deviceSn', flag: '--device-sn', env: 'EDGE_DEVICE_SN', kind: 'string', help: 'Device serial number licences are bound to (default derived from /etc/machine-id)' },
  { key: 'logLevel', flag: '--log-level', env: 'EDGE_LOG_LEVEL', kind: 'level', help: 'fatal, error, warn, info, debug, trace or silent (default info)' },
  { key: 'trustedProxies', flag: '--trusted-proxy', env: 'EDGE_TRUSTED_PROXY', kind: 'list', help: 'Address or CIDR of a proxy whose X-Forwarded-For names the client (repeatable; env: comma-separated; default none)' },
  { key: 'historyMaxMb', flag: '--history-max-mb', env: 'EDGE_HISTORY_MAX_MB', kind: 'megabytes', off: true, help: 'Cap on the database size in MB: the oldest history is pruned above it (default off)' },
  { key: 'minFreeDiskMb', flag: '--min-free-disk-mb', env: 'EDGE_MIN_FREE_DISK_MB', kind: 'megabytes', help: 'Telemetry and uploads are refused while the data directory has less free space, in MB (default 64)' },
  { key: 'commitIntervalMs', flag: '--commit-interval-ms', env: 'EDGE_COMMIT_INTERVAL_MS', kind: 'ms', range: [0, 5000], help: `Least time between two telemetry commits once the burst is spent, 0-5000 ms; 0 commits every batch at once (default ${COMMIT_DEFAULTS.intervalMs}: fewer flash writes for up to that much PUBACK delay)` },
  { key: 'commitBurst', flag: '--commit-burst', env: 'EDGE_COMMIT_BURST', kind: 'count', range: [1, 100], help: `Telemetry commits allowed back to back after a quiet spell, 1-100 (default ${COMMIT_DEFAULTS.burst})` },
  { key: 'commitBatch', flag: '--commit-batch', env: 'EDGE_COMMIT_BATCH', kind: 'count', range: [1, 4096], help: `Queued messages that commit at once whatever the interval, 1-4096 (default ${COMMIT_DEFAULTS.batch})` },
  { key: 'networkApplier', flag: '--network-applier', env: 'EDGE_NETWORK_APPLIER', kind: 'choice', choices: networkAppliers, help: 'What applies network settings: file (writes <data-dir>/network/desired.json, touches nothing), networkmanager (nmcli under a checkpoint) or openwrt (uci) (default file)' },
  { key: 'nodeRedDir', flag: '--node-red-dir', env: 'EDGE_NODE_RED_DIR', kind: 'string', help: 'Installed node-red package directory for soft-gateway instances (default: node-red beside the binary, then ../lib/edge-console/node-red from it, then ./node_modules/node-red)' },
  { key: 'nodeRedMax', flag: '--node-red-max', env: 'EDGE_NODE_RED_MAX', kind: 'count', range: [0, 32], help: 'Node-RED instances that may exist, 0-32 (default 3; each takes about 130 MB while it runs)' },
  { key: 'nodeRedRollbackHealthMs', flag: '--node-red-rollback-health-ms', env: 'EDGE_NODE_RED_ROLLBACK_HEALTH_MS', kind: 'ms', range: [1000, 600_000], help: 'Time a Node-RED instance has to answer healthy after a rollback before the flows it replaced are restored (default 60000)' },
  { key: 'ffmpegDir', flag: '--ffmpeg-dir', env: 'EDGE_FFMPEG_DIR', kind: 'string', help: 'Directory holding ffmpeg and ffprobe for video probes and previews (default: found on PATH)' },
  { key: 'videoMaxStreams', flag: '--video-max-streams', env: 'EDGE_VIDEO_MAX_STREAMS', kind: 'count', range: [1, 64], help: `Live video previews running at once, 1-64, one ffmpeg each (default ${VIDEO_MAX_STREAMS_DEFAULT})` },
  { key: 'reportDiskMb', flag: '--report-disk-mb', env: 'EDGE_REPORT_DISK_MB', kind: 'count', range: [1, 102_400], help: `MB the files of report runs may take under <data-dir>/reports, 1-102400; the oldest runs are removed first (default ${REPORT_DISK_MB_DEFAULT})` },
  { key: 'cloudOfflineDays', flag: '--cloud-offline-days', env: 'EDGE_CLOUD_OFFLINE_DAYS', kind: 'days', help: 'Days a cloud account may sign in while the cloud is unreachable, since its last online sign-in (default 30; 0: never offline)' },
];

export const defaults: Config = {
  host: '0.0.0.0',
  port: 8080,
  dataDir: './.data',
  mqttPort: 1883,
  tcpPort: TCP_PORT_DEFAULT,
  mqttsPort: 8883,
  mqttsCert: null,
  mqttsKey: null,
  upstream: null,
  licensePublicKeys: [],
  firmwarePublicKeys: [],
  firmwareReadyTimeoutMs: 60_000,
  firmwareHealthWindowMs: 300_000,
  deviceSn: null,
  logLevel: 'info',
  trustedProxies: [],
  historyMaxMb: null,
  minFreeDiskMb: 64,
  cloudOfflineDays: 30,
  commitIntervalMs: COMMIT_DEFAULTS.intervalMs,
  commitBurst: COMMIT_DEFAULTS.burst,
  commitBatch: COMMIT_DEFAULTS.batch,
  networkApplier: 'file',
  nodeRedDir: null,
  nodeRedMax: 3,
  nodeRedRollbackHealthMs: 60_000,
  ffmpegDir: null,
  videoMaxStreams: VIDEO_MAX_STREAMS_DEFAULT,
  reportDiskMb: REPORT_DISK_MB_DEFAULT,
};

export class ConfigError extends Error {}

function coerce(spec: OptionSpec, raw: string): unknown {
  switch (spec.kind) {
    case 'port': {
      if (spec.off && raw === 'off') return null;
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`${spec.flag}: not a port: ${raw}`);
      return n;
    }
    case 'level':
      if (!logLevels.includes(raw as LogLevel)) throw new ConfigError(`${spec.flag}: unknown level: ${raw}`);
      return raw;
    case 'megabytes':
    case 'days': {
      if (spec.off && raw === 'off') return null;
      const n = Number(raw);
      if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n)) throw new ConfigError(`${spec.flag}: not a whole number of ${spec.kind === 'days' ? 'days' : 'MB'}: ${raw}`);
      return n;
    }
    case 'ms':
    case 'count':
      return wholeInRange(spec, raw);
    case 'choice':
      if (!spec.choices?.includes(raw)) throw new ConfigError(`${spec.flag}: expected one of ${spec.choices?.join(', ')}, not ${raw}`);
      return raw;
    case 'list':
      return raw.split(',').map((s) => s.trim()).filter(Boolean);
    default:
      return raw;
  }
}

function rangeError(spec: OptionSpec, raw: unknown): ConfigError {
  const [min, max] = spec.range ?? [0, Number.MAX_SAFE_INTEGER];
  const unit = spec.kind === 'ms' ? ' ms' : '';
  return new ConfigError(`${spec.flag}: expected a whole number from ${min} to ${max}${unit}, not ${String(raw)}`);
}

function wholeInRange(spec: OptionSpec, raw: string): number {
  const n = Number(raw);
  const [min, max] = spec.range ?? [0, Number.MAX_SAFE_INTEGER];
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) throw rangeError(spec, raw);
  return n;
}

/** An IPv4 or IPv6 address, optionally with a /prefix of its family's length. */
function isAddressOrCidr(entry: unknown): boolean {
  if (typeof entry !== 'string') return false;
  const [address = '', prefix, ...more] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || more.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export interface ParsedArgs {
  config: Config;
  help: boolean;
  version: boolean;
  /** Positional words, e.g. a CLI sub-command. */
  rest: string[];
}

export function loadConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): ParsedArgs {
  const fromFlags: Partial<Record<keyof Config, unknown>> = {};
  let configFile: string | undefined = env.EDGE_CONFIG;
  let help = false;
  let version = false;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') { help = true; continue; }
    if (arg === '--version' || arg === '-v') { version = true; continue; }
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name === '--config') { configFile = inline ?? argv[++i]; continue; }
    const spec = options.find((o) => o.flag === name);
    if (!spec) {
      if (arg.startsWith('-')) throw new ConfigError(`unknown option: ${arg} (see --help)`);
      rest.push(arg);
      continue;
    }
    const raw = inline ?? argv[++i];
    if (raw === undefined) throw new ConfigError(`${spec.flag} needs a value`);
    const value = coerce(spec, raw);
    fromFlags[spec.key] = spec.kind === 'list' ? [...((fromFlags[spec.key] as string[]) ?? []), ...(value as string[])] : value;
  }

  let fromFile: Partial<Record<keyof Config, unknown>> = {};
  if (configFile) {
    try {
      fromFile = JSON.parse(readFileSync(configFile, 'utf8')) as typeof fromFile;
    } catch (err) {
      throw new ConfigError(`config file ${configFile}: ${(err as Error).message}`);
    }
    for (const key of Object.keys(fromFile)) {
      if (!options.some((o) => o.key === key)) throw new ConfigError(`config file ${configFile}: unknown key ${key}`);
    }
  }

  const config = { ...defaults } as Record<keyof Config, unknown>;
  for (const spec of options) {
    const envRaw = env[spec.env];
    if (spec.key in fromFlags) config[spec.key] = fromFlags[spec.key];
    else if (envRaw !== undefined && envRaw !== '') config[spec.key] = coerce(spec, envRaw);
    else if (spec.key in fromFile) {
      const v = fromFile[spec.key];
      config[spec.key] = typeof v === 'string' ? coerce(spec, v) : v;
    }
  }
  const result = config as unknown as Config;
  result.dataDir = resolve(result.dataDir);
  if (result.upstream) {
    try { new URL(result.upstream); } catch { throw new ConfigError(`--upstream: not a URL: ${result.upstream}`); }
  }
  if ((result.mqttsCert === null) !== (result.mqttsKey === null)) throw new ConfigError('--mqtts-cert and --mqtts-key go together');
  if (result.historyMaxMb !== null && !(Number.isSafeInteger(result.historyMaxMb) && result.historyMaxMb >= 0)) throw new ConfigError('--history-max-mb: expected a whole number of MB or off');
  if (!(Number.isSafeInteger(result.minFreeDiskMb) && result.minFreeDiskMb >= 0)) throw new ConfigError('--min-free-disk-mb: expected a whole number of MB');
  if (!(Number.isSafeInteger(result.cloudOfflineDays) && result.cloudOfflineDays >= 0)) throw new ConfigError('--cloud-offline-days: expected a whole number of days');
  for (const spec of options) {
    // A config file gives numbers as JSON numbers, which coerce() never saw.
    const v = result[spec.key];
    if (spec.range && !(Number.isSafeInteger(v) && (v as number) >= spec.range[0] && (v as number) <= spec.range[1])) throw rangeError(spec, v);
  }
  if (!Array.isArray(result.trustedProxies)) throw new ConfigError('--trusted-proxy: expected a list of addresses or CIDRs');
  for (const entry of result.trustedProxies as unknown[]) {
    if (!isAddressOrCidr(entry)) throw new ConfigError(`--trusted-proxy: not an address or CIDR: ${String(entry)}`);
  }
  return { config: result, help, version, rest };
}

export function helpText(version: string): string {
  const lines = [
    `edge-console ${version}: web console and embedded edge core of an IoT gateway`,
    '',
    'Usage: edge-console [options]',
    '       edge-console reset-password --username NAME [--data-dir DIR]   (set a one-time password)',
    '',
    'Options (each also as an environment variable):',
    ...options.map((o) => `  ${(o.flag + ' ' + o.kind.toUpperCase()).padEnd(30)} ${o.env.padEnd(24)} ${o.help}`),
    `  ${'--config FILE'.padEnd(30)} ${'EDGE_CONFIG'.padEnd(24)} JSON file with any of the keys: ${options.map((o) => o.key).join(', ')}`,
    `  ${'--help'.padEnd(30)} ${''.padEnd(24)} Show this help`,
    `  ${'--version'.padEnd(30)} ${''.padEnd(24)} Print the version`,
    '',
    'Precedence: flags > environment > config file > defaults.',
  ];
  return lines.join('\n');
}
