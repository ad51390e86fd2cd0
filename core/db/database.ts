import { currentRideAlong } from './ride-along.ts';
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';
import type { Logger } from '../log.ts';

export type Row = Record<string, any>;

/** A unit of work: queries inside one transaction, and what to do once it has committed. */
export interface Tx {
  readonly em: EntityManager;
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs after COMMIT (never after a rollback): this is where actions fire (contract §2). */
  afterCommit(fn: () => unknown): void;
}

export interface DatabaseOptions {
  url: string;
  /** Connections in this process's pool. The embedded server multiplexes a few; PostgreSQL more. */
  poolMax: number;
  log: Logger;
}

/**
 * The service's one way to the database: MikroORM over the ordinary PostgreSQL driver, for a real
 * PostgreSQL and for the embedded PGlite alike (which is served over the wire protocol, see embedded.ts).
 * Hand-written SQL uses PostgreSQL's own `$1` placeholders and goes to the server as a prepared
 * statement through MikroORM's Kysely client (inside a transaction, through its transaction), so values
 * are bound, never spliced into the text. MikroORM's type parsers stay in force: timestamps, bigints and
 * numerics come back as strings (numerics must, for money); `timestamp()` below reads the first kind.
 */
export class Database {
  readonly orm: MikroORM;
  /** The server is PGlite (embedded, here or in another process): one session, no LISTEN per connection. */
  readonly pglite: boolean;
  private readonly log: Logger;

  private constructor(orm: MikroORM, log: Logger, pglite: boolean) {
    this.orm = orm;
    this.log = log;
    this.pglite = pglite;
  }

  static async connect(options: DatabaseOptions): Promise<Database> {
    const orm = await MikroORM.init({
      ...connectionOptions(options.url),
      entities: [],
      discovery: { warnWhenNoEntities: false },
      pool: { min: 0, max: options.poolMax },
      debug: false,
      allowGlobalContext: false,
    });
    const [{ version }] = await run<{ version: string }>(orm.em.getConnection().getClient(), 'select version()', []);
    return new Database(orm, options.log, /PGlite/i.test(version));
  }

  /** One statement outside any transaction. */
  query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return run<T>(this.orm.em.getConnection().getClient(), sql, params);
  }

  /**
   * Runs `work` in a transaction. Callbacks registered with `afterCommit` run once it has committed, in
   * order; one that throws is logged and does not affect the others or the result.
   */
  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const after: Array<() => unknown> = [];
    const ride = currentRideAlong();
    let joined = false;
    let result: T;
    try {
      result = await this.orm.em.fork().transactional(async (em) => {
        const ctx = em.getTransactionContext()!;
        const tx: Tx = {
          em,
          query: <R>(sql: string, params: readonly unknown[] = []) => run<R>(ctx, sql, params),
          afterCommit: (fn) => {
            after.push(fn);
          },
        };
        if (ride) joined = await ride.join(tx);
        return work(tx);
      });
    } catch (err) {
      if (joined) ride!.rolledBack();
      throw err;
    }
    for (const fn of after) {
      try {
        await fn();
      } catch (err) {
        this.log.error({ err }, 'after-commit callback failed');
      }
    }
    return result;
  }

  async ping(): Promise<boolean> {
    try {
      await this.query('select 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.orm.close(true);
  }
}

interface Executor {
  executeQuery<R>(query: CompiledQuery<R>): Promise<{ rows: R[] }>;
}

async function run<T>(executor: Executor, sql: string, params: readonly unknown[]): Promise<T[]> {
  return (await executor.executeQuery(CompiledQuery.raw(sql, params as unknown[]))).rows as T[];
}

/** A `timestamptz` as MikroORM's type parser leaves it ('2026-11-22 16:18:02.149+00'), as a Date. */
export function timestamp(value: string | Date | null | undefined): Date | null {
  if (value == null) return null;
  if (value instanceof Date) return value;
  // the service's sessions are in UTC: read that shape by position (a page of documents reads hundreds)
  if (value.length >= 22 && value.length <= 29 && value.endsWith('+00') && value[10] === ' ') {
    const ms =
      value.length > 22
        ? Number(
            value
              .slice(20, value.length - 3)
              .padEnd(3, '0')
              .slice(0, 3),
          )
        : 0;
    const t = Date.UTC(
      Number(value.slice(0, 4)),
      Number(value.slice(5, 7)) - 1,
      Number(value.slice(8, 10)),
      Number(value.slice(11, 13)),
      Number(value.slice(14, 16)),
      Number(value.slice(17, 19)),
      ms,
    );
    if (!Number.isNaN(t)) return new Date(t);
  }
  return new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
}

/**
 * MikroORM reads host, port, user, password and database from a URL but not libpq's `?host=` for a unix
 * socket directory (how the embedded database is reached), so that one is passed on its own.
 */
function connectionOptions(url: string) {
  const u = new URL(url);
  const socketDir = u.searchParams.get('host');
  if (!socketDir) return { clientUrl: url };
  return {
    host: socketDir,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username || 'postgres'),
    password: u.password ? decodeURIComponent(u.password) : undefined,
    dbName: u.pathname.replace(/^\//, '') || 'postgres',
  };
}
