import { notifyChange, type ChangeTopic } from './change-feed.ts';
import type { Database, Tx } from './database.ts';

/**
 * The cluster-wide revision: every change that other instances must apply to their memory (plugins
 * activated or deactivated) bumps it in the same transaction, and each instance polls it (one indexed
 * row, every BILLING_SYNC_INTERVAL_MS). Polling works the same on PostgreSQL and on the embedded
 * PGlite, whose single multiplexed session cannot LISTEN on behalf of several connections.
 */
export async function bumpRevision(tx: Tx, topic: ChangeTopic): Promise<void> {
  await tx.query('update billing_state set revision = revision + 1 where id = 1');
  await notifyChange(tx, topic);
}

export async function currentRevision(db: Database): Promise<number> {
  const rows = await db.query<{ revision: string }>('select revision from billing_state where id = 1');
  return Number(rows[0]?.revision ?? 0);
}
