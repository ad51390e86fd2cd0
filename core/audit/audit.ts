import { statement, type Database, type Tx } from '../db/database.ts';
import { qb, run, sql } from '../db/query-builder.ts';

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
 * The audit log (docs/identity.md): one row for every change of a document, payment, setting, role or plugin.
 * Written inside the transaction of the change it records, so the two commit or vanish together.
 */
export async function audit(tx: Tx | Database, actor: Actor, entry: AuditEntry): Promise<void> {
  const params = [
    actor.id,
    actor.name,
    entry.action,
    entry.objectType,
    entry.objectId == null ? null : String(entry.objectId),
    JSON.stringify(entry.details ?? {}),
    actor.ip ?? null,
  ];
  await tx.query(AUDIT_INSERT, params);
}

const AUDIT_COLUMNS = 'actor_id, actor, action, object_type, object_id, details, ip';
/** Every change writes one: prepared once per connection. */
const AUDIT_INSERT = statement('audit_insert', `insert into billing_audit_log (${AUDIT_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7)`);

/**
 * The audit row of a change made by the same statement, as one of its `with` parts: `insert … select
 * … from <source>`, the object's id and the details being SQL over the source's rows. Used where a
 * lock must be held for one statement only (numbering a new document), so the row costs no round trip.
 * Values go to `params` (placeholders continue its numbering).
 */
export function auditFrom(
  params: unknown[],
  actor: Actor,
  e: { action: string; objectType: string; source: string; objectIdSql: string; detailsSql: string },
): string {
  const p = (v: unknown) => `$${params.push(v)}`;
  return `insert into billing_audit_log (${AUDIT_COLUMNS})
    select ${p(actor.id)}::bigint, ${p(actor.name)}::text, ${p(e.action)}::text, ${p(e.objectType)}::text, ${e.objectIdSql}, ${e.detailsSql}, ${p(actor.ip ?? null)}::text
    from ${e.source}`;
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
  let where = qb.selectFrom('billing_audit_log');
  for (const column of ['object_type', 'object_id', 'actor', 'action'] as const) {
    if (q[column] !== undefined) where = where.where(column, '=', q[column]);
  }
  const [{ n }] = await run<{ n: number }>(db, where.select(sql<number>`count(*)::int`.as('n')));
  const entries = await run(
    db,
    where
      .select(['id', 'at', 'actor_id', 'actor', 'action', 'object_type', 'object_id', 'details', 'ip'])
      .orderBy('id', 'desc')
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page),
  );
  return { entries, total: n };
}
