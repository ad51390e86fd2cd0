import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import type { BenchEnv, Comparison, Measure, Scenario } from '../harness.ts';

/** Rows of the CSV (BENCH_IMPORT_ROWS), LINES to an invoice. */
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 20_000);
const LINES = 10;
/** Rows per statement of the baseline's multi-row insert. */
const BARE_BATCH = 500;

const once = (rows: number, ms: number): Measure => ({ throughput: (rows * 1000) / ms, p50: ms, p99: ms, unit: 'rows/s', errors: 0 });

function csvOf(prefix: string): string {
  const lines = ['number,date,status,customer_name,customer_email,item_name,item_quantity,item_price'];
  for (let i = 0; i < ROWS; i++) {
    const inv = Math.floor(i / LINES);
    lines.push(`${prefix}-${inv},2024-03-01,available,Customer ${inv % 200},c${inv % 200}@example.com,Line ${i},2,${(i % 90) + 10}.50`);
  }
  return lines.join('\n') + '\n';
}

/**
 * The baseline: the same invoices written as bare rows (their lines as the items JSON, a total), many
 * to a statement — what loading the file's rows without numbering checks, clients, totals, tax, audit,
 * hooks or payments costs on this database (a multi-row insert: COPY is not on every driver here).
 */
async function bareInsert(kernel: Kernel): Promise<Measure> {
  const invoices = Math.ceil(ROWS / LINES);
  const start = performance.now();
  for (let first = 0; first < invoices; first += BARE_BATCH) {
    const params: unknown[] = [];
    const values: string[] = [];
    for (let inv = first; inv < Math.min(invoices, first + BARE_BATCH); inv++) {
      const items = Array.from({ length: LINES }, (_, l) => ({
        name: `Line ${inv * LINES + l}`,
        quantity: '2',
        price: `${((inv * LINES + l) % 90) + 10}.50`,
      }));
      params.push(`BARE-${inv}`, JSON.stringify(items));
      values.push(
        `('quote', $${params.length - 1}, 'available', 'USD', '2024-03-01', $${params.length}::jsonb, 0, 0, md5(random()::text) || md5(random()::text))`,
      );
    }
    await kernel.db.query(
      `insert into billing_documents (kind, number, status, currency, issue_date, items, total, due, access_key) values ${values.join(', ')}`,
      params,
    );
  }
  return once(ROWS, performance.now() - start);
}

export const csvImport: Scenario = {
  name: 'import',
  description: `a CSV of ${ROWS} invoice lines (${LINES} to an invoice) uploaded and imported over REST, vs a bare multi-row insert of the same invoices`,
  async run(env: BenchEnv): Promise<Comparison[]> {
    const db = await env.database();
    const kernel = await env.kernel(db.url);
    try {
      const base = `${kernel.url}/wp-json/billing/v1`;
      const user = await kernel.identity.users.create({ login: 'bench', email: 'bench@example.com', role: 'administrator' }, CLI);
      const app = await kernel.identity.appPasswords.create(user, 'bench', CLI);
      const authorization = `Basic ${Buffer.from(`bench:${app.password}`).toString('base64')}`;
      const start = performance.now();
      const preview = await fetch(`${base}/imports?resource=invoices`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'text/csv' },
        body: csvOf('IMP'),
      });
      if (preview.status !== 201) throw new Error(`preview: ${preview.status} ${await preview.text()}`);
      const { id } = (await preview.json()) as { id: number };
      await fetch(`${base}/imports/${id}/commit`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: '{}',
      });
      let state: { status: string; created: number; failed: unknown[] };
      for (;;) {
        state = (await (await fetch(`${base}/imports/${id}`, { headers: { authorization } })).json()) as typeof state;
        if (state.status === 'done' || state.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const ms = performance.now() - start;
      if (state.status !== 'done' || state.created !== Math.ceil(ROWS / LINES))
        throw new Error(`the import ended ${JSON.stringify(state).slice(0, 300)}`);
      const baseline = await bareInsert(kernel);
      return [
        { scenario: `CSV import: ${ROWS} rows (preview + commit)`, ours: once(ROWS, ms), baseline, baselineName: 'bare multi-row insert' },
      ];
    } finally {
      await kernel.stop();
      await db.close();
    }
  },
};
