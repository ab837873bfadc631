/**
 * Command delivery (rules in server/contract/command.ts): records every command, sends it as an
 * RPC when the device is online (or when it next connects, for ASYNC commands), records the
 * device's acknowledgement (DELIVERED) and answer, and times out, expires or withdraws what is
 * left waiting. Timers live in memory and are re-armed from the table at start, so a restart loses
 * no deadline. Every change of a record is announced as `command.changed` (the live command list).
 *
 * Statuses only move forward: each change names the statuses it may leave (`transition`), so an
 * acknowledgement that arrives after the answer, or a timer that fires after either, changes nothing.
 */
import {
  COMMAND_QUEUE_MAX,
  COMMAND_TIMEOUT_DEFAULT_MS,
  COMMAND_TTL_DEFAULT_MS,
  REBOOT_RPC_METHOD,
  type Command,
  type CommandBody,
  type CommandListQuery,
  type CommandPage,
  type CommandStatus,
} from '../../contract/command.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type { Device } from '../../contract/device.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/sqlite.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Announce, EventBus } from '../../lib/event-bus.ts';
import { notFound } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import { prepareCommand, type CommandModelChecks } from './command-content.ts';
import { CommandRepository, toCommand, type CommandChange, type CommandRow } from './command-repository.ts';

/** What commands need from the device transport (server/modules/transport). */
export interface CommandTransport {
  isOnline(deviceId: string): boolean;
  /** Publishes the RPC request; false when the device is not connected. */
  sendRpc(deviceId: string, requestId: number, method: string, params: unknown): boolean;
}

export interface CommandServiceDeps {
  db: Db;
  bus: EventBus;
  devices: { get(id: string): Device };
  transport: CommandTransport;
  models: CommandModelChecks;
  log: FastifyBaseLogger;
}

/** RPC request ids wrap before leaving int32, as ThingsBoard's do. */
const REQUEST_ID_MAX = 2_147_483_647;
const RESPONSE_MAX = 64 * 1024;

function answerOf(payload: unknown): { responseType: 'JSON' | 'TEXT'; responseContent: string } {
  if (Buffer.isBuffer(payload)) payload = payload.toString('utf8');
  if (typeof payload === 'string') return { responseType: 'TEXT', responseContent: payload.slice(0, RESPONSE_MAX) };
  return { responseType: 'JSON', responseContent: (JSON.stringify(payload) ?? 'null').slice(0, RESPONSE_MAX) };
}

export class CommandService {
  private readonly rows: CommandRepository;
  private lastRequestId: number;
  /** Command id → its expiry (QUEUED) or answer deadline (SENT two-way). */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Command id → SYNC callers waiting for the outcome (undefined: the device and its commands went). */
  private readonly waiters = new Map<string, ((row: CommandRow | undefined) => void)[]>();
  private readonly unsubscribe: (() => void)[];
  /** A live view's failure must not undo a status change nor stop the delivery under way. */
  private readonly announce: Announce;

  constructor(private readonly deps: CommandServiceDeps) {
    this.rows = new CommandRepository(deps.db);
    this.lastRequestId = this.rows.maxRequestId();
    this.announce = (event, payload) => deps.bus.emit(event, payload);
    this.unsubscribe = [
      deps.bus.on('device.rpcResponse', ({ deviceId, requestId, payload }) => this.answered(deviceId, requestId, payload)),
      deps.bus.on('device.rpcDelivered', ({ deviceId, requestId }) => this.delivered(deviceId, requestId)),
      deps.bus.on('device.rpcFailed', ({ deviceId, requestId, payload }) => this.failed(deviceId, requestId, payload)),
      deps.bus.on('device.stateChanged', ({ deviceId, state }) => {
        if (state === 'ONLINE') this.deliverQueued(deviceId);
      }),
    ];
    this.resume();
  }

  page(deviceId: string, query: CommandListQuery): CommandPage {
    this.deps.devices.get(deviceId);
    return this.rows.page(deviceId, query);
  }

