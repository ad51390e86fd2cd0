import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { bootKernel, useService, usingPostgres, waitFor } from '../../testing/index.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';

// slow polling: what these tests see must come from the feed
const slow = { pluginDirs: [FIXTURE_PLUGINS], config: { syncIntervalMs: 60_000 } };
const svc = useService(slow);
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
  a = svc.kernel;
  b = await bootKernel(svc.databaseUrl, slow);
  svc.beforeStop(() => b.stop());
});

describe('the change feed (PostgreSQL, and the embedded database in the process serving it)', () => {
  it('lets an instance cache options, and forget them the moment another instance changes one', async () => {
    const reads = countOptionReads(b);
    expect(await b.options.get('currency')).toBe('USD');
    expect(await b.options.get('timezone')).toBe('UTC');
    expect(await b.options.getMany(['invoice_prefix', 'number_padding'])).toEqual({ invoice_prefix: 'INV', number_padding: 4 });
    expect(reads()).toBe(1); // one load, then memory
    await a.options.set('currency', 'EUR', CLI);
    await waitFor(async () => (await b.options.get('currency')) === 'EUR', { timeoutMs: 2000, everyMs: 5, what: 'b to hear of EUR' });
  });

  it('switches plugins on other instances without waiting for the poll', async () => {
    await a.plugins.activate('hello', CLI);
    await waitFor(() => b.plugins.isLoaded('hello'), { timeoutMs: 2000, everyMs: 10, what: 'b to load hello' });
    await a.plugins.deactivate('hello', CLI);
    await waitFor(() => !b.plugins.isLoaded('hello'), { timeoutMs: 2000, everyMs: 10, what: 'b to unload hello' });
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
    await waitFor(async () => (await b.options.get('currency')) === 'GBP', { timeoutMs: 2000, everyMs: 5, what: 'b to read GBP' });
    // while deaf it reads the database every time
    expect(await caching()).toBe(false);
    // and once it listens again, it caches again and hears changes
    await waitFor(caching, { timeoutMs: 5000, everyMs: 50, what: 'b to cache again' });
    await a.options.set('currency', 'CHF', CLI);
    await waitFor(async () => (await b.options.get('currency')) === 'CHF', { timeoutMs: 2000, everyMs: 5, what: 'b to hear of CHF' });
  });
});

(usingPostgres ? describe.skip : describe)('the embedded database', () => {
  it('is heard at commit: a change is known before its writer is told it committed', async () => {
    // no waitFor(): the serving process learns of the notification while the COMMIT's answer is
    // on its way, so the very next read anywhere in the process sees the change
    const reads = countOptionReads(b);
    expect(await b.options.get('currency')).toBeDefined();
    await a.options.set('currency', 'JPY', CLI);
    expect(await b.options.get('currency')).toBe('JPY');
    expect(reads()).toBeLessThanOrEqual(2);
  });
});
