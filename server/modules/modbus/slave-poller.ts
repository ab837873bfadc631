/**
 * One Modbus slave: polls its points on the product's period through its link, keeps the last
 * value and outcome of each point and the slave's counters, and reports values and liveness.
 * A slave that fails DEAD_AFTER_CYCLES cycles in a row is OFFLINE and retried with backoff
 * (doubling from the period up to BACKOFF_MAX_MS); skipped cycles send nothing, so slaves sharing
 * its DTU are not held up by its timeouts.
 */
import type { ModbusRequest, PointOutcome, TcpCounters } from '../../contract/modbus.ts';
import type { ModbusDescriptor } from '../../contract/thing-model.ts';
import type { ModbusLink, TransactResult } from './modbus-link.ts';
import { EXCEPTION_ILLEGAL_DATA_ADDRESS, readRequest } from './modbus-pdu.ts';
import { decodePoint, descriptorFits, type PointValue } from './point-codec.ts';
import { planRequests, requestKey, type PlanPoint } from './request-plan.ts';

export const DEAD_AFTER_CYCLES = 2;
export const BACKOFF_MAX_MS = 60_000;

export interface PointState {
  value: PointValue | null;
  ts: number | null;
  outcome: PointOutcome | null;
  exceptionCode: number | null;
}

export interface SlaveSettings {
  unit: number;
  pollIntervalMs: number;
  gapMax: number;
  points: readonly PlanPoint[];
  timeoutMs: number;
}

export interface SlaveEvents {
  values(rows: { key: string; value: PointValue }[], ts: number): void;
  alive(alive: boolean): void;
  /** Something went wrong that the counters count (the caller logs it, rate-limited). */
  problem(kind: PointOutcome, detail: Record<string, unknown>): void;
}

export function zeroCounters(): TcpCounters {
  return { polls: 0, answered: 0, timeouts: 0, crcErrors: 0, exceptions: 0, badFrames: 0, framesIn: 0 };
}

/** The outcome a transaction's result gives its points. */
export function outcomeOf(result: TransactResult): PointOutcome {
  switch (result.kind) {
    case 'registers':
    case 'bits':
    case 'written':
      return 'OK';
    case 'exception':
      return 'EXCEPTION';
    case 'timeout':
      return 'TIMEOUT';
    case 'crc':
      return 'CRC_ERROR';
    case 'notConnected':
      return 'NOT_CONNECTED';
    default:
      return 'BAD_FRAME';
  }
}

export class SlavePoller {
  readonly counters = zeroCounters();
  readonly points = new Map<string, PointState>();
  /** The last frame as it came; hex only when the device page asks (not on every answer). */
  private lastFrame: Buffer | null = null;
  lastFrameTs: number | null = null;
  lastAnswerTs: number | null = null;
  backoffUntil: number | null = null;
  private failedCycles = 0;
  private backoffMs = 0;
  private alive: boolean | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Requests refused with "illegal data address" that bridged a gap: planned split from now on. */
  private readonly split = new Set<string>();
  private planCache: { settings: SlaveSettings; plan: ModbusRequest[] } | null = null;
  /** The points by identifier, rebuilt when the settings' points change: looked up per point per poll. */
  private pointIndex: { points: readonly PlanPoint[]; byIdentifier: Map<string, PlanPoint> } | null = null;

  readonly deviceId: string;
  /** Replaced when the slave's link changes (modbus-master.ts); the next poll uses the new one. */
  link: ModbusLink;
  /** Replaced when the device or its product changes. */
  settings: SlaveSettings;
  private readonly events: SlaveEvents;

  constructor(deps: { deviceId: string; link: ModbusLink; settings: SlaveSettings; events: SlaveEvents }) {
    this.deviceId = deps.deviceId;
    this.link = deps.link;
    this.settings = deps.settings;
    this.events = deps.events;
  }

  get lastFrameHex(): string | null {
    return this.lastFrame ? this.lastFrame.toString('hex').toUpperCase() : null;
  }

