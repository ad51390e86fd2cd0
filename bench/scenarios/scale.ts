import { createHash } from 'node:crypto';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { alternate, formatRow, measureHttp, type BenchEnv, type Comparison, type Scenario } from '../harness.ts';

/**
 * The same routes at growing table sizes (issue 15 item 5): each size in a database of its own, seeded by
 * SQL (INSERT … SELECT over generate_series, then VACUUM ANALYZE), never through the API; each route is
 * measured at a larger size and at the smallest alternately. BENCH_SCALE_SIZES picks the sizes (default 10 000, 100 000 and 1 000 000 on
 * PostgreSQL; 10 000 and 100 000 on the embedded database, whose trigram index is maintained in WASM and
 * would take far too long for a million rows).
 */
export function scaleSizes(): number[] {
  const given = process.env.BENCH_SCALE_SIZES;
  const sizes = given
    ? given.split(',').map((s) => Number(s.trim().replace(/_/g, '')))
    : process.env.BENCH_DATABASE_URL
      ? [10_000, 100_000, 1_000_000]
      : [10_000, 100_000];
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1000)) throw new Error(`BENCH_SCALE_SIZES: whole numbers ≥ 1000, got ${given}`);
  return [...new Set(sizes)].sort((a, b) => a - b);
}

/** Invoices per client: the client list stays the size a real client's list has, whatever the table. */
const PER_CLIENT = 50;
/** Client users get ids from here on, so that invoices can name them without a join while seeding. */
const CLIENT_ID_BASE = 1000;
/**
 * A client's name as SQL: a made-up word of ten letters from md5 of its number (letters a–p, so about
 * 4 000 distinct trigrams) and a legal form. Names that share a long common word ("Client 0000066") would
 * make every search read the trigram index's longest posting lists, which is not what real names do;
 * `clientName` is the same name in JavaScript.
 */
const NAME = (n: string) =>
  `initcap(translate(substr(md5((${n})::text), 1, 10), '0123456789', 'ghijklmnop')) || ' ' || (array['Ltd', 'GmbH', 'SA', 'Inc', 'LLC'])[1 + (${n}) % 5]`;
function clientName(n: number): string {
  return createHash('md5')
    .update(String(n))
    .digest('hex')
    .slice(0, 10)
    .replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!);
}

/** Issue dates spread over six years ending yesterday (2 190 days). */
const DAYS = 2190;

/**
 * Seeds invoices `from + 1` … `to` (and their clients, payments and a few refunds) in a handful of
 * statements. Per 20 invoices: 1 draft, 1 cancelled, 3 available, 2 unpaid, 2 partial, 11 paid; one
 * in 37 is trashed; one in ten is in EUR. Triggers of the aggregate tables are off while seeding; the
 * aggregates are rebuilt from the rows afterwards (when they exist: the run before them measures without).
 */
