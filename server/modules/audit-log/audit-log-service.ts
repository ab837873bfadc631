/**
 * The audit log: rows for sign-ins (from the `auth.signIn` event) and for every successful change a
 * signed-in user makes over HTTP (audit-hooks.ts), kept within a row cap and an age.
 */
import { auditSignIn, auditSignInFailed, type AuditLog, type AuditLogQuery } from '../../contract/audit-log.ts';
import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../../lib/ids.ts';
import type { AuditLogRepository } from './audit-log-repository.ts';

/**
 * Retention: the newest rows up to the cap, none older than the age. Refused sign-ins are counted
 * per typed account, source address and window, and kept under a cap of their own, so that no
 * number of anonymous attempts evicts the rows of what signed-in users did.
 */
export interface AuditRetention {
  maxRows: number;
  maxAgeDays: number;
  /** Refusal counts kept (one per account, address and window). */
  maxRefusalRows: number;
  /** Length of the window refused sign-ins are counted in. */
  refusalWindowMs: number;
}

export const defaultAuditRetention: AuditRetention = { maxRows: 100_000, maxAgeDays: 180, maxRefusalRows: 20_000, refusalWindowMs: 60 * 60 * 1000 };

const DAY_MS = 24 * 60 * 60 * 1000;

export type AuditEntry = Omit<AuditLog, 'id' | 'time' | 'attempts'>;

/** Pruning is cheap (two indexed deletes); hourly keeps the table near its cap. */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export class AuditLogService {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly rows: AuditLogRepository,
    private readonly retention: AuditRetention & { pruneIntervalMs?: number },
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  /** Prunes now and then every interval, in the background. */
  startPruning(): void {
    const prune = (): void => {
      try {
        this.prune();
      } catch (err) {
        this.log.error({ err }, 'audit log prune failed');
      }
    };
    prune();
    this.timer = setInterval(prune, this.retention.pruneIntervalMs ?? PRUNE_INTERVAL_MS);
    this.timer.unref();
  }

  stopPruning(): void {
    clearInterval(this.timer);
  }

  record(entry: AuditEntry): void {
    this.rows.insert({ id: newId(), time: Date.now(), ...entry });
  }

  recordSignIn(event: { ok: boolean; username: string; userId: string | null; ip: string }): void {
    const entry = { userId: event.userId, username: event.username, operation: null, summary: null, entityId: null, statusCode: null, sourceAddress: event.ip };
    if (event.ok) {
      this.record({ ...entry, action: auditSignIn });
      return;
    }
    const time = Date.now();
    const windowStart = time - (time % this.retention.refusalWindowMs);
    this.rows.countRefusal({ id: newId(), time, ...entry, action: auditSignInFailed }, windowStart);
  }

  page(query: AuditLogQuery): { items: AuditLog[]; total: number } {
    return this.rows.page(query);
  }

  /** Applies the retention now; answers how many rows went. */
  prune(now = Date.now()): number {
    return this.rows.prune(now - this.retention.maxAgeDays * DAY_MS, this.retention.maxRows, this.retention.maxRefusalRows);
  }
}
