/**
 * TCP device access: the `--tcp-port` server, where DTUs and custom TCP devices connect and
 * register, and the registry of their connections (`connections`) that the Modbus master and,
 * later, custom protocol handlers use. A custom TCP device and a DTU gateway are ONLINE while
 * connected; Modbus slaves are ONLINE while they answer (server/modules/modbus/).
 */
import type { FastifyBaseLogger } from 'fastify';
import { RAW_RPC_METHOD } from '../../contract/command.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import type { DeviceService } from '../device/device-service.ts';
import type { TcpDevice } from '../device/tcp-device.ts';
import type { Transport } from '../transport/transport.ts';
import type { TcpAccessLimits } from './tcp-access-limits.ts';
import { TcpAccessServer } from './tcp-device-server.ts';
import { TcpConnections } from './tcp-connections.ts';

/** The bytes of a `raw` command's params (`{ format: 'HEX' | 'ASCII', data }`, server/contract/command.ts). */
function rawBytes(params: unknown): Buffer | null {
  if (typeof params !== 'object' || params === null) return null;
  const { format, data } = params as { format?: unknown; data?: unknown };
  if (typeof data !== 'string') return null;
  return format === 'HEX' ? Buffer.from(data, 'hex') : Buffer.from(data, 'latin1');
}

/** TCP devices looked up again at most this often (device and credential edits clear it at once). */
const IDENTITY_TTL_MS = 5_000;

export interface TcpDeviceServiceDeps {
  bus: EventBus;
  log: FastifyBaseLogger;
  /** Where `start` listens (`--host`, `--tcp-port`). */
  host: string;
  port: number;
  /** The port's windows and caps (tcp-access-limits.ts; the defaults where unset). */
  limits?: Partial<TcpAccessLimits>;
  devices: Pick<DeviceService, 'tcpDevices'>;
  transport: Pick<Transport, 'addDeliveryPath' | 'holdOnline'>;
}

export class TcpDeviceService {
  readonly connections = new TcpConnections();
  readonly server: TcpAccessServer;
  private cache: { at: number; list: TcpDevice[]; byRegistration: Map<string, TcpDevice> } | null = null;
  private readonly offs: (() => void)[];

  constructor(private readonly deps: TcpDeviceServiceDeps) {
    const { bus, transport } = deps;
    const { connections } = this;
    const clear = (): void => {
      this.cache = null;
    };
    this.offs = [
      bus.on('device.created', clear),
      bus.on('device.updated', clear),
      bus.on('device.credentialsChanged', clear),
      bus.on('device.deleted', ({ deviceId }) => {
        clear();
        connections.forget(deviceId);
      }),
      // A HEX or ASCII command to a connected TCP device is written to its socket as it is.
      transport.addDeliveryPath((deviceId, requestId, method, params) => {
        const bytes = method === RAW_RPC_METHOD ? rawBytes(params) : null;
        if (!bytes || !connections.write(deviceId, bytes)) return false;
        setImmediate(() => bus.emit('device.rpcDelivered', { deviceId, requestId }));
        return true;
      }),
      connections.onConnection((connection, up) => {
        const device = this.load().list.find((d) => d.id === connection.deviceId);
        if (device && (device.tcpProtocolType === 'CUSTOM' || device.deviceType === 'GATEWAY')) transport.holdOnline(device.id, up);
      }),
    ];
    this.server = new TcpAccessServer({ connections, identities: () => this.load().byRegistration, log: deps.log, limits: deps.limits });
  }

  /** Every device of a TCP product, cached briefly. */
  devices(): readonly TcpDevice[] {
    return this.load().list;
  }

  /** Opens `--tcp-port` on `--host`. */
  start(): Promise<void> {
    return this.server.start(this.deps.host, this.deps.port);
  }

  /** Drops every connection and closes the port, then stops listening to the bus and the transport. */
  async close(): Promise<void> {
    try {
      this.connections.closeAll();
      await this.server.close();
    } finally {
      for (const off of this.offs) off();
    }
  }

  private load(): { list: TcpDevice[]; byRegistration: Map<string, TcpDevice> } {
    if (!this.cache || Date.now() - this.cache.at > IDENTITY_TTL_MS) {
      const list = this.deps.devices.tcpDevices();
      const byRegistration = new Map<string, TcpDevice>();
      for (const d of list) if (d.registrationHex) byRegistration.set(d.registrationHex, d);
      this.cache = { at: Date.now(), list, byRegistration };
    }
    return this.cache;
  }
}
