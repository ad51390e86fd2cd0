import type { Database } from '../db/database.ts';
import { defineModule } from '../modules/define-module.ts';
import { readAudit } from './audit.ts';
import { auditRoutes } from './audit-routes.ts';
import type { AuditLog } from './services.ts';

/** The audit log (docs/identity.md): who did what, readable over `GET /audit-log` with `bill_view_audit_log`. */
export const auditModule = defineModule({
  name: 'audit',
  services: (ctx): AuditLog => ({ read: (q) => readAudit(ctx.db as Database, q) }),
  rest: (ctx) => auditRoutes(ctx.self, ctx.options),
});
