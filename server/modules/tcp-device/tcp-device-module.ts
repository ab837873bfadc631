/**
 * TCP device access: the `--tcp-port` server, where DTUs and custom TCP devices connect and
 * register, and the registry of their connections (`tcpAccess.connections`) that the Modbus master
 * and, later, custom protocol handlers use. A custom TCP device and a DTU gateway are ONLINE while
 * connected; Modbus slaves are ONLINE while they answer (server/modules/modbus/).
 */
import { RAW_RPC_METHOD } from '../../contract/command.ts';
import { defineModule } from '../../module.ts';
import type { TcpDevice } from '../device/tcp-device.ts';
import { TcpAccessServer } from './tcp-device-server.ts';
import { TcpConnections } from './tcp-connections.ts';

declare module '../../module.ts' {
  interface Services {
    tcpAccess: TcpAccess;
  }
  interface Tuning {
    /** How long a new TCP connection may take to register (default 10 s; tests shorten it). */
    tcpIdentifyTimeoutMs?: number;
  }
}

/** The bytes of a `raw` command's params (`{ format: 'HEX' | 'ASCII', data }`, server/contract/command.ts). */
function rawBytes(params: unknown): Buffer | null {
  if (typeof params !== 'object' || params === null) return null;
  const { format, data } = params as { format?: unknown; data?: unknown };
  if (typeof data !== 'string') return null;
  return format === 'HEX' ? Buffer.from(data, 'hex') : Buffer.from(data, 'latin1');
}

/** TCP devices looked up again at most this often (device and credential edits clear it at once). */
const IDENTITY_TTL_MS = 5_000;

export interface TcpAccess {
  readonly connections: TcpConnections;
  readonly server: TcpAccessServer;
  /** Every device of a TCP product, cached briefly. */
  devices(): readonly TcpDevice[];
  /** Opens `--tcp-port` on `--host`. */
  start(): Promise<void>;
}

export const tcpDeviceModule = defineModule({
  name: 'tcp-device',
  needs: ['devices', 'transport'],
  build: ({ core, log, tuning, services, onClose }) => {
    const connections = new TcpConnections();
    let cache: { at: number; list: TcpDevice[]; byRegistration: Map<string, TcpDevice> } | null = null;
    const load = () => {
      if (!cache || Date.now() - cache.at > IDENTITY_TTL_MS) {
        const list = services.devices.tcpDevices();
        const byRegistration = new Map<string, TcpDevice>();
        for (const d of list) if (d.registrationHex) byRegistration.set(d.registrationHex, d);
        cache = { at: Date.now(), list, byRegistration };
      }
      return cache;
    };
    const clear = () => {
      cache = null;
    };
    const offs = [
      core.bus.on('device.created', clear),
      core.bus.on('device.updated', clear),
      core.bus.on('device.credentialsChanged', clear),
      core.bus.on('device.deleted', ({ deviceId }) => {
        clear();
        connections.forget(deviceId);
      }),
      // A HEX or ASCII command to a connected TCP device is written to its socket as it is.
      services.transport.addDeliveryPath((deviceId, requestId, method, params) => {
        const bytes = method === RAW_RPC_METHOD ? rawBytes(params) : null;
        if (!bytes || !connections.write(deviceId, bytes)) return false;
        setImmediate(() => core.bus.emit('device.rpcDelivered', { deviceId, requestId }));
        return true;
      }),
      connections.onConnection((connection, up) => {
        const device = load().list.find((d) => d.id === connection.deviceId);
        if (device && (device.tcpProtocolType === 'CUSTOM' || device.deviceType === 'GATEWAY')) services.transport.holdOnline(device.id, up);
      }),
    ];
    onClose(() => {
      for (const off of offs) off();
    });
    const server = new TcpAccessServer({ connections, identities: () => load().byRegistration, log, identifyTimeoutMs: tuning.tcpIdentifyTimeoutMs });
    const tcpAccess: TcpAccess = {
      connections,
      server,
      devices: () => load().list,
      start: () => server.start(core.config.host, core.config.tcpPort),
    };
    return { tcpAccess };
  },
  start: ({ tcpAccess }) => tcpAccess.start(),
  close: async ({ tcpAccess }) => {
    tcpAccess.connections.closeAll();
    await tcpAccess.server.close();
  },
});
