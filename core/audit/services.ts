import type { AuditQuery, readAudit } from './audit.ts';

/** Reading the audit log (writing it is `audit(tx, actor, entry)`, inside each change's transaction). */
export interface AuditLog {
  read(q: AuditQuery): ReturnType<typeof readAudit>;
}
