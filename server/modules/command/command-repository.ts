/** SQL for `device_command` (migrations 0006 and 0008), camelCase ⇄ snake_case. */
import type { StatementSync } from 'node:sqlite';
import type {
  CommandSource,
  Command,
  CommandCallType,
  CommandFormat,
  CommandListQuery,
  CommandPage,
  CommandResponseType,
  CommandStatus,
  CommandType,
  CommandWay,
} from '../../contract/command.ts';
import type { Db } from '../../db/sqlite.ts';
import { pageWindow, Where } from '../../db/list-query.ts';

interface CommandRecord {
  id: string;
  device_id: string;
  request_id: number;
  command_type: CommandType;
  call_type: CommandCallType;
  way: CommandWay;
  format: CommandFormat;
  content: string;
  method: string;
  params: string;
  status: CommandStatus;
  response_type: CommandResponseType | null;
  response_content: string | null;
  timeout_ms: number;
  expires_time: number | null;
  deadline_time: number | null;
  create_time: number;
  sent_time: number | null;
  delivered_time: number | null;
  responded_time: number | null;
  update_time: number;
  source: CommandSource;
}

/** A command with what the service needs besides the record: the RPC and the answer deadline. */
export interface CommandRow extends Command {
  method: string;
  /** JSON text of the RPC params. */
  params: string;
  deadlineTime: number | null;
}

function toRow(r: CommandRecord): CommandRow {
  return {
    id: r.id,
    deviceId: r.device_id,
    requestId: r.request_id,
    commandType: r.command_type,
    callType: r.call_type,
    way: r.way,
    format: r.format,
    content: r.content,
    method: r.method,
    params: r.params,
    status: r.status,
    responseType: r.response_type,
    responseContent: r.response_content,
    timeoutMs: r.timeout_ms,
    expiresTime: r.expires_time,
    deadlineTime: r.deadline_time,
    createdTime: r.create_time,
    sentTime: r.sent_time,
    deliveredTime: r.delivered_time,
    respondedTime: r.responded_time,
    updatedTime: r.update_time,
    source: r.source,
  };
}

/** The record as the API answers it (without the RPC internals). */
export function toCommand(row: CommandRow): Command {
  const { method: _method, params: _params, deadlineTime: _deadline, ...command } = row;
  return command;
}

/** Fields a status change may set. */
export type CommandChange = Partial<
  Pick<CommandRow, 'status' | 'responseType' | 'responseContent' | 'sentTime' | 'deliveredTime' | 'respondedTime' | 'deadlineTime'>
>;

const changeColumns: Record<keyof CommandChange, string> = {
  status: 'status',
  responseType: 'response_type',
  responseContent: 'response_content',
  sentTime: 'sent_time',
  deliveredTime: 'delivered_time',
  respondedTime: 'responded_time',
  deadlineTime: 'deadline_time',
};

/** A two-way command out with the device whose answer is still awaited (only those have a deadline). */
const AWAITING_ANSWER = "status IN ('SENT', 'DELIVERED') AND deadline_time IS NOT NULL";

export class CommandRepository {
  private readonly insertStatement: StatementSync;
  private readonly findStatement: StatementSync;

  constructor(private readonly db: Db) {
    this.insertStatement = db.prepare(
      `INSERT INTO device_command (id, device_id, request_id, command_type, call_type, way, format, content, method, params,
         status, response_type, response_content, timeout_ms, expires_time, deadline_time, create_time, sent_time,
         delivered_time, responded_time, update_time, source)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.findStatement = db.prepare('SELECT * FROM device_command WHERE id = ?');
  }

  insert(c: CommandRow): void {
    this.insertStatement.run(
      c.id, c.deviceId, c.requestId, c.commandType, c.callType, c.way, c.format, c.content, c.method, c.params,
      c.status, c.responseType, c.responseContent, c.timeoutMs, c.expiresTime, c.deadlineTime, c.createdTime, c.sentTime,
      c.deliveredTime, c.respondedTime, c.updatedTime, c.source,
    );
  }

  findById(id: string): CommandRow | undefined {
    const r = this.findStatement.get(id) as CommandRecord | undefined;
    return r && toRow(r);
  }

  /**
   * Applies `change` only while the status is one of `from` (a late timer or answer must not
   * overwrite an outcome already recorded); true when it did.
   */
  transition(id: string, from: readonly CommandStatus[], change: CommandChange, time: number): boolean {
    const entries = Object.entries(change) as [keyof CommandChange, unknown][];
    const sets = entries.map(([k]) => `${changeColumns[k]} = ?`);
    const result = this.db
      .prepare(
        `UPDATE device_command SET ${[...sets, 'update_time = ?'].join(', ')}
         WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})`,
      )
      .run(...(entries.map(([, v]) => v) as (string | number | null)[]), time, id, ...from);
    return Number(result.changes) === 1;
  }

  page(deviceId: string, query: CommandListQuery): CommandPage {
    const where = new Where().add('device_id = ?', deviceId);
    if (query.status) where.add('status = ?', query.status);
    if (query.commandType) where.add('command_type = ?', query.commandType);
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const rows = this.db
      .prepare(`SELECT * FROM device_command ${where.sql} ORDER BY create_time DESC, rowid DESC LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as CommandRecord[];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM device_command ${where.sql}`).get(...where.params) as {
      total: number;
    };
    return { items: rows.map((r) => toCommand(toRow(r))), total };
  }

  /** QUEUED commands of a device, oldest first: the order they go out in. */
  queued(deviceId: string): CommandRow[] {
    const rows = this.db
      .prepare("SELECT * FROM device_command WHERE status = 'QUEUED' AND device_id = ? ORDER BY create_time, rowid")
      .all(deviceId) as unknown as CommandRecord[];
    return rows.map(toRow);
  }

  /** QUEUED commands and SENT or DELIVERED ones awaiting an answer, of every device (re-armed at start). */
  pending(): CommandRow[] {
    const rows = this.db
      .prepare(`SELECT * FROM device_command WHERE status = 'QUEUED' OR (${AWAITING_ANSWER})`)
      .all() as unknown as CommandRecord[];
    return rows.map(toRow);
  }

  countPending(deviceId: string): number {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS n FROM device_command
         WHERE device_id = ? AND (status = 'QUEUED' OR (${AWAITING_ANSWER}))`,
      )
      .get(deviceId) as { n: number };
    return row.n;
  }

  /** The SENT or DELIVERED two-way command a device answers with `requestId`. */
  awaitingAnswer(deviceId: string, requestId: number): CommandRow | undefined {
    return this.latestWith(deviceId, requestId, AWAITING_ANSWER);
  }

  /** The SENT command (one-way or two-way) whose request `requestId` a device acknowledged. */
  awaitingDelivery(deviceId: string, requestId: number): CommandRow | undefined {
    return this.latestWith(deviceId, requestId, "status = 'SENT'");
  }

  /** Request ids wrap, so the newest command of that id is the one meant. */
  private latestWith(deviceId: string, requestId: number, condition: string): CommandRow | undefined {
    const r = this.db
      .prepare(`SELECT * FROM device_command WHERE device_id = ? AND request_id = ? AND ${condition} ORDER BY create_time DESC LIMIT 1`)
      .get(deviceId, requestId) as CommandRecord | undefined;
    return r && toRow(r);
  }

  maxRequestId(): number {
    return (this.db.prepare('SELECT COALESCE(MAX(request_id), 0) AS n FROM device_command').get() as { n: number }).n;
  }
}