  /** Records and sends a command; a SYNC call resolves with the outcome. */
  async send(deviceId: string, body: CommandBody): Promise<Command> {
    const device = this.deps.devices.get(deviceId);
    const prepared = prepareCommand(body, { id: device.deviceProfileId, transportType: device.transportType }, this.deps.models);
    const online = this.deps.transport.isOnline(deviceId);
    if (!online && body.callType === 'SYNC') throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.command.deviceOffline');
    if (this.rows.countPending(deviceId) >= COMMAND_QUEUE_MAX) {
      throw new AppError(ErrorCode.LIMIT_EXCEEDED, 'error.command.queueFull', { max: COMMAND_QUEUE_MAX });
    }
    const now = Date.now();
    const row: CommandRow = {
      id: newId(),
      deviceId,
      requestId: this.nextRequestId(),
      commandType: body.commandType,
      callType: body.callType,
      way: body.way,
      format: prepared.format,
      content: prepared.content,
      method: prepared.method,
      params: JSON.stringify(prepared.params),
      status: 'QUEUED',
      responseType: null,
      responseContent: null,
      timeoutMs: body.timeoutMs ?? COMMAND_TIMEOUT_DEFAULT_MS,
      expiresTime: body.callType === 'ASYNC' ? now + (body.ttlMs ?? COMMAND_TTL_DEFAULT_MS) : null,
      deadlineTime: null,
      createdTime: now,
      sentTime: null,
      deliveredTime: null,
      respondedTime: null,
      updatedTime: now,
    };
    this.rows.insert(row);
    this.changed(row);
    if (online) this.deliver(row);
    else this.armExpiry(row);
    const current = this.current(row.id);
    const waiting = current.status === 'SENT' || current.status === 'DELIVERED';
    if (body.callType === 'SYNC' && waiting && body.way === 'twoway') return this.outcome(row.id);
    return current;
  }

  /** The reboot button: a CUSTOM oneway SYNC command, refused while the device is offline. */
  reboot(deviceId: string): Promise<Command> {
    return this.send(deviceId, {
      commandType: 'CUSTOM',
      callType: 'SYNC',
      way: 'oneway',
      content: { method: REBOOT_RPC_METHOD, params: {} },
    });
  }

  /** A QUEUED command, or one awaiting its answer, becomes DELETED; others are answered unchanged. */
  withdraw(deviceId: string, commandId: string): Command {
    this.deps.devices.get(deviceId);
    const row = this.rows.findById(commandId);
    if (!row || row.deviceId !== deviceId) throw notFound();
    if (row.status === 'QUEUED' || ((row.status === 'SENT' || row.status === 'DELIVERED') && row.deadlineTime !== null)) {
      this.finish(row.id, [row.status], { status: 'DELETED', deadlineTime: null });
    }
    return this.current(row.id);
  }

  close(): void {
    for (const off of this.unsubscribe) off();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    // Callers still waiting get the record as it stands rather than hanging the shutdown.
    for (const id of [...this.waiters.keys()]) this.notify(id);
  }

  private nextRequestId(): number {
    this.lastRequestId = this.lastRequestId >= REQUEST_ID_MAX ? 1 : this.lastRequestId + 1;
    return this.lastRequestId;
  }

  private current(id: string): Command {
    const row = this.rows.findById(id);
    if (!row) throw notFound();
    return toCommand(row);
  }

  /** Sends a QUEUED command. A device gone meanwhile leaves an ASYNC command queued, fails a SYNC one. */
  private deliver(row: CommandRow): void {
    const sent = this.deps.transport.sendRpc(row.deviceId, row.requestId, row.method, JSON.parse(row.params) as unknown);
    const now = Date.now();
    if (!sent) {
      if (row.callType === 'SYNC') this.finish(row.id, ['QUEUED'], { status: 'FAILED' });
      else this.armExpiry(row);
      return;
    }
    this.clearTimer(row.id);
    if (row.way === 'oneway') {
      this.finish(row.id, ['QUEUED'], { status: 'SENT', sentTime: now });
      return;
    }
    const deadlineTime = now + row.timeoutMs;
    this.move(row.id, ['QUEUED'], { status: 'SENT', sentTime: now, deadlineTime });
    this.armTimer(row.id, deadlineTime, () => this.timedOut(row.id));
  }

  private timedOut(id: string): void {
    this.finish(id, ['SENT', 'DELIVERED'], { status: 'TIMEOUT', deadlineTime: null });
  }

