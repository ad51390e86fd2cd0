import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
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
 * SQL uses `?` placeholders (MikroORM's), so `?`-operators of jsonb are not used anywhere.
 */
export class Database {
  readonly orm: MikroORM;
  private readonly log: Logger;

  private constructor(orm: MikroORM, log: Logger) {
    this.orm = orm;
    this.log = log;
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
    return new Database(orm, options.log);
  }

  /** One statement outside any transaction. */
  query<T = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.orm.em.getConnection().execute<T[]>(sql, params as unknown[], 'all');
  }

  /**
   * Runs `work` in a transaction. Callbacks registered with `afterCommit` run once it has committed, in
   * order; one that throws is logged and does not affect the others or the result.
   */
  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const after: Array<() => unknown> = [];
    const result = await this.orm.em.fork().transactional(async (em) => {
      const conn = em.getConnection();
      const ctx = em.getTransactionContext();
      const tx: Tx = {
        em,
        query: <R,>(sql: string, params: readonly unknown[] = []) =>
          conn.execute<R[]>(sql, params as unknown[], 'all', ctx),
        afterCommit: (fn) => { after.push(fn); },
      };
      return work(tx);
    });
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
