import { createHash } from 'node:crypto';
import { currentRideAlong } from './ride-along.ts';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import type { Logger } from '../log.ts';
import type { Row, Statement, Tx } from './types.ts';

export type { Row, Statement, Tx } from './types.ts';

const named = new Map<string, string>();

/** A named statement. Names are global: one name, one text, checked here rather than by the server. */
export function statement(name: string, text: string): Statement {
  const prior = named.get(name);
  if (prior !== undefined && prior !== text) throw new Error(`statement ${name} is already defined with another text`);
  named.set(name, text);
  return Object.freeze({ name, text });
}

const shaped = new Map<string, Statement>();

/**
 * A statement whose text is built at run time from a small, fixed set of shapes (the columns a creation
 * sets): named after a hash of its text, so each shape is prepared once. Never for text that carries
 * values — each distinct text stays prepared on every connection.
 */
export function shapedStatement(prefix: string, text: string): Statement {
  let s = shaped.get(text);
  if (!s) {
    s = statement(`${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`, text);
    shaped.set(text, s);
  }
  return s;
}

/**
 * How many more times a transaction the server rolled back for a conflict is run (five tries in all).
 * Two transactions that deadlock once rarely meet again after a random pause; a conflict that keeps
 * coming back is a real fault and fails the request as any error does.
 */
export const CONFLICT_RETRIES = 4;

/** SQLSTATEs of the rollbacks PostgreSQL asks the client to retry: deadlock_detected, serialization_failure. */
const CONFLICTS = new Set(['40P01', '40001']);

/** The conflict SQLSTATE of an error, or of the error it wraps (`cause`), or null. */
export function conflictCode(err: unknown): string | null {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONFLICTS.has(code)) return code;
  }
  return null;
}

/** A random wait before try `retry + 2` ("full jitter"): up to 20 ms, then 40, 80, 160. */
function conflictPause(retry: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** retry));
}

export interface DatabaseOptions {
  url: string;
  /** Connections in this process's pool. The embedded server multiplexes a few; PostgreSQL more. */
  poolMax: number;
  log: Logger;
}

/**
 * The service's one way to the database. MikroORM opens and configures it — the `pg` pool with its
 * type parsers (timestamps, bigints and numerics come back as strings; numerics must, for money) — for
 * a real PostgreSQL and for the embedded PGlite alike (served over the wire protocol, see embedded.ts).
 * Statements then go to that pool's connections directly: PostgreSQL's own `$1` placeholders, values
 * bound, never spliced into the text, and hot statements named so each connection prepares them once
 * (Kysely's executor, which MikroORM's transactions go through, can only send unnamed ones, and costs a
 * visit of its operation tree per statement). `timestamp()` below reads the timestamps.
 */
export class Database {
  readonly orm: MikroORM;
  /** The server is PGlite (embedded, here or in another process): one session, no LISTEN per connection. */
  readonly pglite: boolean;
  private readonly pool: Pool;
  private readonly log: Logger;

  private constructor(orm: MikroORM, pool: Pool, log: Logger, pglite: boolean) {
    this.orm = orm;
    this.pool = pool;
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
    const pool = (await orm.em.getConnection().getNativeClient()) as Pool;
    const { rows } = await pool.query<{ version: string }>('select version()');
    return new Database(orm, pool, options.log, /PGlite/i.test(rows[0]!.version));
  }

  /**
   * One statement outside any transaction (its own transaction: one the server rolled back for a
   * conflict had no effect, and is run again as `transaction` does).
   */
  async query<T = Row>(sql: string | Statement, params: readonly unknown[] = []): Promise<T[]> {
    for (let retry = 0; ; retry++) {
      try {
        return (await this.pool.query(this.config(sql, params))).rows as T[];
      } catch (err) {
        const conflict = conflictCode(err);
        if (!conflict || retry >= CONFLICT_RETRIES) throw err;
        this.log.warn({ code: conflict, retry: retry + 1 }, 'statement rolled back by a conflict; running it again');
        await conflictPause(retry);
      }
    }
  }

  /**
   * Runs `work` in a transaction. Callbacks registered with `afterCommit` run once it has committed, in
   * order; one that throws is logged and does not affect the others or the result.
   *
   * A transaction PostgreSQL rolled back to break a deadlock or a serialization conflict (SQLSTATE
   * 40P01, 40001) is run again from the start, `work` included, in a fresh transaction: up to
   * `CONFLICT_RETRIES` more times, after a short random wait so the two contenders do not meet again
   * in step. Nothing of a rolled-back try survives it: its statements are undone, its after-commit
   * callbacks are dropped (they run once, for the try that commits), and a request's ride-along write
   * (the Idempotency-Key row) is made again in the new try. So `work` must keep every effect outside
   * the database in `afterCommit`, as it already must for a rollback.
   */
  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    for (let retry = 0; ; retry++) {
      const attempt = await this.attempt(work);
      if (attempt.ok) return attempt.result;
      if (!attempt.conflict || retry >= CONFLICT_RETRIES) throw attempt.error;
      this.log.warn({ code: attempt.conflict, retry: retry + 1 }, 'transaction rolled back by a conflict; running it again');
      await conflictPause(retry);
    }
  }

  /** One try of `transaction`: its result, or its error and whether a conflict of the server caused it. */
  private async attempt<T>(
    work: (tx: Tx) => Promise<T>,
  ): Promise<{ ok: true; result: T } | { ok: false; error: unknown; conflict: string | null }> {
    const after: Array<() => unknown> = [];
    const ride = currentRideAlong();
    let joined = false;
    let result: T;
    // a conflict inside `work` may come back wrapped, or be followed by "current transaction is
    // aborted" if `work` caught it: the try is a conflict if any of its statements met one
    let conflict: string | null = null;
    const client: PoolClient = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('begin').catch((e: Error) => {
        throw (broken = e);
      });
      const tx: Tx = {
        query: async <R>(sql: string | Statement, params: readonly unknown[] = []) => {
          try {
            return (await client.query(this.config(sql, params))).rows as R[];
          } catch (err) {
            conflict ??= conflictCode(err);
            throw err;
          }
        },
        afterCommit: (fn) => {
          after.push(fn);
        },
      };
      try {
        if (ride) joined = await ride.join(tx);
        result = await work(tx);
        await client.query('commit');
      } catch (err) {
        conflict ??= conflictCode(err);
        // a connection that cannot even roll back is broken: the pool must not hand it out again
        await client.query('rollback').catch((e: Error) => (broken = e));
        throw err;
      }
    } catch (err) {
      if (joined) ride!.rolledBack();
      return { ok: false, error: err, conflict: broken ? null : conflict };
    } finally {
      client.release(broken);
    }
    for (const fn of after) {
      try {
        await fn();
      } catch (err) {
        this.log.error({ err }, 'after-commit callback failed');
      }
    }
    return { ok: true, result };
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

  /**
   * A named statement is prepared once per connection on PostgreSQL. PGlite serves every connection
   * from one session, where one connection's name is every connection's (a second Parse of it would
   * fail): there, statements stay unnamed.
   */
  private config(sql: string | Statement, params: readonly unknown[]): QueryConfig {
    if (typeof sql === 'string') return { text: sql, values: params as unknown[] };
    return this.pglite ? { text: sql.text, values: params as unknown[] } : { name: sql.name, text: sql.text, values: params as unknown[] };
  }
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
