import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Compilable,
  type AliasedRawBuilder,
  sql,
} from 'kysely';
import type { Database, Tx } from './database.ts';

/**
 * Kysely as a query builder only: dynamic queries (lists with optional filters, sorting, pages) are
 * built with it instead of hand-numbered `$n` and spliced LIMIT/OFFSET, then run through our own
 * `db.query`, so they share the pool, the transactions and the type parsers of every other query.
 * Static, hot queries stay hand-written SQL.
 */
export const qb = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Runs a built query on `db` (or in `tx`). */
export async function run<T = Record<string, any>>(on: Database | Tx, query: Compilable<unknown>): Promise<T[]> {
  const compiled = query.compile();
  return on.query<T>(compiled.sql, compiled.parameters);
}

/**
 * A column list written as SQL (`id, amount::text, (select …) as name`, the shape the row mappers read;
 * no comma inside an expression) as the builder's select expressions, each named as PostgreSQL names it
 * (the column, also when cast) or by its `as`.
 */
export function columns(list: string): Array<AliasedRawBuilder<unknown, string>> {
  return list.split(',').map((expr) => {
    const e = expr.trim();
    const named = /^([\s\S]+?)\s+as\s+([a-z_][a-z0-9_]*)$/i.exec(e);
    return named ? sql.raw(named[1]!).as(named[2]!) : sql.raw(e).as(e.replace(/::[a-z ]+$/i, ''));
  });
}

export { sql };