  start(): void {
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.alive) this.events.alive(false);
    this.alive = null;
  }

  plan(): ModbusRequest[] {
    if (this.planCache?.settings !== this.settings) {
      const fitting = this.settings.points.filter((p) => descriptorFits(p.descriptor));
      for (const p of this.settings.points) {
        if (fitting.includes(p)) continue;
        // A register count that does not fit its type (stored before the rule, or imported): never read.
        this.points.set(p.identifier, { value: null, ts: null, outcome: 'BAD_DESCRIPTOR', exceptionCode: null });
        this.events.problem('BAD_DESCRIPTOR', { identifier: p.identifier });
      }
      this.planCache = { settings: this.settings, plan: planRequests(fitting, this.settings.gapMax, this.split) };
    }
    return this.planCache.plan;
  }

  /** Reads the requests feeding `identifiers` (all polled points when undefined) now. */
  async readNow(identifiers?: ReadonlySet<string>): Promise<void> {
    const requests = this.plan().filter((r) => !identifiers || r.identifiers.some((id) => identifiers.has(id)));
    await this.run(requests);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.cycle(), delay);
    this.timer.unref();
  }

  private async cycle(): Promise<void> {
    const started = Date.now();
    if (this.backoffUntil !== null && started < this.backoffUntil) {
      this.schedule(this.settings.pollIntervalMs);
      return;
    }
    const answered = await this.run(this.plan());
    if (this.stopped) return;
    if (answered || this.plan().length === 0) {
      this.failedCycles = 0;
      this.backoffMs = 0;
      this.backoffUntil = null;
    } else if (++this.failedCycles >= DEAD_AFTER_CYCLES) {
      this.backoffMs = Math.min(this.backoffMs ? this.backoffMs * 2 : this.settings.pollIntervalMs, BACKOFF_MAX_MS);
      this.backoffUntil = Date.now() + this.backoffMs;
      this.setAlive(false);
    }
    // The next cycle starts one period after this one started, or at once when it overran.
    this.schedule(Math.max(0, started + this.settings.pollIntervalMs - Date.now()));
  }

  /** Sends the requests; true when the slave answered any of them (an exception is an answer). */
  private async run(requests: readonly ModbusRequest[]): Promise<boolean> {
    const rows: { key: string; value: PointValue }[] = [];
    let answered = false;
    const ts = Date.now();
    for (const request of requests) {
      if (this.stopped) break;
      const result = await this.transact(readRequest(request.function, request.start, request.count));
      if (result.kind !== 'timeout' && result.kind !== 'notConnected' && result.kind !== 'crc') answered = true;
      if (result.kind === 'exception' && result.code === EXCEPTION_ILLEGAL_DATA_ADDRESS && this.bridges(request)) {
        // A bridged gap the slave refuses: split it, and read the parts now.
        this.split.add(requestKey(request));
        this.planCache = null;
        const parts = this.plan().filter((r) => r.identifiers.every((id) => request.identifiers.includes(id)));
        if (parts.length > 1) {
          await this.run(parts);
          continue;
        }
      }
      this.take(request, result, ts, rows);
    }
    if (answered) this.setAlive(true);
    if (rows.length) this.events.values(rows, ts);
    return answered;
  }

  /** One request on the link, counted. */
  async transact(pdu: Buffer): Promise<TransactResult> {
    this.counters.polls++;
    const result = await this.link.transact(this.settings.unit, pdu, this.settings.timeoutMs);
    if (result.dropped) this.counters.badFrames++;
    if (result.frame) {
      this.counters.framesIn++;
      this.lastFrame = result.frame;
      this.lastFrameTs = Date.now();
    }
    if (result.kind !== 'registers' && result.kind !== 'bits' && result.kind !== 'written' && result.kind !== 'notConnected') {
      this.events.problem(outcomeOf(result), { function: pdu[0], code: result.kind === 'exception' ? result.code : undefined });
    } else if (result.dropped) this.events.problem('BAD_FRAME', { dropped: result.dropped });
    switch (result.kind) {
      case 'timeout':
        this.counters.timeouts++;
        break;
      case 'crc':
        this.counters.crcErrors++;
        break;
      case 'exception':
        this.counters.exceptions++;
        this.counters.answered++;
        break;
      case 'bad':
        this.counters.badFrames++;
        break;
      case 'notConnected':
        break;
      default:
        this.counters.answered++;
    }
    if (result.kind !== 'timeout' && result.kind !== 'notConnected' && result.kind !== 'crc' && result.kind !== 'bad') {
      this.lastAnswerTs = Date.now();
    }
    return result;
  }

  private bridges(request: ModbusRequest): boolean {
    return this.split.has(requestKey(request)) ? false : this.settings.gapMax > 0 && request.identifiers.length > 1;
  }

  private take(request: ModbusRequest, result: TransactResult, ts: number, rows: { key: string; value: PointValue }[]): void {
    const outcome = outcomeOf(result);
    const { points } = this.settings;
    if (this.pointIndex?.points !== points) this.pointIndex = { points, byIdentifier: new Map(points.map((p) => [p.identifier, p])) };
    for (const identifier of request.identifiers) {
      const point = this.pointIndex.byIdentifier.get(identifier);
      if (!point) continue;
      const state: PointState = this.points.get(identifier) ?? { value: null, ts: null, outcome: null, exceptionCode: null };
      state.outcome = outcome;
      state.exceptionCode = result.kind === 'exception' ? result.code : null;
      if (result.kind === 'registers' || result.kind === 'bits') {
        const value = valueOf(point.descriptor, request, result);
        state.value = value;
        state.ts = ts;
        rows.push({ key: identifier, value });
      }
      this.points.set(identifier, state);
    }
  }

  private setAlive(alive: boolean): void {
    if (this.alive === alive) return;
    this.alive = alive;
    this.events.alive(alive);
  }
}

function valueOf(d: ModbusDescriptor, request: ModbusRequest, result: { kind: 'registers'; registers: number[] } | { kind: 'bits'; bits: boolean[] }): PointValue {
  const offset = d.registerAddress - request.start;
  if (result.kind === 'bits') return decodePoint(d, [result.bits[offset] ? 1 : 0]);
  return decodePoint(d, result.registers.slice(offset));
}
