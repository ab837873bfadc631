/**
 * The gateway's side of the edge-* palette nodes (server/contract/node-red-palette.ts): who a
 * caller is — a running instance presenting its own palette secret over loopback — and what it
 * may do. The principal is modelled on a share link's guest credential: not a user, no role, an
 * explicit list of routes and live commands, and nothing else opens with it.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import type { PaletteAlarmAnswer, PaletteAlarmBody, PaletteCommandBody, PaletteTcpBody, PaletteTelemetryBody } from '../../contract/node-red-palette.ts';
import type { Command } from '../../contract/command.ts';
import type { AlarmService } from '../alarm/alarm-service.ts';
import type { CommandService } from '../command/command-service.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import type { DeviceService } from '../device/device-service.ts';
import type { TcpDeviceService } from '../tcp-device/tcp-device-service.ts';
import type { TelemetryService } from '../telemetry/telemetry-service.ts';
import type { NodeRedSecrets } from './node-red-secrets.ts';

export interface NodeRedPaletteDeps {
  secrets: Pick<NodeRedSecrets, 'paletteSecret'>;
  /**
   * Whether the instance's runtime process runs: STARTING counts, since Node-RED starts the flows
   * before it reports ready. A stopped, crashed or deleted instance is refused.
   */
  running(id: string): boolean;
  telemetry: Pick<TelemetryService, 'saveChecked'>;
  devices: Pick<DeviceService, 'get'>;
  commands: Pick<CommandService, 'send'>;
  alarms: Pick<AlarmService, 'raise' | 'clearOpen'>;
  /** The instance's name now: commands and alarms carry it as their source. */
  instanceName(id: string): string;
  /** The TCP access port's devices and its registry of connections (their frames, writing back). */
  tcp: Pick<TcpDeviceService, 'devices' | 'connections'>;
  /** The configured HTTP port, until the server says which one it listens on. */
  port: number;
}

/** 127.0.0.0/8 and ::1, as Node reports them (IPv4 may come mapped into IPv6). */
export function isLoopback(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class NodeRedPalette {
  private server: Server | null = null;

  constructor(private readonly deps: NodeRedPaletteDeps) {}

  /** The gateway's HTTP server, whose port the palette calls (port 0 in tests is known only once it listens). */
  listensOn(server: Server): void {
    this.server = server;
  }

  /**
   * Where the palette reaches the gateway: loopback, on the port it listens on. A console bound to
   * one LAN address only is not reachable there, and the palette says it cannot connect.
   */
  gatewayUrl(): string {
    const address = this.server?.address();
    return `http://127.0.0.1:${address && typeof address === 'object' ? address.port : this.deps.port}`;
  }

  /** Whether `secret` is the palette secret of running instance `id`, presented from loopback only. */
  check(id: string, secret: string, addresses: readonly string[]): boolean {
    if (!addresses.length || !addresses.every(isLoopback)) return false;
    // Asked only of a running instance: a guessed id must not make the secrets file grow an entry.
    if (!this.deps.running(id)) return false;
    return sameText(secret, this.deps.secrets.paletteSecret(id));
  }

  /** The instance named by an `X-Edge-Node-Red-Instance: <id>:<secret>` header, when it checks out. */
  instanceOf(header: string, addresses: readonly string[]): string | null {
    const colon = header.indexOf(':');
    if (colon <= 0) return null;
    const id = header.slice(0, colon);
    return this.check(id, header.slice(colon + 1), addresses) ? id : null;
  }

  /** Edge telemetry out: the values as one message of the device, refused whole when the model refuses one. */
  async telemetry(body: PaletteTelemetryBody): Promise<{ ok: true }> {
    await this.deps.telemetry.saveChecked(body.deviceId, body.ts === undefined ? body.values : { ts: body.ts, values: body.values });
    return { ok: true };
  }

  /** Edge command: sent as a user's call would be, its source the instance. */
  command(instanceId: string, { deviceId, ...body }: PaletteCommandBody): Promise<Command> {
    return this.deps.commands.send(deviceId, body, { type: 'NODE_RED', id: instanceId, name: this.deps.instanceName(instanceId) });
  }

  /**
   * Edge alarm: raises (or fires again) or clears the device's alarm of that type under the
   * instance, the way a scene's MSG_NOTIFY does under the scene (its id is the alarm's source).
   */
  alarm(instanceId: string, body: PaletteAlarmBody): PaletteAlarmAnswer {
    const device = this.deps.devices.get(body.deviceId);
    if (body.action === 'CLEAR') return { alarm: this.deps.alarms.clearOpen(instanceId, device.id, body.type) };
    const details = { triggerIndex: null, key: null, operation: null, threshold: null, value: body.value ?? null, message: body.message ?? null };
    const scene = { id: instanceId, name: this.deps.instanceName(instanceId) };
    return { alarm: this.deps.alarms.raise({ scene, triggerIndex: null, device, severity: body.severity ?? 'MAJOR', type: body.type, details }) };
  }

  /**
   * A device of a TCP product with the CUSTOM protocol: 404 for no device, 400 for another kind
   * (a Modbus device's frames are the Modbus master's, an MQTT device has none).
   */
  customTcpDevice(deviceId: string): string {
    this.deps.devices.get(deviceId);
    const tcp = this.deps.tcp.devices().find((d) => d.id === deviceId);
    if (tcp?.tcpProtocolType !== 'CUSTOM') throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.nodeRedPalette.notCustomTcp');
    return deviceId;
  }

  /** Edge TCP out: a frame to the device's live connection. */
  tcpWrite(body: PaletteTcpBody): { ok: true } {
    const deviceId = this.customTcpDevice(body.deviceId);
    if (!this.deps.tcp.connections.write(deviceId, Buffer.from(body.frame, 'hex'))) {
      throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.nodeRedPalette.tcpNotConnected');
    }
    return { ok: true };
  }

  /** Edge TCP in: the device's frames as they come (its registration once it registered is not among them unless sent with data). */
  onTcpFrames(deviceId: string, listener: (frame: Buffer) => void): () => void {
    return this.deps.tcp.connections.onFrames(this.customTcpDevice(deviceId), listener);
  }
}
