/**
 * One attempt to reach the cloud's broker, in words: the CONNACK return code or the network/TLS
 * failure as an error key of locales/<lang>/errors.json (`error.cloud.*`), so the edge state page
 * and the connection test say the same thing in the reader's language.
 */
import { connect as netConnect, isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { IClientOptions } from 'mqtt';
import type clientModule from 'mqtt/lib/client';
import type { CloudConfig } from '../../contract/cloud.ts';
import type { ErrorKey } from '../../contract/errors.ts';

/** Port on which the cloud's broker speaks MQTT over TLS without `platformTls`. */
export const MQTTS_PORT = 8883;

export interface ConnectOutcome {
  /** The CONNACK return code, or -1 when none came. */
  code: number;
  key: ErrorKey;
  params: Record<string, string | number>;
}

/** The mqtt.js options that make the gateway a ThingsBoard gateway device of the cloud. */
export function clientOptions(config: CloudConfig, clientId: string, connectTimeoutMs: number): IClientOptions {
  const tls = config.platformTls === true || config.platformPort === MQTTS_PORT;
  return {
    protocol: tls ? 'mqtts' : 'mqtt',
    host: config.platformAddress,
    port: config.platformPort,
    clientId,
    username: config.platformKey,
    // An empty secret is ThingsBoard's access-token authentication: the key alone.
    ...(config.platformSecret ? { password: config.platformSecret } : {}),
    protocolVersion: 4,
    // Our own cursor decides what is resent after a reconnect, not the broker's session.
    clean: true,
    // Reconnecting is ours (backoff with jitter), not mqtt.js's fixed period.
    reconnectPeriod: 0,
    connectTimeout: connectTimeoutMs,
    keepalive: 30,
    rejectUnauthorized: true,
  };
}

type MqttClientClass = typeof clientModule;
type MqttClient = InstanceType<MqttClientClass>;

let clientClass: MqttClientClass | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads mqtt.js's client class, once. Not imported at the top: a gateway without a cloud (most of
 * them) would build mqtt.js and its dependencies at every start for nothing; the connector calls
 * this before its first client (docs/PERFORMANCE-FINDINGS.md). Its module is CommonJS with
 * `exports.default`: TypeScript and Vite hand over the class, Node's interop (the bundle, a
 * package of type module) the exports object.
 */
export function loadCloudClient(): Promise<void> {
  loading ??= import('mqtt/lib/client').then((m) => {
    const exported = m.default as MqttClientClass | { default?: MqttClientClass };
    clientClass = ('default' in exported && exported.default ? exported.default : exported) as MqttClientClass;
  });
  return loading;
}

export function cloudClientLoaded(): boolean {
  return clientClass !== null;
}

/**
 * A client over a socket of our own: mqtt.js's `connect()` would bring its WebSocket, WeChat,
 * Alipay and SOCKS transports into the binary, none of which the gateway uses.
 */
export function cloudClient(config: CloudConfig, clientId: string, connectTimeoutMs: number): MqttClient {
  if (!clientClass) throw new Error('cloudClient: loadCloudClient() has not finished');
  const options = clientOptions(config, clientId, connectTimeoutMs);
  const host = config.platformAddress;
  const port = config.platformPort;
  const stream = (): ReturnType<typeof netConnect> =>
    options.protocol === 'mqtts'
      ? tlsConnect({
          host,
          port,
          rejectUnauthorized: true,
          ...(isIP(host) === 0 ? { servername: host } : {}),
          // A private cloud's CA (server/modules/cloud/cloud-ca.ts) replaces the system's CAs.
          ...(config.platformCaPem ? { ca: config.platformCaPem } : {}),
        })
      : netConnect({ host, port });
  return new clientClass(stream, options);
}

const CONNACK_CODES = new Set([1, 2, 3, 4, 5]);

/** What an `error` event of mqtt.js (or a socket error under it) means for the user. */
/** Socket failures an operator can act on, said in words instead of Node's "connect ECONNREFUSED …". */
const SOCKET_REASONS: Record<string, ErrorKey> = {
  ECONNREFUSED: 'error.cloud.refused',
  ENOTFOUND: 'error.cloud.notFound',
  EAI_AGAIN: 'error.cloud.notFound',
  EHOSTUNREACH: 'error.cloud.noRoute',
  ENETUNREACH: 'error.cloud.noRoute',
  ECONNRESET: 'error.cloud.reset',
};

type SocketError = Error & { code?: unknown; address?: string; port?: number; hostname?: string };

export function failureOutcome(err: SocketError): ConnectOutcome {
  const code = err.code;
  if (typeof code === 'number') {
    if (CONNACK_CODES.has(code)) return { code, key: `error.cloud.connack.${code}` as ErrorKey, params: {} };
    return { code, key: 'error.cloud.connack.other', params: { code } };
  }
  // Node's message names the code and what it concerns ("getaddrinfo ENOTFOUND cloud.example").
  const detail = err.message || (typeof code === 'string' ? code : '');
  if (typeof code === 'string' && isTlsCode(code)) {
    return { code: -1, key: 'error.cloud.tls', params: { detail } };
  }
  if (code === 'ETIMEDOUT') return timeoutOutcome();
  const reason = typeof code === 'string' ? SOCKET_REASONS[code] : undefined;
  if (reason) {
    const host = err.hostname ?? err.address ?? '';
    return { code: -1, key: reason, params: { address: err.port ? `${host}:${err.port}` : host } };
  }
  return { code: -1, key: 'error.cloud.unreachable', params: { detail } };
}

/** Node's TLS and OpenSSL's verification codes (`UNABLE_TO_VERIFY_LEAF_SIGNATURE`: a CA the gateway does not trust). */
function isTlsCode(code: string): boolean {
  return code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code === 'EPROTO' || code.includes('CERT') || code.startsWith('UNABLE_TO_') || code.includes('SIGNATURE');
}

export function timeoutOutcome(): ConnectOutcome {
  return { code: -1, key: 'error.cloud.timeout', params: {} };
}

export function closedOutcome(): ConnectOutcome {
  return { code: -1, key: 'error.cloud.closed', params: {} };
}

export function acceptedOutcome(): ConnectOutcome {
  return { code: 0, key: 'error.cloud.connected', params: {} };
}
