import type { Database, Tx } from './db/database.ts';

/** Who is acting: a signed-in user, the CLI, or the service itself (jobs, webhooks). */
export interface Actor {
  id: number | null;
  name: string;
  ip?: string | null;
}

export const SYSTEM: Actor = Object.freeze({ id: null, name: 'system' });
export const CLI: Actor = Object.freeze({ id: null, name: 'cli' });

export interface AuditEntry {
  action: string;
  objectType: string;
  objectId?: string | number | null;
  details?: Record<string, unknown>;
}

/**
 * The audit log (contract §3): one row for every change of a document, payment, setting, role or plugin.
 * Written inside the transaction of the change it records, so the two commit or vanish together.
 */
export async function audit(tx: Tx | Database, actor: Actor, entry: AuditEntry): Promise<void> {
  const sql = `insert into billing_audit_log (actor_id, actor, action, object_type, object_id, details, ip)
               values ($1, $2, $3, $4, $5, $6, $7)`;
  const params = [
    actor.id, actor.name, entry.action, entry.objectType,
    entry.objectId == null ? null : String(entry.objectId), JSON.stringify(entry.details ?? {}), actor.ip ?? null,
  ];
  await tx.query(sql, params);
}
