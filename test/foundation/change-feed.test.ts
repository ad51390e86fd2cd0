import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { freshDatabase, usingPostgres, type TestDatabase } from '../helpers/database.ts';
import { bootKernel, eventually } from '../helpers/kernel.ts';

let db: TestDatabase;
let a: Kernel;
let b: Kernel;

/** How many times `k` queried billing_options from now on. */
function countOptionReads(k: Kernel): () => number {
  let n = 0;
  const query = k.db.query.bind(k.db);
  k.db.query = ((sql: string, params?: readonly unknown[]) => {
    if (/from billing_options/.test(sql)) n++;
    return query(sql, params);
  }) as typeof k.db.query;
  return () => n;
}

beforeAll(async () => {
  db = await freshDatabase();
  // slow polling: what these tests see must come from the feed
  a = await bootKernel(db.url, { config: { syncIntervalMs: 60_000 } });
  b = await bootKernel(db.url, { config: { syncIntervalMs: 60_000 } });
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await db?.drop();
});

describe('the change feed (PostgreSQL, and the embedded database in the process serving it)', () => {
  it('lets an instance cache options, and forget them the moment another instance changes one', async () => {
    const reads = countOptionReads(b);
    expect(await b.options.get('currency')).toBe('USD');
    expect(await b.options.get('timezone')).toBe('UTC');
    expect(await b.options.getMany(['invoice_prefix', 'number_padding'])).toEqual({ invoice_prefix: 'INV', number_padding: 4 });
    expect(reads()).toBe(1); // one load, then memory
    await a.options.set('currency', 'EUR', CLI);
    expect(await eventually(async () => (await b.options.get('currency')) === 'EUR', 2000, 5)).toBe(true);
  });

  it('switches plugins on other instances without waiting for the poll', async () => {
    await a.plugins.activate('hello', CLI);
    expect(await eventually(() => b.plugins.isLoaded('hello'), 2000, 10)).toBe(true);
    await a.plugins.deactivate('hello', CLI);
    expect(await eventually(() => !b.plugins.isLoaded('hello'), 2000, 10)).toBe(true);
  });

  (usingPostgres ? it : it.skip)('stops caching when its connection is lost, and reads the database meanwhile', async () => {
    const reads = countOptionReads(b);
    /** Whether two reads in a row are served from memory (at most one query: the load). */
    const caching = async () => {
      const before = reads();
      await b.options.get('currency');
      await b.options.get('currency');
      return reads() - before <= 1;
    };
    expect(await caching()).toBe(true);
    // the server ends b's LISTEN session; a write lands while b cannot hear of it
    await a.db.query(`select pg_terminate_backend(pid) from pg_stat_activity
                      where datname = current_database() and query ilike 'listen billing_changes%' and pid <> pg_backend_pid()`);
    await a.db.query(`update billing_options set value = '"GBP"' where key = 'currency'`);
    expect(await eventually(async () => (await b.options.get('currency')) === 'GBP', 2000, 5)).toBe(true);
    // while deaf it reads the database every time
    expect(await caching()).toBe(false);
    // and once it listens again, it caches again and hears changes
    expect(await eventually(caching, 5000, 50)).toBe(true);
    await a.options.set('currency', 'CHF', CLI);
    expect(await eventually(async () => (await b.options.get('currency')) === 'CHF', 2000, 5)).toBe(true);
  });
});

(usingPostgres ? describe.skip : describe)('the embedded database', () => {
  it('is heard at commit: a change is known before its writer is told it committed', async () => {
    // no eventually(): the serving process learns of the notification while the COMMIT's answer is
    // on its way, so the very next read anywhere in the process sees the change
    const reads = countOptionReads(b);
    expect(await b.options.get('currency')).toBeDefined();
    await a.options.set('currency', 'JPY', CLI);
    expect(await b.options.get('currency')).toBe('JPY');
    expect(reads()).toBeLessThanOrEqual(2);
  });
});
