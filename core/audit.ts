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

export interface AuditQuery {
  page: number;
  per_page: number;
  object_type?: string;
  object_id?: string;
  actor?: string;
  action?: string;
}

/** One page of the log, newest first, and the total (for `GET /audit-log`). */
export async function readAudit(db: Database, q: AuditQuery): Promise<{ entries: Record<string, unknown>[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  for (const [column, value] of [['object_type', q.object_type], ['object_id', q.object_id], ['actor', q.actor], ['action', q.action]] as const) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`${column} = $${params.length}`);
  }
  const sql = where.length ? `where ${where.join(' and ')}` : '';
  const [{ n }] = await db.query<{ n: number }>(`select count(*)::int as n from billing_audit_log ${sql}`, params);
  const rows = await db.query(
    `select id, at, actor_id, actor, action, object_type, object_id, details, ip from billing_audit_log ${sql}
      order by id desc limit ${q.per_page} offset ${(q.page - 1) * q.per_page}`, params);
  return { entries: rows, total: n };
}