export async function seedScale(kernel: Kernel, from: number, to: number): Promise<number> {
  const t = performance.now();
  const q = (text: string, params: unknown[] = []) => kernel.db.query(text, params);
  const firstClient = Math.floor(from / PER_CLIENT) + 1;
  const lastClient = Math.ceil(to / PER_CLIENT);
  await q(
    `insert into billing_users (id, login, email, display_name, role, company)
     select ${CLIENT_ID_BASE} + c, 'client' || c, 'client' || c || '@example.com', ${NAME('c')}, 'billing_client', 'Company ' || c
       from generate_series($1::int, $2::int) c
     on conflict do nothing`,
    [firstClient, lastClient],
  );
  await q(`select setval(pg_get_serial_sequence('billing_users', 'id'), (select max(id) from billing_users))`);
  const withTriggers = ['billing_documents', 'billing_payments', 'billing_payment_refunds'];
  for (const table of withTriggers) await q(`alter table ${table} disable trigger user`);
  try {
    const [{ id: lastId }] = (await q(`select coalesce(max(id), 0)::bigint as id from billing_documents`)) as { id: string }[];
    await q(
      `insert into billing_documents (kind, number, status, trashed_at, title, currency, issue_date, due_date, client_id,
         customer_name, customer_email, customer_company, items, subtotal, discount, tax, total, paid, credited, due, access_key, created_at, updated_at)
       select 'invoice', 'INV-' || lpad(g::text, 7, '0'), s.status, case when g % 37 = 0 then now() end, 'Services ' || g,
              case when g % 10 = 0 then 'EUR' else 'USD' end, d.day, d.day + 30, ${CLIENT_ID_BASE} + (g - 1) / ${PER_CLIENT} + 1,
              ${NAME(`((g - 1) / ${PER_CLIENT} + 1)`)}, 'client' || ((g - 1) / ${PER_CLIENT} + 1) || '@example.com',
              'Company ' || ((g - 1) / ${PER_CLIENT} + 1),
              jsonb_build_array(jsonb_build_object('name', 'Work', 'description', '', 'quantity', '1', 'price', m.total::text,
                'amount', m.total::text, 'taxable', true)),
              m.total, 0, 0, m.total, m.paid, 0, m.total - m.paid, md5(g::text) || md5((g + 7)::text), d.day::timestamptz, d.day::timestamptz
         from generate_series($1::int, $2::int) g,
              lateral (select (current_date - ${DAYS} + ((g::bigint * 7919) % ${DAYS})::int)::date as day) d,
              lateral (select (array['draft','cancelled','available','available','available','unpaid','unpaid','partial','partial',
                                     'paid','paid','paid','paid','paid','paid','paid','paid','paid','paid','paid'])[1 + g % 20] as status) s,
              lateral (select (50 + (g::bigint * 37) % 1000 + 0.25)::numeric as total) t,
              lateral (select t.total, case s.status when 'paid' then t.total when 'partial' then round(t.total / 2, 2) else 0 end as paid) m`,
      [from + 1, to],
    );
    await q(
      `insert into billing_payments (invoice_id, reference, amount, currency, method, status, date, refunded, created_at, updated_at, completed_at)
       select d.id, 'PAY-' || d.id, d.paid, d.currency, 'bank_transfer', 'completed', x.at, case when d.id % 50 = 0 then 10 else 0 end, x.at, x.at, x.at
         from billing_documents d, lateral (select d.issue_date + 10 + time '13:17' as at) x
        where d.id > $1 and d.kind = 'invoice' and d.paid > 0`,
      [lastId],
    );
    await q(
      `insert into billing_payment_refunds (payment_id, amount, reason, actor, created_at)
       select p.id, 10, 'goodwill', 'cli', p.date + interval '3 days'
         from billing_payments p where p.invoice_id > $1 and p.refunded > 0`,
      [lastId],
    );
    await q(`update billing_sequences set next_value = $1 where kind = 'invoice'`, [to + 1]);
  } finally {
    for (const table of withTriggers) await q(`alter table ${table} enable trigger user`);
  }
  const [{ f }] = (await q(`select to_regprocedure('billing_rebuild_document_aggregates()') is not null as f`)) as { f: boolean }[];
  if (f) {
    await q('select billing_rebuild_document_aggregates()');
    await q('select billing_rebuild_payment_days()');
  }
  // as autovacuum would have by now: statistics and the visibility map that index-only scans need
  await q('vacuum analyze billing_documents');
  await q('vacuum analyze billing_payments');
  await q('vacuum analyze billing_payment_refunds');
  await q('vacuum analyze billing_users');
  if (f)
    await q(
      'vacuum analyze billing_document_counts, billing_document_day_counts, billing_document_open_due, billing_invoice_days, billing_payment_days',
    );
  // the bulk load's dirty pages written now, not by a checkpoint in the middle of the measurements
  await q('checkpoint').catch(() => {});
  return (performance.now() - t) / 1000;
}

/** A session cookie and the admin nonce, as the admin app holds them (admin-ajax takes no Basic auth). */
async function signIn(base: string, login: string, password: string): Promise<{ cookie: string; nonce: string }> {
  const res = await fetch(`${base}/wp-login.php`, {
    method: 'POST',
    body: new URLSearchParams({ log: login, pwd: password }),
    redirect: 'manual',
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');
  const page = await (await fetch(`${base}/wp-admin/`, { headers: { cookie } })).text();
  const nonce = /<meta name="billing-admin-nonce" content="([^"]*)"/.exec(page)?.[1];
  if (!nonce) throw new Error('sign-in failed: no admin nonce');
  return { cookie, nonce };
}

/** One size: its own database, seeded to that size, and a service on it with a signed-in administrator. */
interface Site {
  size: number;
  kernel: Kernel;
  close(): Promise<void>;
  api: string;
  ajax(fields: Record<string, string>): string;
  basic: Record<string, string>;
  cookie: Record<string, string>;
}

async function openSite(env: BenchEnv, size: number): Promise<Site> {
  const db = await env.database();
  const kernel = await env.kernel(db.url);
  const secs = await seedScale(kernel, 0, size);
  console.log(`  seeded ${size.toLocaleString('en')} invoices (${secs.toFixed(1)} s)`);
  const user = await kernel.identity.users.create(
    { login: 'bench', email: 'bench@example.com', role: 'administrator', password: 'bench-pass-1234' },
    CLI,
  );
  const { password } = await kernel.identity.appPasswords.create(user, 'bench', CLI);
  const session = await signIn(kernel.url, 'bench', 'bench-pass-1234');
  return {
    size,
    kernel,
    async close() {
      await kernel.stop();
      // BENCH_SCALE_KEEP=1 keeps the seeded database, for EXPLAIN (ANALYZE, BUFFERS) of its queries
      if (process.env.BENCH_SCALE_KEEP) console.log(`  kept the database of ${size}: ${db.url}`);
      else await db.close();
    },
    api: `${kernel.url}/wp-json/billing/v1`,
    ajax: (fields) =>
      `${kernel.url}/wp-admin/admin-ajax.php?${new URLSearchParams({ action: 'billing_get_report_data', _wpnonce: session.nonce, ...fields })}`,
    basic: { authorization: `Basic ${Buffer.from(`bench:${password}`).toString('base64')}` },
    cookie: { cookie: session.cookie },
  };
}

