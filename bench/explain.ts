// `npm run bench:explain`: EXPLAIN (ANALYZE, BUFFERS) of the hot routes' statements on a seeded database
// (BENCH_INVOICES invoices, default 100 000; BENCH_DATABASE_URL or the embedded database). The plans
// quoted in docs/benchmarks.md come from here.
import { benchEnv } from './harness.ts';
import { seed } from './scenarios/documents.ts';
import { DOCUMENT_COLUMNS } from '../core/documents/document.ts';

const n = Number(process.env.BENCH_INVOICES ?? 100_000);
const env = benchEnv();
const db = await env.database();
const kernel = await env.kernel(db.url);
try {
  await seed(kernel, n);
  const id = Math.floor(n / 2);
  const plans: Array<[string, string, unknown[]]> = [
    ['document by id', `select ${DOCUMENT_COLUMNS} from billing_documents where id = $1 and kind = $2`, [id, 'invoice']],
    ['list: count', `select count(*)::int as n from billing_documents where kind = $1 and trashed_at is null`, ['invoice']],
    [
      'list: page 1 of 100',
      `select ${DOCUMENT_COLUMNS} from billing_documents where kind = $1 and trashed_at is null order by issue_date desc, id desc limit 100`,
      ['invoice'],
    ],
    [
      'search: count',
      `select count(*)::int as n from billing_documents where kind = $1 and trashed_at is null
         and lower(number || ' ' || title || ' ' || customer_name || ' ' || customer_email) like $2`,
      ['invoice', '%customer 4321%'],
    ],
    [
      'numbering: the sequence row',
      `update billing_sequences set next_value = greatest(next_value, 1) + 1 where kind = 'invoice' returning next_value - 1`,
      [],
    ],
    [
      'settle: sum of an invoice payments',
      `select coalesce(sum(amount - refunded), 0) from billing_payments where invoice_id = $1 and status in ('completed', 'refunded')`,
      [id],
    ],
  ];
  for (const [name, sql, params] of plans) {
    // inside a rolled-back transaction: the UPDATE's plan is measured, not kept
    const rows = await kernel.db
      .transaction(async (tx) => {
        const plan = await tx.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off) ${sql}`, params);
        throw Object.assign(new Error('rollback'), { plan });
      })
      .catch((e: { plan?: Array<{ 'QUERY PLAN': string }> }) => e.plan ?? []);
    console.log(`\n## ${name}\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
  }
} finally {
  await kernel.stop();
  await db.close();
}
