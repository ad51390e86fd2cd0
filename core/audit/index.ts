import type { Database } from '../db/database.ts';
import { defineModule } from '../modules/define-module.ts';
import { readAudit, type AuditQuery } from './audit.ts';
import { auditRoutes } from './audit-routes.ts';

export { audit, CLI, SYSTEM, type Actor, type AuditEntry } from './audit.ts';

/** Reading the audit log (writing it is `audit(tx, actor, entry)`, inside each change's transaction). */
export interface AuditLog {
  read(q: AuditQuery): ReturnType<typeof readAudit>;
}

/** The audit log (contract §3): who did what, readable over `GET /audit-log` with `bill_view_audit_log`. */
export const auditModule = defineModule({
  name: 'audit',
  services: (ctx): AuditLog => ({ read: (q) => readAudit(ctx.db as Database, q) }),
  rest: (ctx) => auditRoutes(ctx.self, ctx.options),
});
