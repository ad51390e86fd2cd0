import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CLI } from '../../core/audit/audit.ts';
import { measureHttp, type BenchEnv, type Comparison, type Measure, type Scenario } from '../harness.ts';
import { seedScale } from './scale.ts';

/** Requests in all (BENCH_MEMORY_REQUESTS); RSS is compared after 10 000 and after this many. */
const REQUESTS = Number(process.env.BENCH_MEMORY_REQUESTS ?? 1_000_000);
const FIRST = 10_000;

const mb = (bytes: number) => bytes / 1024 / 1024;

/**
 * A full garbage collection (the bench runs without --expose-gc; the flag is set for a fresh context).
 * RSS right after one measures what the service keeps, not how much garbage the last requests left for
 * the next collection; both are printed.
 */
function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * Issue 15 item 6: the service's resident memory after 1 000 000 requests is within 1.2× of what it is
 * after 10 000, on 10 000 seeded invoices. The requests rotate over reads by id (60 %), list pages (15 %),
 * searches and deep pages (10 % each) and creates (5 %: the slowest, they would dominate the time), so
 * caches, prepared statements, the log and the numbering all see traffic. They are
 * sent by autocannon from its own process; the service runs in this one, whose RSS is read.
 */
export const memory: Scenario = {
  name: 'memory',
  onlyWhenNamed: true,
  description: `RSS after ${REQUESTS.toLocaleString('en')} requests vs after ${FIRST.toLocaleString('en')} (BENCH_MEMORY_REQUESTS)`,
  async run(env: BenchEnv): Promise<Comparison[]> {
    const db = await env.database();
    const kernel = await env.kernel(db.url);
    try {
      await seedScale(kernel, 0, 10_000);
      const user = await kernel.identity.users.create({ login: 'bench', email: 'bench@example.com', role: 'administrator' }, CLI);
      const { password } = await kernel.identity.appPasswords.create(user, 'bench', CLI);
      const headers = { authorization: `Basic ${Buffer.from(`bench:${password}`).toString('base64')}` };
      const api = `${kernel.url}/wp-json/billing/v1`;
      const loads = [
        { share: 0.6, url: `${api}/invoices/5001`, headers },
        { share: 0.15, url: `${api}/invoices?per_page=20`, headers },
        { share: 0.1, url: `${api}/invoices?search=inv-00012&per_page=20`, headers },
        { share: 0.1, url: `${api}/invoices?per_page=20&page=300`, headers },
        {
          share: 0.05,
          url: `${api}/invoices`,
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ items: [{ name: 'Work', quantity: 1, price: 100 }], customer_name: 'Memory' }),
        },
      ];
      let sent = 0;
      let errors = 0;
      const started = performance.now();
      /** Sends `n` more requests, spread over the loads by their shares; answers the RSS after them. */
      const send = async (n: number): Promise<{ raw: number; kept: number }> => {
        for (const { share, ...l } of loads) {
          const each = Math.ceil(n * share);
          const m: Measure = await measureHttp({ ...l, amount: each, noWarmup: true }, env);
          errors += m.errors;
          sent += each;
        }
        const raw = process.memoryUsage().rss;
        collect();
        const u = process.memoryUsage();
        const kept = u.rss;
        console.log(
          `  after ${sent.toLocaleString('en')} requests: RSS ${mb(raw).toFixed(0)} MB, after a full GC ${mb(kept).toFixed(0)} MB (heap ${mb(u.heapUsed).toFixed(0)} MB of ${mb(u.heapTotal).toFixed(0)}, external ${mb(u.external).toFixed(0)} MB, array buffers ${mb(u.arrayBuffers).toFixed(0)} MB)`,
        );
        return { raw, kept };
      };
      const first = await send(FIRST);
      let last = first;
      const step = Math.max(FIRST, Math.ceil(REQUESTS / 10));
      while (sent < REQUESTS) {
        last = await send(Math.min(step, REQUESTS - sent));
      }
      const seconds = (performance.now() - started) / 1000;
      const at = (bytes: number): Measure => ({ throughput: mb(bytes), p50: 0, p99: 0, unit: 'MB RSS', errors: 0 });
      return [
        {
          scenario: `RSS after ${sent.toLocaleString('en')} requests (after a full GC)`,
          ours: at(last.kept),
          baseline: at(first.kept),
          baselineName: `after ${FIRST.toLocaleString('en')}`,
          note: `aim ≤ 1.2x; without the GC ${mb(last.raw).toFixed(0)} vs ${mb(first.raw).toFixed(0)} MB = ${(last.raw / first.raw).toFixed(2)}x; ${(sent / seconds).toFixed(0)} req/s over ${seconds.toFixed(0)} s${errors ? `; ${errors} errors` : ''}`,
        },
      ];
    } finally {
      await kernel.stop();
      await db.close();
    }
  },
};
