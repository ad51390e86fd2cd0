import { CLI } from '../../core/audit/audit.ts';
import { addDays, siteDate } from '../../core/time/site-time.ts';
import { sqlLiterals } from '../../core/db/sql-literals.ts';
import { OPEN_INVOICE_STATUSES } from '../../core/documents/statuses.ts';
import type { Comparison, Measure, Scenario } from '../harness.ts';

const INVOICES = Number(process.env.BENCH_REMINDER_INVOICES ?? 100_000);
const RUNS = Number(process.env.BENCH_REMINDER_RUNS ?? 5);
const JOB = 'billing_send_payment_reminders';

/** Seconds per run, as the harness prints it: runs per second and the slowest run. */
function measure(times: number[], unit: string): Measure {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { throughput: 1000 / mean, p50: sorted[Math.floor(sorted.length / 2)]!, p99: sorted.at(-1)!, unit, errors: 0 };
}

async function timed(op: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await op();
  return performance.now() - t;
}

/**
 * One reminder run over 100 000 invoices of which 1 % are due (the rest paid in the past or open and
 * due later), next to the bare query that lists the open invoices due by then, in the same run. The
 * run records each due invoice's step and queues its mail (the mails are sent by the outbox worker,
 * stopped here: the job is what is measured). Before each timed run, what the previous one recorded
 * is deleted, so every run does the full work; then the steady state, a run with nothing left to do.
 */
export const reminders: Scenario = {
  name: 'reminders',
  description: `one reminder run over ${INVOICES} invoices of which 1 % are due, as a ratio to a bare query listing them`,
  async run(env) {
    const database = await env.database();
    const k = await env.kernel(database.url);
    try {
      await k.plugins.activate('reminders', CLI);
      for (let i = 0; i < 100 && !k.plugins.isLoaded('reminders'); i++) await new Promise((r) => setTimeout(r, 50));
      await k.outbox.stop();
      const today = siteDate(new Date(), 'UTC');
      // 1 % open and due two days ago (step +1 due); 59 % paid, due in the past year; 40 % open, due later
      await k.db.query(
        `insert into billing_documents (kind, number, status, currency, issue_date, due_date, customer_name, customer_email,
           items, subtotal, total, paid, due, access_key)
         select 'invoice', 'B-' || g, case when g % 100 = 0 or g % 100 >= 60 then 'available' else 'paid' end, 'USD',
           d - 30, d, 'Client ' || g, 'client' || g || '@example.com', '[{"name":"Work","description":"","quantity":"1","price":"100.00","amount":"100.00","taxable":true}]',
           100, 100, case when g % 100 = 0 or g % 100 >= 60 then 0 else 100 end, case when g % 100 = 0 or g % 100 >= 60 then 100 else 0 end,
           md5(g::text || random()::text)
         from (select g, case when g % 100 = 0 then $1::date - 2
                              when g % 100 >= 60 then $1::date + 4 + (g % 57)
                              else $1::date - 1 - (g % 365) end as d
                 from generate_series(1, $2::int) g) s`,
        [today, INVOICES],
      );
      await k.db.query('analyze billing_documents');
      const due = INVOICES / 100;
      const reset = () => k.db.query(`delete from reminders_sent; delete from billing_outbox where topic = 'reminders.send'`);

      const bare = () =>
        k.db.query(
          `select id from billing_documents where kind = 'invoice' and trashed_at is null
             and status in (${sqlLiterals(OPEN_INVOICE_STATUSES)}) and due_date <= $1::date and due > 0`,
          [addDays(today, 3)],
        );
      const baseline: number[] = [];
      const ours: number[] = [];
      const idle: number[] = [];
      await bare();
      for (let i = 0; i < RUNS; i++) {
        await reset();
        baseline.push(await timed(bare));
        const t = performance.now();
        const outcome = await k.jobs.runNow(JOB);
        ours.push(performance.now() - t);
        const reminded = (outcome as { result?: { reminded?: number } }).result?.reminded;
        if (reminded !== undefined && reminded !== due) throw new Error(`run reminded ${reminded} invoices, expected ${due}`);
        idle.push(await timed(() => k.jobs.runNow(JOB)));
      }
      const [{ n }] = await k.db.query<{ n: string }>(`select count(*) as n from reminders_sent where status = 'queued'`);
      if (Number(n) !== due) throw new Error(`${n} reminders queued, expected ${due}`);
      const baseMeasure = measure(baseline, 'run/s');
      const note = `${due} due of ${INVOICES}; mean run ${(1000 / measure(ours, '').throughput).toFixed(0)} ms`;
      const rows: Comparison[] = [
        {
          scenario: `reminder run, ${due} due of ${INVOICES}`,
          ours: measure(ours, 'run/s'),
          baseline: baseMeasure,
          baselineName: 'bare due query',
          note,
        },
        {
          scenario: `reminder run, nothing left to send`,
          ours: measure(idle, 'run/s'),
          baseline: baseMeasure,
          baselineName: 'bare due query',
          note: `mean ${(1000 / measure(idle, '').throughput).toFixed(0)} ms`,
        },
      ];
      return rows;
    } finally {
      await k.stop();
      await database.close();
    }
  },
};
