import { CLI } from '../../core/audit/audit.ts';
import { invoiceRfReference } from '../../plugins/bank-transfer/references.ts';
import { camt053 } from '../../test/bank-transfer/statement-files.ts';
import type { Comparison, Measure, Scenario } from '../harness.ts';

/** Open invoices seeded, and entries in the statement (full size: 100 000 and 10 000). */
const INVOICES = Number(process.env.BENCH_BANK_INVOICES ?? 10_000);
const ENTRIES = Number(process.env.BENCH_BANK_ENTRIES ?? 1_000);

const measure = (n: number, ms: number): Measure => ({ throughput: (n * 1000) / ms, p50: 0, p99: 0, unit: 'entry/s', errors: 0 });

/**
 * A CAMT.053 statement of ENTRIES credit transfers (half naming their invoice by RF reference, half by its
 * number in free text) against INVOICES open invoices, imported over HTTP: entries matched and recorded
 * per second, next to a bare SQL lookup of each entry's invoice by number (the least any import must
 * do), and the process's peak RSS.
 */
export const bank: Scenario = {
  name: 'bank',
  description: 'bank statement import: entries matched and recorded per second vs a bare SQL lookup by reference; peak RSS',
  onlyWhenNamed: true,
  async run(env) {
    const database = await env.database();
    const k = await env.kernel(database.url);
    try {
      await k.plugins.activate('bank-transfer', CLI);
      for (let i = 0; i < 100 && !k.plugins.isLoaded('bank-transfer'); i++) await new Promise((r) => setTimeout(r, 50));
      await k.options.set('bank_iban', 'DE89370400440532013000', CLI);
      // open invoices seeded in SQL with the per-row triggers off, then the aggregates rebuilt once (as the
      // scale scenario does): through the API or row by row, the seed would take longer than the measurement
      await k.db.query('alter table billing_documents disable trigger user');
      try {
        await k.db.query(
          `insert into billing_documents (kind, number, status, title, currency, issue_date, due_date, customer_name, customer_email,
             items, subtotal, discount, tax, total, paid, credited, due, access_key, created_at, updated_at)
           select 'invoice', 'BNK-' || lpad(g::text, 7, '0'), 'unpaid', 'Services ' || g, 'EUR', current_date, current_date + 30,
                  'Client ' || g, 'c' || g || '@example.com',
                  jsonb_build_array(jsonb_build_object('name', 'Work', 'description', '', 'quantity', '1', 'price', '100.00', 'amount', '100.00', 'taxable', true)),
                  100, 0, 0, 100, 0, 0, 100, md5(g::text) || md5((g + 7)::text), now(), now()
             from generate_series(1, $1::int) g`,
          [INVOICES],
        );
      } finally {
        await k.db.query('alter table billing_documents enable trigger user');
      }
      const [{ f }] = await k.db.query<{ f: boolean }>(`select to_regprocedure('billing_rebuild_document_aggregates()') is not null as f`);
      if (f) await k.db.query('select billing_rebuild_document_aggregates()');
      await k.db.query('vacuum analyze billing_documents');
      const numbers = (
        await k.db.query<{ number: string }>(`select number from billing_documents where number like 'BNK-%' order by id`)
      ).map((r) => r.number);
      const step = Math.max(1, Math.floor(numbers.length / ENTRIES));
      const chosen = Array.from({ length: ENTRIES }, (_, i) => numbers[(i * step) % numbers.length]!);
      const file = camt053(
        chosen.map((number, i) =>
          i % 2
            ? { amount: '100.00', ref: `BENCH-${i}`, creditorRef: invoiceRfReference(number)! }
            : { amount: '40.00', ref: `BENCH-${i}`, ustrd: [`Invoice ${number} thank you`] },
        ),
        8,
        'BENCH',
      );

      // the baseline: each entry's invoice looked up by its number, one query each, as bare as it gets
      let t = performance.now();
      for (const number of chosen) await k.db.query(`select id, currency from billing_documents where number = $1`, [number]);
      const baseline = measure(chosen.length, performance.now() - t);

      const user = await k.identity.users.create({ login: 'bench', email: 'bench@example.com', role: 'administrator' }, CLI);
      const app = await k.identity.appPasswords.create(user, 'bench', CLI);
      t = performance.now();
      const res = await fetch(`${k.url}/wp-json/billing/v1/bank-statements`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`bench:${app.password}`).toString('base64')}`, 'content-type': 'application/xml' },
        body: file,
      });
      const body = (await res.json()) as { matched?: number; message?: string };
      const ours = measure(chosen.length, performance.now() - t);
      if (res.status !== 201 || body.matched !== chosen.length) {
        ours.errors = chosen.length - (body.matched ?? 0);
        console.log(`  import answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
      }
      const rss = Math.round(process.resourceUsage().maxRSS / 1024);
      const rows: Comparison[] = [
        {
          scenario: `import ${ENTRIES} entries vs ${INVOICES} invoices`,
          ours,
          baseline,
          baselineName: 'SQL lookup',
          note: `peak RSS ${rss} MiB; ${(file.length / 1024 / 1024).toFixed(1)} MiB of CAMT; each entry a payment through the payment core`,
        },
      ];
      return rows;
    } finally {
      await k.stop();
      await database.close();
    }
  },
};
