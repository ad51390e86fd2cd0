import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from '../../core/audit/audit.ts';
import { openEmbedded } from '../../core/db/embedded.ts';
import type { Kernel } from '../../core/kernel.ts';
import { alternate, measureHttp, type Comparison, type Scenario } from '../harness.ts';

/** An administrator's Basic header on `kernel`. */
async function admin(kernel: Kernel): Promise<Record<string, string>> {
  const user = await kernel.identity.users.create({ login: 'bench', email: 'bench@example.com', role: 'administrator' }, CLI);
  const { password } = await kernel.identity.appPasswords.create(user, 'bench', CLI);
  return { authorization: `Basic ${Buffer.from(`bench:${password}`).toString('base64')}`, 'content-type': 'application/json' };
}

/**
 * The embedded database next to PostgreSQL: the same creation route on a service using each, measured
 * alternately in one run. Needs BENCH_DATABASE_URL (the PostgreSQL side).
 */
export const databases: Scenario = {
  name: 'databases',
  description: 'POST /invoices and GET /invoices/{id} on the embedded database vs the same on PostgreSQL',
  async run(env): Promise<Comparison[]> {
    if (!process.env.BENCH_DATABASE_URL) {
      console.log('  skipped: set BENCH_DATABASE_URL for the PostgreSQL side');
      return [];
    }
    const pgDb = await env.database();
    const embedded = await openEmbedded('memory://', mkdtempSync(join(tmpdir(), 'billing-bench-')));
    const onPg = await env.kernel(pgDb.url);
    const onEmbedded = await env.kernel(embedded.url);
    try {
      const body = JSON.stringify({ items: [{ name: 'Work', quantity: 1, price: 100 }], customer_name: 'Bench' });
      const sides = [
        { k: onEmbedded, headers: await admin(onEmbedded) },
        { k: onPg, headers: await admin(onPg) },
      ];
      const [post, get] = [
        (s: (typeof sides)[0]) => () =>
          measureHttp({ url: `${s.k.url}/wp-json/billing/v1/invoices`, method: 'POST', headers: s.headers, body, connections: 20 }, env),
        (s: (typeof sides)[0]) => () =>
          measureHttp({ url: `${s.k.url}/wp-json/billing/v1/invoices/1`, headers: { authorization: s.headers.authorization! } }, env),
      ];
      const create = await alternate(post(sides[0]!), post(sides[1]!), env);
      const read = await alternate(get(sides[0]!), get(sides[1]!), env);
      return [
        { scenario: 'POST /invoices, 20 clients, embedded', ...create, baselineName: 'same on PostgreSQL' },
        { scenario: 'GET /invoices/{id}, embedded', ...read, baselineName: 'same on PostgreSQL' },
      ];
    } finally {
      await onEmbedded.stop();
      await onPg.stop();
      await embedded.close();
      await pgDb.close();
    }
  },
};