interface Route {
  name: string;
  url(site: Site): string;
  headers: 'basic' | 'cookie';
}

const year = String(new Date().getUTCFullYear() - 1);
const ROUTES: Route[] = [
  { name: 'GET /invoices/{id}', url: (s) => `${s.api}/invoices/${Math.floor(s.size / 2) + 1}`, headers: 'basic' },
  { name: 'list page 1 (per_page=20)', url: (s) => `${s.api}/invoices?per_page=20`, headers: 'basic' },
  // 90 % of the way down the default order: the page an OFFSET scan pays most for
  {
    name: 'list deep page (90 %, per_page=20)',
    url: (s) => `${s.api}/invoices?per_page=20&page=${Math.floor((s.size * 0.9) / 20)}`,
    headers: 'basic',
  },
  {
    name: "search (a client's name)",
    url: (s) => `${s.api}/invoices?search=${clientName(Math.floor(s.size / PER_CLIENT / 3))}&per_page=20`,
    headers: 'basic',
  },
  {
    name: `report ${year} by month`,
    url: (s) => s.ajax({ start: `${year}-01-01`, end: `${year}-12-31`, group: 'month' }),
    headers: 'cookie',
  },
  { name: 'dashboard totals (all-time report)', url: (s) => s.ajax({ start: '2000-01-01', group: 'month' }), headers: 'cookie' },
  { name: 'dashboard overdue list', url: (s) => `${s.api}/invoices?overdue=true&per_page=100`, headers: 'basic' },
  {
    name: "a client's invoices",
    url: (s) => `${s.api}/invoices?client_id=${CLIENT_ID_BASE + Math.floor(s.size / PER_CLIENT / 2)}&per_page=20`,
    headers: 'basic',
  },
];

/** The median of five requests sent one at a time: a figure even where loaded requests time out. */
async function alone(url: string, headers: Record<string, string>): Promise<{ ms: number; total: string | null }> {
  const check = await fetch(url, { headers });
  if (!check.ok) throw new Error(`${url}: ${check.status} ${await check.text()}`);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await (await fetch(url, { headers })).arrayBuffer();
    times.push(performance.now() - t);
  }
  return { ms: times.sort((x, y) => x - y)[2]!, total: check.headers.get('x-wp-total') };
}

export const scale: Scenario = {
  name: 'scale',
  onlyWhenNamed: true,
  description: `the same routes at ${scaleSizes()
    .map((n) => n.toLocaleString('en'))
    .join(
      ', ',
    )} invoices (BENCH_SCALE_SIZES), each size its own database; ratio = throughput at that size / at the smallest, measured alternately`,
  async run(env: BenchEnv): Promise<Comparison[]> {
    // every size at once, each in its own database and service, so that a route is measured at two sizes
    // alternately (a slow minute of the machine falls on both) rather than one size after the other
    const sites: Site[] = [];
    try {
      for (const size of scaleSizes()) sites.push(await openSite(env, size));
      const [smallest, ...larger] = sites as [Site, ...Site[]];
      const headersOf = (r: Route, s: Site) => (r.headers === 'basic' ? s.basic : s.cookie);
      const load = (r: Route, s: Site) => () => measureHttp({ url: r.url(s), headers: headersOf(r, s) }, env);
      // JIT and caches warm before any figure
      for (const s of sites) for (const r of ROUTES) await measureHttp({ url: r.url(s), headers: headersOf(r, s), seconds: 1 }, env);
      const out: Comparison[] = [];
      for (const r of ROUTES) {
        const first = await alone(r.url(smallest), headersOf(r, smallest));
        for (const s of larger) {
          const one = await alone(r.url(s), headersOf(r, s));
          const m = await alternate(load(r, s), load(r, smallest), env);
          const c: Comparison = {
            scenario: `${r.name} @ ${s.size.toLocaleString('en')}`,
            ...m,
            baselineName: `@ ${smallest.size.toLocaleString('en')}`,
            note: `${(m.baseline.throughput / m.ours.throughput).toFixed(2)}x slower loaded; alone ${one.ms.toFixed(1)} ms vs ${first.ms.toFixed(1)} ms${one.total ? `; X-WP-Total ${one.total}` : ''}`,
          };
          console.log(`  ${formatRow(c)}`);
          out.push(c);
        }
      }
      return out;
    } finally {
      for (const s of sites) await s.close();
    }
  },
};
