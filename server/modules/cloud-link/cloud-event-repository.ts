/** SQL of `cloud_event` (migration 0020) only: camelCase rows in, snake_case columns out. */
import type { StatementSync } from 'node:sqlite';
import type { CloudEntityType, CloudEvent, CloudEventKind, CloudEventQuery, CloudEventStatus } from '../../contract/cloud-link.ts';
import { pageWindow, Where } from '../../db/list-query.ts';
import { transaction, type Db } from '../../db/sqlite.ts';

export interface CloudEventRow {
  id: string;
  entityId: string;
  entityName: string;
  entityType: CloudEntityType;
  event: CloudEventKind;
  topic: string;
  body: string;
  status: CloudEventStatus;
  reason: string | null;
  createdTime: number;
  deployedTime: number | null;
}

interface Record_ {
  id: string;
  entity_id: string;
  entity_name: string;
  entity_type: string;
  event: string;
  topic: string;
  body: string;
  status: string;
  reason: string | null;
  created_time: number;
  deployed_time: number | null;
  seq: number;
}

function rowOf(r: Record_): CloudEventRow & { seq: number } {
  return {
    id: r.id,
    entityId: r.entity_id,
    entityName: r.entity_name,
    entityType: r.entity_type as CloudEntityType,
    event: r.event as CloudEventKind,
    topic: r.topic,
    body: r.body,
    status: r.status as CloudEventStatus,
    reason: r.reason,
    createdTime: r.created_time,
    deployedTime: r.deployed_time,
    seq: r.seq,
  };
}

export function viewOf(row: CloudEventRow): CloudEvent {
  return {
    id: row.id,
    entityName: row.entityName,
    entityType: row.entityType,
    event: row.event,
    status: row.status,
    ...(row.reason !== null ? { reason: row.reason } : {}),
    createdTime: row.createdTime,
    ...(row.deployedTime !== null ? { deployedTime: row.deployedTime } : {}),
  };
}

export class CloudEventRepository {
  private readonly insertStatement: StatementSync;
  private readonly pendingStatement: StatementSync;
  private readonly deployStatement: StatementSync;
  private readonly failStatement: StatementSync;

  constructor(private readonly db: Db) {
    this.insertStatement = db.prepare(
      `INSERT INTO cloud_event (id, entity_id, entity_name, entity_type, event, topic, body, status, reason, created_time, deployed_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'PENDING', NULL, ?, NULL)`,
    );
    this.pendingStatement = db.prepare("SELECT *, rowid AS seq FROM cloud_event WHERE status = 'PENDING' AND rowid > ? ORDER BY rowid LIMIT ?");
    this.deployStatement = db.prepare("UPDATE cloud_event SET status = 'DEPLOYED', deployed_time = ? WHERE id = ? AND status = 'PENDING'");
    this.failStatement = db.prepare("UPDATE cloud_event SET status = 'FAILED', reason = ? WHERE id = ? AND status = 'PENDING'");
  }

  insert(row: Omit<CloudEventRow, 'status' | 'reason' | 'deployedTime'>): void {
    this.insertStatement.run(row.id, row.entityId, row.entityName, row.entityType, row.event, row.topic, row.body, row.createdTime);
  }

  /** PENDING events after `afterSeq` (rowid: creation order), oldest first. */
  pending(afterSeq: number, limit: number): (CloudEventRow & { seq: number })[] {
    return (this.pendingStatement.all(afterSeq, limit) as unknown as Record_[]).map(rowOf);
  }

  deployed(id: string, time: number): void {
    this.deployStatement.run(time, id);
  }

  failed(id: string, reason: string): void {
    this.failStatement.run(reason, id);
  }

  find(id: string): CloudEventRow | null {
    const r = this.db.prepare('SELECT *, rowid AS seq FROM cloud_event WHERE id = ?').get(id) as Record_ | undefined;
    return r ? rowOf(r) : null;
  }

  /**
   * A FAILED event goes to the end of the line: the largest rowid, PENDING again. One transaction:
   * a crash between the two must not lose it. The sender's rowid cursor lives in memory only and
   * is reset by the retry (`CloudEventSender.retried`), so the rowid SQLite may hand out again here
   * (when this was the newest event) is never behind it; PENDING rows are the durable backlog.
   */
  requeue(row: CloudEventRow): void {
    transaction(this.db, () => {
      this.db.prepare('DELETE FROM cloud_event WHERE id = ?').run(row.id);
      this.insert(row);
    });
  }

  page(query: CloudEventQuery): { items: CloudEventRow[]; total: number } {
    const where = new Where();
    if (query.status) where.add('status = ?', query.status);
    if (query.entityType) where.add('entity_type = ?', query.entityType);
    if (query.startTime !== undefined) where.add('created_time >= ?', query.startTime);
    if (query.endTime !== undefined) where.add('created_time <= ?', query.endTime);
    const { limit, offset } = pageWindow(query.page ?? 1, query.pageSize ?? 10);
    const items = this.db
      .prepare(`SELECT *, rowid AS seq FROM cloud_event ${where.sql} ORDER BY created_time DESC, rowid DESC LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as Record_[];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM cloud_event ${where.sql}`).get(...where.params) as { total: number };
    return { items: items.map(rowOf), total };
  }

  /** PENDING events, through the partial index of migration 0020. */
  pendingCount(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM cloud_event WHERE status = 'PENDING'").get() as { n: number }).n;
  }

  counts(): Record<CloudEventStatus, number> {
    const counts: Record<CloudEventStatus, number> = { PENDING: 0, DEPLOYED: 0, FAILED: 0 };
    for (const r of this.db.prepare('SELECT status, COUNT(*) AS n FROM cloud_event GROUP BY status').all() as { status: CloudEventStatus; n: number }[]) {
      counts[r.status] = r.n;
    }
    return counts;
  }
}
