/**
 * SQL for `audit_log`; rows are inserted in time order, so the rowid is the age order too (a
 * refusal count keeps the rowid of its first attempt).
 */
import type { AuditLog, AuditLogQuery } from '../../contract/audit-log.ts';
import type { Db } from '../../db/sqlite.ts';
import { containsPattern, orderBy, pageWindow, Where } from '../../db/list-query.ts';

interface AuditLogRecord {
  id: string;
  time: number;
  user_id: string | null;
  username: string | null;
  action: string;
  operation: string | null;
  summary: string | null;
  entity_id: string | null;
  status_code: number | null;
  source_address: string;
  attempts: number;
}

function toAuditLog(r: AuditLogRecord): AuditLog {
  return {
    id: r.id,
    time: r.time,
    userId: r.user_id,
    username: r.username,
    action: r.action,
    operation: r.operation,
    summary: r.summary,
    entityId: r.entity_id,
    statusCode: r.status_code,
    sourceAddress: r.source_address,
    attempts: r.attempts,
  };
}

export class AuditLogRepository {
  constructor(private readonly db: Db) {}

  insert(row: Omit<AuditLog, 'attempts'>): void {
    this.db
      .prepare(
        `INSERT INTO audit_log (id, time, user_id, username, action, operation, summary, entity_id, status_code, source_address)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(row.id, row.time, row.userId, row.username, row.action, row.operation, row.summary, row.entityId, row.statusCode, row.sourceAddress);
  }

  /** One more refused attempt of `username` from `sourceAddress` in the window starting at `windowStart`. */
  countRefusal(row: Omit<AuditLog, 'attempts'>, windowStart: number): void {
    this.db
      .prepare(
        `INSERT INTO audit_log (id, time, user_id, username, action, operation, summary, entity_id, status_code, source_address, attempts, window_start)
         VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL, NULL, ?, 1, ?)
         ON CONFLICT (action, username, source_address, window_start) WHERE window_start IS NOT NULL
         DO UPDATE SET attempts = attempts + 1, time = excluded.time, user_id = COALESCE(excluded.user_id, user_id)`,
      )
      .run(row.id, row.time, row.userId, row.username, row.action, row.sourceAddress, windowStart);
  }

  page(query: AuditLogQuery): { items: AuditLog[]; total: number } {
    const where = new Where();
    if (query.userId) where.add('user_id = ?', query.userId);
    if (query.action) where.add("action LIKE ? ESCAPE '\\'", containsPattern(query.action));
    if (query.startTime !== undefined) where.add('time >= ?', query.startTime);
    if (query.endTime !== undefined) where.add('time <= ?', query.endTime);
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const rows = this.db
      .prepare(`SELECT * FROM audit_log ${where.sql} ${orderBy({ time: 'time' }, query.sortField, query.sortOrder, 'time DESC, rowid DESC', 'rowid')} LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as AuditLogRecord[];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM audit_log ${where.sql}`).get(...where.params) as { total: number };
    return { items: rows.map(toAuditLog), total };
  }

  /**
   * Deletes rows older than `before`, then all but the newest `keep` events and the newest
   * `keepRefusals` refusal counts, each class on its own; answers how many went.
   */
  prune(before: number, keep: number, keepRefusals: number): number {
    const old = Number(this.db.prepare('DELETE FROM audit_log WHERE time < ?').run(before).changes);
    return old + this.pruneClass('window_start IS NULL', keep) + this.pruneClass('window_start IS NOT NULL', keepRefusals);
  }

  private pruneClass(where: string, keep: number): number {
    const cut = this.db.prepare(`SELECT rowid AS id FROM audit_log WHERE ${where} ORDER BY rowid DESC LIMIT 1 OFFSET ?`).get(keep) as { id: number } | undefined;
    return cut ? Number(this.db.prepare(`DELETE FROM audit_log WHERE ${where} AND rowid <= ?`).run(cut.id).changes) : 0;
  }
}
