/**
 * The Modbus master: which slaves exist (devices of TCP MODBUS_RTU products reachable through a
 * registered DTU connection, their own or their gateway's, or dialled over Modbus TCP), one poller
 * per slave (slave-poller.ts), values into telemetry, liveness into the device state, and writes
 * (the console's write action and ATTRIBUTE / SERVICE commands).
 */
import type { FastifyBaseLogger } from 'fastify';
import { modbusExceptions, type ModbusWriteResult, type PointOutcome, type TcpLink } from '../../contract/modbus.ts';
import { ATTRIBUTE_RPC_METHOD } from '../../contract/command.ts';
import type { Language } from '../../contract/languages.ts';
import type { Services } from '../../module.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { translate } from '../../lib/messages.ts';
import type { TcpDevice } from '../device/tcp-device.ts';
import type { TelemetryRow } from '../telemetry/telemetry-rows.ts';
import { DtuLink } from './dtu-link.ts';
import type { ModbusLink } from './modbus-link.ts';
import { ModbusTcpLink } from './modbus-tcp-link.ts';
import { writeCoilRequest, writeRegistersRequest } from './modbus-pdu.ts';
import { encodePoint, type PointValue } from './point-codec.ts';
import type { PlanPoint } from './request-plan.ts';
import { outcomeOf, SlavePoller, zeroCounters, type SlaveSettings } from './slave-poller.ts';

/** How long a slave has to answer one request (default; tests and the bench may change it). */
export const MODBUS_TIMEOUT_MS = 1_000;
/** The same problem of one slave is logged at most this often (counted always). */
const PROBLEM_LOG_MS = 60_000;
/** Slaves and links are checked against the devices this often, and on every connection change. */
const RECONCILE_MS = 5_000;

export interface ModbusMasterDeps extends Pick<Services, 'telemetry' | 'thingModels' | 'transport' | 'tcpAccess'> {
  log: FastifyBaseLogger;
  bus: Pick<EventBus, 'emit' | 'on'>;
  timeoutMs?: number;
}

const writeOperations = new Set(['COIL_WRITE', 'COIL_READ_WRITE', 'HOLDING_REGISTER_WRITE', 'HOLDING_REGISTER_READ_WRITE']);

/** A slave's unit id: its address code, 1 when it has none. */
function unitOf(device: TcpDevice): number {
  return device.addressCode ? Number.parseInt(device.addressCode, 16) : 1;
}

/** Words for an outcome (exception codes by name), in `lang`. */
export function outcomeMessage(lang: Language, outcome: PointOutcome, exceptionCode: number | null): string {
  if (outcome !== 'EXCEPTION') return translate(lang, `error.modbus.outcome.${outcome}`);
  const name = modbusExceptions[exceptionCode as keyof typeof modbusExceptions];
  return name ? translate(lang, `error.modbus.exception.${name}`) : translate(lang, 'error.modbus.exception.UNKNOWN', { code: exceptionCode ?? 0 });
}

