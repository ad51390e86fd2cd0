import type { Database, Tx } from './database.ts';

/** One schema step. SQL runs as it is on PostgreSQL and on the embedded PGlite alike. */
export interface Migration {
  /** Unique within its owner; applied in the order given. */
  name: string;
  up: string | ((tx: Tx) => Promise<void>);
}

/**
 * Applies an owner's pending migrations (the core's, or one plugin's) in one transaction. A
 * transaction-scoped advisory lock makes instances that start together take turns, so each migration
 * runs once; PostgreSQL's transactional DDL means a failed step leaves nothing behind.
 *
 * MikroORM's Migrator tracks one global list; plugins come and go with their own lists, so this small
 * runner keys each applied migration by (owner, name) instead.
 */
export async function migrate(db: Database, owner: string, migrations: readonly Migration[]): Promise<string[]> {
  await db
    .query(
      `create table if not exists billing_migrations (
    owner text not null, name text not null, applied_at timestamptz not null default now(),
    primary key (owner, name))`,
    )
    .catch(async (err) => {
      // two instances creating the table at the same moment: the loser sees a unique violation
      if (!String(err?.message).includes('duplicate key') && !String(err?.message).includes('already exists')) throw err;
    });
  return db.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtext('billing_migrations'))`);
    const done = new Set(
      (await tx.query<{ name: string }>('select name from billing_migrations where owner = $1', [owner])).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.name)) continue;
      if (typeof m.up === 'string') await tx.query(m.up);
      else await m.up(tx);
      await tx.query('insert into billing_migrations (owner, name) values ($1, $2)', [owner, m.name]);
      applied.push(m.name);
    }
    return applied;
  });
}
