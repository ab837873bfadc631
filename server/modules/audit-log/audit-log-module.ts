/** The audit log: who did what, when, from where; pruned in the background. */
import { defineModule } from '../../module.ts';
import m0029 from './migrations/0029-audit-log.sql';
import m0038 from './migrations/0038-audit-operation.sql';
import m0046 from './migrations/0046-audit-refusal-summary.sql';
import { AuditLogRepository } from './audit-log-repository.ts';
import { registerAuditLogRoutes } from './audit-log-routes.ts';
import { AuditLogService, defaultAuditRetention, type AuditRetention } from './audit-log-service.ts';

declare module '../../module.ts' {
  interface Services {
    auditLog: AuditLogService;
  }
  interface Tuning {
    /** Audit retention and how often it is applied (tests make both small). */
    auditLog?: Partial<AuditRetention> & { pruneIntervalMs?: number };
  }
}

export const auditLogModule = defineModule({
  name: 'audit-log',
  needs: [],
  migrations: [
    { name: '0029-audit-log', sql: m0029 },
    { name: '0038-audit-operation', sql: m0038 },
    { name: '0046-audit-refusal-summary', sql: m0046 },
  ],
  apiTags: { auditLog: 'Audit log: sign-ins and changes, with user, time and source address' },
  build: ({ core, tuning, log }) => {
    const auditLog = new AuditLogService(new AuditLogRepository(core.db), { ...defaultAuditRetention, ...tuning.auditLog }, log);
    core.bus.on('auth.signIn', (event) => auditLog.recordSignIn(event));
    return { auditLog };
  },
  routes: registerAuditLogRoutes,
  start: ({ auditLog }) => auditLog.startPruning(),
  close: ({ auditLog }) => auditLog.stopPruning(),
});
