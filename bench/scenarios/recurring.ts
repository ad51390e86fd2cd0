import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import type { BenchEnv, Comparison, Measure, Scenario } from '../harness.ts';

const JOB = 'billing_generate_recurring_invoices';
/** Profiles × due periods each: the invoices one job run generates (BENCH_RECURRING_PROFILES, …_PERIODS). */
const PROFILES = Number(process.env.BENCH_RECURRING_PROFILES ?? 100);
const PERIODS = Number(process.env.BENCH_RECURRING_PERIODS ?? 10);

const daysAgo = (days: number) => new Date(Date.now() - days * 86400000).toISOString().slice(0, 10);

function measure(count: number, ms: number, latencies: number[]): Measure {
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { throughput: (count * 1000) / ms, p50: q(0.5), p99: q(0.99), unit: 'inv/s', errors: 0 };
}

/**
 * The baseline: a loop that does the numbering the job does (the counter row locked and advanced in
 * the invoice's transaction) and inserts a bare invoice row, one transaction each, nothing else: no
 * template, totals, tax, profile bookkeeping, audit or hooks.
 */
async function bareLoop(kernel: Kernel, n: number): Promise<Measure> {
  await kernel.db.query(`insert into billing_sequences (kind, next_value) values ('bare', 1) on conflict do nothing`);
  const latencies: number[] = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await kernel.db.transaction(async (tx) => {
      const [seq] = await tx.query<{ v: string }>(
        `update billing_sequences set next_value = next_value + 1 where kind = 'bare' returning next_value - 1 as v`,
      );
      await tx.query(
        `insert into billing_documents (kind, number, status, currency, issue_date, items, total, due, access_key)
         values ('quote', 'BARE-' || $1, 'available', 'USD', current_date, '[]', 25, 25, md5(random()::text) || md5(random()::text))`,
        [seq!.v],
      );
    });
    latencies.push(performance.now() - t);
  }
  return measure(n, performance.now() - start, latencies);
}

export const recurring: Scenario = {
  name: 'recurring',
  description: `the recurring job catching up ${PROFILES} profiles × ${PERIODS} due periods, vs a bare numbered insert loop`,
  async run(env: BenchEnv): Promise<Comparison[]> {
    const db = await env.database();
    const kernel = await env.kernel(db.url);
    try {
      await kernel.plugins.activate('recurring', CLI);
      const base = `${kernel.url}/wp-json/billing/v1`;
      const user = await kernel.identity.users.create({ login: 'bench', email: 'bench@example.com', role: 'administrator' }, CLI);
      const app = await kernel.identity.appPasswords.create(user, 'bench', CLI);
      const authorization = `Basic ${Buffer.from(`bench:${app.password}`).toString('base64')}`;
      for (let i = 0; i < 50 && !kernel.plugins.isLoaded('recurring'); i++) await new Promise((r) => setTimeout(r, 100));
      for (let i = 0; i < PROFILES; i++) {
        const res = await fetch(`${base}/recurring`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({
            template: {
              customer_name: `Customer ${i}`,
              customer_email: `c${i}@example.com`,
              items: [{ name: 'Hosting', quantity: 1, price: 25 }],
            },
            frequency: 'daily',
            start_date: daysAgo(0),
          }),
        });
        if (res.status !== 201) throw new Error(`profile: ${res.status} ${await res.text()}`);
      }
      // behind by PERIODS periods, as after downtime (a new profile may not start further back than one)
      await kernel.db.query(`update recurring_profiles set start_date = $1, next_date = $1`, [daysAgo(PERIODS - 1)]);
      const expected = PROFILES * PERIODS;
      const start = performance.now();
      const outcome = await kernel.jobs.runNow(JOB);
      const ms = performance.now() - start;
      const generated = (outcome.result as { generated: number } | undefined)?.generated ?? 0;
      if (generated !== expected) throw new Error(`the job generated ${generated} invoices, ${expected} expected`);
      // one run: its per-invoice latency is the mean; p99 is not meaningful for a single batch
      const ours = measure(generated, ms, [ms / generated]);
      const baseline = await bareLoop(kernel, expected);
      return [{ scenario: `recurring job: ${expected} invoices in one run`, ours, baseline, baselineName: 'bare numbered insert loop' }];
    } finally {
      await kernel.stop();
      await db.close();
    }
  },
};