export class ModbusMaster {
  readonly pollers = new Map<string, SlavePoller>();
  private readonly links = new Map<string, ModbusLink>();
  private readonly offs: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: ModbusMasterDeps) {}

  start(): void {
    const { tcpAccess, transport, bus } = this.deps;
    const reconcile = () => this.reconcile();
    this.offs.push(
      tcpAccess.connections.onConnection(reconcile),
      // The TCP access module's listeners run first (it was built first): its device list is fresh.
      bus.on('device.created', reconcile),
      bus.on('device.updated', reconcile),
      bus.on('device.deleted', reconcile),
      bus.on('thingModel.published', reconcile),
      transport.addDeliveryPath((deviceId, requestId, method, params) => this.deliver(deviceId, requestId, method, params)),
    );
    this.timer = setInterval(() => this.reconcile(), RECONCILE_MS);
    this.timer.unref();
    this.reconcile();
  }

  close(): void {
    for (const off of this.offs.splice(0)) off();
    if (this.timer) clearInterval(this.timer);
    for (const poller of this.pollers.values()) poller.stop();
    this.pollers.clear();
    for (const link of this.links.values()) link.close();
    this.links.clear();
  }

  /** Modbus points of a product's published model. */
  points(deviceProfileId: string): PlanPoint[] {
    const model = this.deps.thingModels.getPublished(deviceProfileId);
    if (!model) return [];
    return model.properties.filter((p) => p.extensionDesc).map((p) => ({ identifier: p.identifier, descriptor: p.extensionDesc! }));
  }

  /** Brings slaves and links in line with the devices and connections now. */
  reconcile(): void {
    const { tcpAccess } = this.deps;
    const wanted = new Map<string, { device: TcpDevice; linkKey: string; makeLink: () => ModbusLink }>();
    const devices = tcpAccess.devices();
    for (const device of devices) {
      if (device.tcpProtocolType !== 'MODBUS_RTU' || device.deviceType === 'GATEWAY') continue;
      if (device.modbusTcp) {
        const target = device.modbusTcp;
        wanted.set(device.id, { device, linkKey: `tcp:${device.id}:${target.host}:${target.port}`, makeLink: () => new ModbusTcpLink(target) });
        continue;
      }
      const carrier = tcpAccess.connections.get(device.id) ? device.id : device.gatewayId && tcpAccess.connections.get(device.gatewayId) ? device.gatewayId : null;
      if (!carrier) continue;
      const since = tcpAccess.connections.get(carrier)!.connectedSince;
      wanted.set(device.id, { device, linkKey: `dtu:${carrier}:${since}`, makeLink: () => new DtuLink(tcpAccess.connections, carrier) });
    }
    for (const [id, poller] of this.pollers) {
      if (!wanted.has(id)) {
        poller.stop();
        this.pollers.delete(id);
      }
    }
    const usedLinks = new Set<string>();
    for (const [id, { device, linkKey, makeLink }] of wanted) {
      usedLinks.add(linkKey);
      let link = this.links.get(linkKey);
      if (!link) {
        link = makeLink();
        this.links.set(linkKey, link);
      }
      const settings = this.settingsOf(device);
      const poller = this.pollers.get(id);
      if (!poller) {
        const created = new SlavePoller({
          deviceId: id,
          link,
          settings,
          events: {
            values: (rows, ts) => this.store(device, rows, ts),
            alive: (alive) => {
              this.deps.transport.holdOnline(id, alive);
              if (!alive) this.deps.log.warn({ deviceId: id }, 'Modbus slave stopped answering; OFFLINE, retried with backoff');
            },
            problem: (kind, detail) => this.logProblem(id, kind, detail),
          },
        });
        this.pollers.set(id, created);
        created.start();
      } else {
        poller.link = link;
        if (!sameSettings(poller.settings, settings)) poller.settings = settings;
      }
    }
    for (const [key, link] of this.links) {
      if (!usedLinks.has(key)) {
        link.close();
        this.links.delete(key);
      }
    }
  }

  /** The link view of `deviceId` (server/contract/modbus.ts, `TcpLinkSchema`). */
  linkView(deviceId: string): TcpLink {
    const { tcpAccess } = this.deps;
    const device = tcpAccess.devices().find((d) => d.id === deviceId);
    const poller = this.pollers.get(deviceId);
    const own = tcpAccess.connections.get(deviceId);
    const carrierId = own ? deviceId : device?.gatewayId && tcpAccess.connections.get(device.gatewayId) ? device.gatewayId : null;
    const connection = carrierId ? tcpAccess.connections.get(carrierId) : undefined;
    const frames = tcpAccess.connections.frameStats(deviceId);
    const counters = poller ? { ...poller.counters } : zeroCounters();
    if (!poller) counters.framesIn = frames.framesIn;
    const registration = connection?.registration;
    const mode = !device ? null : device.modbusTcp && device.tcpProtocolType === 'MODBUS_RTU' ? 'MODBUS_TCP' : 'DTU';
    return {
      mode,
      connected: mode === 'MODBUS_TCP' ? (poller?.link.connected ?? false) : connection !== undefined,
      remoteAddress: mode === 'MODBUS_TCP' ? (poller?.link.remoteAddress ?? null) : (connection?.remoteAddress ?? null),
      registration: registration ? (/^[\x20-\x7E]+$/.test(registration.toString('latin1')) ? registration.toString('latin1') : registration.toString('hex').toUpperCase()) : null,
      carrierDeviceId: carrierId && carrierId !== deviceId ? carrierId : null,
      connectedSince: mode === 'MODBUS_TCP' ? (poller?.link.connectedSince ?? null) : (connection?.connectedSince ?? null),
      lastFrameHex: poller?.lastFrameHex ?? frames.lastFrameHex,
      lastFrameTs: poller?.lastFrameTs ?? frames.lastFrameTs,
      lastAnswerTs: poller?.lastAnswerTs ?? null,
      backoffUntil: poller?.backoffUntil ?? null,
      counters,
    };
  }

  /** Writes `value` to point `identifier` of a slave; the caller checked the point is writable. */
  async write(deviceId: string, point: PlanPoint, value: PointValue): Promise<{ outcome: PointOutcome; functionCode: number; exceptionCode: number | null } | 'invalid'> {
    const encoded = encodePoint(point.descriptor, value);
    if (!encoded) return 'invalid';
    const address = point.descriptor.registerAddress;
    const pdu = 'coil' in encoded ? writeCoilRequest(address, encoded.coil) : writeRegistersRequest(address, encoded.registers);
    const functionCode = pdu[0]!;
    const poller = this.pollers.get(deviceId);
    if (!poller) return { outcome: 'NOT_CONNECTED', functionCode, exceptionCode: null };
    const result = await poller.transact(pdu);
    return { outcome: outcomeOf(result), functionCode, exceptionCode: result.kind === 'exception' ? result.code : null };
  }

  writeResult(lang: Language, identifier: string, r: { outcome: PointOutcome; functionCode: number; exceptionCode: number | null }): ModbusWriteResult {
    return { identifier, ...r, message: outcomeMessage(lang, r.outcome, r.exceptionCode) };
  }

  /**
   * The command delivery path: an ATTRIBUTE command (`setAttributes` with `{ identifier: value }`)
   * or a SERVICE command whose inputs name writable points, to a slave this master polls, becomes
   * one write per point. All confirmed: delivered and answered with each point's outcome; any
   * refused or unanswered: failed, with the words for each outcome.
   */
  private deliver(deviceId: string, requestId: number, method: string, params: unknown): boolean {
    const poller = this.pollers.get(deviceId);
    if (!poller || typeof params !== 'object' || params === null || Array.isArray(params)) return false;
    const device = this.deps.tcpAccess.devices().find((d) => d.id === deviceId);
    if (!device) return false;
    const points = this.points(device.deviceProfileId);
    const writes = Object.entries(params as Record<string, unknown>).map(([identifier, value]) => ({
      point: points.find((p) => p.identifier === identifier && writeOperations.has(p.descriptor.operationType)),
      identifier,
      value,
    }));
    if (method !== ATTRIBUTE_RPC_METHOD && !writes.some((w) => w.point)) return false;
    void (async () => {
      // After the command service has marked the request SENT (it calls this path first).
      await new Promise((resolve) => setImmediate(resolve));
      const answer: Record<string, string> = {};
      let ok = true;
      for (const w of writes) {
        const value = w.value;
        const fits = typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string';
        const r = w.point && fits ? await this.write(deviceId, w.point, value) : 'invalid';
        if (r === 'invalid') {
          ok = false;
          answer[w.identifier] = translate('en_US', w.point ? 'error.modbus.valueInvalid' : 'error.modbus.unknownPoint', { identifier: w.identifier, type: w.point?.descriptor.originalDataType ?? '' });
          continue;
        }
        if (r.outcome !== 'OK') ok = false;
        answer[w.identifier] = outcomeMessage('en_US', r.outcome, r.exceptionCode);
      }
      const { bus } = this.deps;
      if (ok) {
        bus.emit('device.rpcDelivered', { deviceId, requestId });
        bus.emit('device.rpcResponse', { deviceId, requestId, payload: answer });
      } else bus.emit('device.rpcFailed', { deviceId, requestId, payload: answer });
    })();
    return true;
  }

  /** Last log time per slave and kind: a slave sending garbage every second logs once a minute. */
  private readonly logged = new Map<string, number>();

  private logProblem(deviceId: string, kind: PointOutcome, detail: Record<string, unknown>): void {
    const key = `${deviceId}:${kind}`;
    const now = Date.now();
    if (now - (this.logged.get(key) ?? 0) < PROBLEM_LOG_MS) return;
    this.logged.set(key, now);
    this.deps.log.warn({ deviceId, kind, ...detail }, 'Modbus request failed (counted on the device page)');
  }

  private settingsOf(device: TcpDevice): SlaveSettings {
    return {
      unit: unitOf(device),
      pollIntervalMs: device.pollIntervalMs,
      gapMax: device.modbusGapMax,
      points: this.points(device.deviceProfileId),
      timeoutMs: this.deps.timeoutMs ?? MODBUS_TIMEOUT_MS,
    };
  }

  private store(device: TcpDevice, values: { key: string; value: PointValue }[], ts: number): void {
    const rows: TelemetryRow[] = values.map((v) => ({ ts, key: v.key, value: v.value }));
    try {
      this.deps.telemetry.storeTelemetry(device, rows, 0, (err) => {
        if (err) this.deps.log.warn({ deviceId: device.id, err }, 'Modbus values not stored');
      });
    } catch (err) {
      this.deps.log.warn({ deviceId: device.id, err }, 'Modbus values refused');
    }
  }
}

function sameSettings(a: SlaveSettings, b: SlaveSettings): boolean {
  return (
    a.unit === b.unit &&
    a.pollIntervalMs === b.pollIntervalMs &&
    a.gapMax === b.gapMax &&
    a.timeoutMs === b.timeoutMs &&
    a.points.length === b.points.length &&
    a.points.every((p, i) => p.identifier === b.points[i]!.identifier && JSON.stringify(p.descriptor) === JSON.stringify(b.points[i]!.descriptor))
  );
}