  private deliverQueued(deviceId: string): void {
    const now = Date.now();
    for (const row of this.rows.queued(deviceId)) {
      if (row.expiresTime !== null && row.expiresTime <= now) this.finish(row.id, ['QUEUED'], { status: 'EXPIRED' });
      else this.deliver(row);
    }
  }

  private answered(deviceId: string, requestId: number, payload: unknown): void {
    const row = this.rows.awaitingAnswer(deviceId, requestId);
    // Answers to one-way, timed-out or unknown requests are ignored, as ThingsBoard does.
    if (!row) return;
    const now = Date.now();
    // An answer proves the request arrived, even when its acknowledgement has not come (yet).
    const deliveredTime = row.deliveredTime ?? now;
    this.finish(row.id, ['SENT', 'DELIVERED'], { status: 'SUCCESSFUL', ...answerOf(payload), respondedTime: now, deliveredTime, deadlineTime: null });
  }

  /** A delivery path could not carry the request out (a Modbus exception, no answer): FAILED with the reason. */
  private failed(deviceId: string, requestId: number, payload: unknown): void {
    const row = this.rows.awaitingAnswer(deviceId, requestId) ?? this.rows.awaitingDelivery(deviceId, requestId);
    if (!row) return;
    this.finish(row.id, ['SENT', 'DELIVERED'], { status: 'FAILED', ...answerOf(payload), respondedTime: Date.now(), deadlineTime: null });
  }

  /**
   * The device acknowledged the request. A two-way command goes on waiting for its answer; a
   * one-way command has nothing more to wait for and is SUCCESSFUL, as ThingsBoard marks a one-way
   * RPC once delivered. Acknowledgements of anything not SENT (answered, timed out, withdrawn) are ignored.
   */
  private delivered(deviceId: string, requestId: number): void {
    const row = this.rows.awaitingDelivery(deviceId, requestId);
    if (!row) return;
    const deliveredTime = Date.now();
    if (row.way === 'oneway') this.finish(row.id, ['SENT'], { status: 'SUCCESSFUL', deliveredTime });
    else this.move(row.id, ['SENT'], { status: 'DELIVERED', deliveredTime });
  }

  private armExpiry(row: CommandRow): void {
    if (row.expiresTime === null) return;
    this.armTimer(row.id, row.expiresTime, () => this.finish(row.id, ['QUEUED'], { status: 'EXPIRED' }));
  }

  /** Re-arms expiries and answer deadlines after a restart; those already past end now. */
  private resume(): void {
    for (const row of this.rows.pending()) {
      if (row.status === 'QUEUED') this.armExpiry(row);
      else if (row.deadlineTime !== null) this.armTimer(row.id, row.deadlineTime, () => this.timedOut(row.id));
    }
  }

  private armTimer(id: string, at: number, fire: () => void): void {
    this.clearTimer(id);
    const timer = setTimeout(() => {
      this.timers.delete(id);
      fire();
    }, Math.max(0, at - Date.now()));
    timer.unref();
    this.timers.set(id, timer);
  }

  private clearTimer(id: string): void {
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
  }

  /** Moves a command out of `from` and tells its waiters; a lost race changes nothing. */
  private finish(id: string, from: readonly CommandStatus[], change: CommandChange): void {
    if (this.move(id, from, change)) this.clearTimer(id);
    this.notify(id);
  }

  /** Applies `change` while the status is one of `from` and announces the new record; false when it lost a race. */
  private move(id: string, from: readonly CommandStatus[], change: CommandChange): boolean {
    if (!this.rows.transition(id, from, change, Date.now())) return false;
    const row = this.rows.findById(id);
    if (row) this.changed(row);
    return true;
  }

  private changed(row: CommandRow): void {
    this.announce('command.changed', { deviceId: row.deviceId, command: toCommand(row) });
  }

  private notify(id: string): void {
    const waiting = this.waiters.get(id);
    if (!waiting) return;
    const row = this.rows.findById(id);
    this.waiters.delete(id);
    for (const settle of waiting) settle(row);
  }

  private outcome(id: string): Promise<Command> {
    return new Promise((resolve, reject) => {
      const settle = (row: CommandRow | undefined): void => (row ? resolve(toCommand(row)) : reject(notFound()));
      this.waiters.set(id, [...(this.waiters.get(id) ?? []), settle]);
    });
  }
}
