import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { REPORT_SCAN_SQL } from '../../core/reports/report-service.ts';
import { bootKernel, RestClient, useService, type TestUser } from '../../testing/index.ts';

/**
 * The count and sum tables of issue 15 (billing_document_counts, billing_invoice_days,
 * billing_payment_days) against the rows they summarise: X-WP-Total, deep pages and the report must
 * answer exactly what counting and summing the documents, payments and refunds answers, after
 * concurrent writes on two instances sharing the database.
 */
const svc = useService();
let a: Kernel;
let b: Kernel;
let admin: TestUser;

/** REST as the administrator on instance `k`. */
async function rest(k: Kernel, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; total: string | null }> {
  const res = await new RestClient(k.url, admin.authorization).request(method, path, body);
  return { status: res.status, body: res.body, total: res.headers.get('x-wp-total') };
}

async function count(where: string, params: unknown[] = []): Promise<number> {
  const [{ n }] = await a.db.query<{ n: number }>(`select count(*)::int as n from billing_documents where ${where}`, params);
  return n!;
}

/** An issued (or draft) invoice of one untaxed line, created over REST on instance `k`. */
async function invoice(k: Kernel, price: number, opts: { status?: string; currency?: string; issue_date?: string } = {}): Promise<any> {
  const res = await rest(k, 'POST', '/invoices', {
    items: [{ name: 'Work', quantity: 1, price, taxable: false }],
    customer_name: 'Jane Roe',
    status: opts.status ?? 'available',
    currency: opts.currency ?? 'USD',
    ...(opts.issue_date ? { issue_date: opts.issue_date } : {}),
  });
  expect(res.status).toBe(201);
  return res.body;
}

const OVERDUE = `and due_date < (now() at time zone 'UTC')::date and due > 0 and status in ('available', 'partial', 'unpaid')`;

/** Every list total the count table answers, on both instances, against count(*). */
async function expectTotalsExact(): Promise<void> {
  const filters: Array<[string, string, unknown[]]> = [
    ['', '', []],
    ['&status=draft', `and status = 'draft'`, []],
    ['&status=available,paid', `and status in ('available', 'paid')`, []],
    ['&status=partial', `and status = 'partial'`, []],
    ['&status=cancelled', `and status = 'cancelled'`, []],
    // the dashboard's overdue list (site timezone UTC here), from the open-documents-per-due-date table
    ['&overdue=true', OVERDUE, []],
    ['&overdue=true&status=partial,draft', `${OVERDUE} and status = 'partial'`, []],
  ];
  for (const [query, where, params] of filters) {
    const expected = await count(`kind = 'invoice' and trashed_at is null ${where}`, params);
    for (const k of [a, b]) {
      const res = await rest(k, 'GET', `/invoices?per_page=1${query}`);
      expect(res.status).toBe(200);
      expect({ query, total: Number(res.total) }).toEqual({ query, total: expected });
    }
  }
}

beforeAll(async () => {
  a = svc.kernel;
  b = await bootKernel(svc.databaseUrl);
  svc.beforeStop(() => b.stop());
  admin = await svc.makeUser('boss', 'administrator', 'boss-pass-1');
});

describe('X-WP-Total from the count table', () => {
  it('stays equal to count(*) after concurrent creates, trashes, restores and status changes on two instances', async () => {
    const first = await Promise.all(
      Array.from({ length: 12 }, (_, i) => invoice(i % 2 ? a : b, 10 + i, { status: i % 3 ? 'available' : 'draft' })),
    );
    await expectTotalsExact();

    const ids = first.map((d) => d.id as number);
    // creates, trashes, restores, payments (status changes) and a cancellation, all at once on both instances
    await Promise.all([
      ...Array.from({ length: 16 }, (_, i) => invoice(i % 2 ? a : b, 100 + i, { status: i % 4 ? 'available' : 'draft' })),
      ...ids.slice(0, 4).map((id, i) => rest(i % 2 ? a : b, 'DELETE', `/invoices/${id}`)),
      ...ids.slice(4, 6).map(async (id, i) => {
        expect((await rest(i % 2 ? a : b, 'DELETE', `/invoices/${id}`)).status).toBe(200);
        await (i % 2 ? b : a).api.invoices.restore(id, CLI);
      }),
      ...[7, 8].map((i) => rest(i % 2 ? a : b, 'POST', `/invoices/${ids[i]}/payments`, { amount: 5, method: 'cash', status: 'completed' })),
      rest(a, 'POST', `/invoices/${ids[10]}/cancel`, { reason: 'wrong' }),
    ]);
    // the restore after a trash, across instances, raced nothing out of the counts
    expect(await count(`id = any($1) and trashed_at is null`, [ids.slice(4, 6)])).toBe(2);
    await expectTotalsExact();

    // a trashed invoice restored twice over, and one trashed again: the count moves once each time
    await Promise.all([a.api.invoices.restore(ids[0]!, CLI), b.api.invoices.restore(ids[1]!, CLI)]);
    await Promise.all([rest(b, 'DELETE', `/invoices/${ids[2]}`).catch(() => null), rest(a, 'DELETE', `/invoices/${ids[5]}`)]);
    await expectTotalsExact();

    // the count table is what the total was read from: a row written around the trigger shows
    const [{ n: kept }] = await a.db.query<{ n: number }>(`select sum(n)::int as n from billing_document_counts where kind = 'invoice'`);
    expect(kept).toBe(await count(`kind = 'invoice' and trashed_at is null`));
    // and so are the day counts a deep page lands by: each day's, per status, as the rows have it
    const perDay = `select day::text, status, sum(n)::int as n from billing_document_day_counts group by 1, 2 having sum(n) <> 0 order by 1, 2`;
    const fromRows = `select issue_date::text as day, status, count(*)::int as n from billing_documents where trashed_at is null group by 1, 2 order by 1, 2`;
    expect(await a.db.query(perDay)).toEqual(await a.db.query(fromRows));
  });

  it('serves a deep page with the same rows as an OFFSET over the whole list, in either order and by status', async () => {
    // a few made over REST besides the SQL rows below, so the last page of 100 is a partial one
    await Promise.all([invoice(a, 7), invoice(b, 8), invoice(a, 9, { status: 'draft' })]);
    // 1000 invoices over 400 days, two or three a day (a page starts inside a day), inserted by SQL (the
    // trigger keeps the counts for these as well)
    await a.db.query(
      `insert into billing_documents (kind, number, status, currency, issue_date, due_date, total, due, access_key)
       select 'invoice', 'SQL-' || g, (array['draft', 'available', 'paid', 'partial'])[1 + g % 4], 'USD',
              date '2024-01-01' + (g * 7) % 400, date '2024-01-31' + (g * 7) % 400, 10, case when g % 4 = 2 then 0 else 10 end, 'k-' || g
         from generate_series(1, 1000) g`,
    );
    const total = await count(`kind = 'invoice' and trashed_at is null`);
    for (const [query, where, order] of [
      ['', '', 'desc'],
      ['&order=asc', '', 'asc'],
      ['&status=available', `and status = 'available'`, 'desc'],
    ] as const) {
      const n = await count(`kind = 'invoice' and trashed_at is null ${where}`);
      expect(n).toBeGreaterThan(210); // every page below is past the offset where the deep path starts
      for (const page of [21, Math.ceil(n / 10) - 1, Math.ceil(n / 10)]) {
        const res = await rest(page % 2 ? a : b, 'GET', `/invoices?per_page=10&page=${page}${query}`);
        expect(res.status).toBe(200);
        const expected = await a.db.query<{ id: string }>(
          `select id from billing_documents where kind = 'invoice' and trashed_at is null ${where}
            order by issue_date ${order}, id ${order} limit 10 offset $1`,
          [(page - 1) * 10],
        );
        expect({ page, query, ids: res.body.map((d: any) => d.id) }).toEqual({ page, query, ids: expected.map((r) => Number(r.id)) });
      }
    }
    expect(total).toBeGreaterThan(1000);
    // the last page and past it, as WordPress answers them
    const last = await rest(a, 'GET', `/invoices?per_page=100&page=${Math.ceil(total / 100)}`);
    expect(last.body).toHaveLength(total % 100 || 100);
    expect(Number(last.total)).toBe(total);
    const past = await rest(b, 'GET', `/invoices?per_page=100&page=${Math.ceil(total / 100) + 1}`);
    expect({ status: past.status, code: past.body.code }).toEqual({ status: 400, code: 'billing_rest_invalid_page_number' });
    await expectTotalsExact();
    // the overdue list's rows (read through the open documents' index) as the plain query orders them
    const overdue = await rest(a, 'GET', '/invoices?overdue=true&per_page=100&page=2');
    const expected = await a.db.query<{ id: string }>(
      `select id from billing_documents where kind = 'invoice' and trashed_at is null ${OVERDUE}
        order by issue_date desc, id desc limit 100 offset 100`,
    );
    expect(expected.length).toBeGreaterThan(10);
    expect(overdue.body.map((d: any) => d.id)).toEqual(expected.map((r) => Number(r.id)));
    // a due date moved past today takes an invoice out of the overdue count, and back
    const [{ id: due }] = await a.db.query<{ id: string }>(`select id from billing_documents where number = 'SQL-1'`);
    await a.db.query(`update billing_documents set due_date = current_date + 400 where id = $1`, [due]);
    await expectTotalsExact();
    await a.db.query(`update billing_documents set due_date = date '2020-01-01', due = 3 where id = $1`, [due]);
    await expectTotalsExact();
  });
});

describe('report and dashboard sums from the per-day tables', () => {
  const plainSums = async (currency: string, start: string, end: string, tz: string) => {
    const [inv] = await a.db.query<{ invoiced: string; outstanding: string }>(
      `select coalesce(sum(total), 0)::text as invoiced, coalesce(sum(due), 0)::text as outstanding from billing_documents
        where kind = 'invoice' and trashed_at is null and status not in ('draft', 'cancelled') and currency = $1
          and issue_date between $2::date and $3::date`,
      [currency, start, end],
    );
    const [paid] = await a.db.query<{ paid: string }>(
      `select ((select coalesce(sum(p.amount), 0) from billing_payments p join billing_documents d on d.id = p.invoice_id
                where d.trashed_at is null and p.status in ('completed', 'refunded') and p.currency = $1
                  and (p.date at time zone $4)::date between $2::date and $3::date)
             - (select coalesce(sum(r.amount), 0) from billing_payment_refunds r join billing_payments p on p.id = r.payment_id
                 join billing_documents d on d.id = p.invoice_id
                where d.trashed_at is null and p.currency = $1 and (r.created_at at time zone $4)::date between $2::date and $3::date))::text as paid`,
      [currency, start, end, tz],
    );
    return { invoiced: Number(inv!.invoiced), paid: Number(paid!.paid), outstanding: Number(inv!.outstanding) };
  };

  /** The report (per-day tables) against the scanning query and plain sums, for a few ranges and groups. */
  async function expectReportsExact(tz: string): Promise<void> {
    for (const k of [a, b]) {
      for (const [start, end, group] of [
        ['2000-01-01', '2030-12-31', 'month'],
        ['2025-01-01', '2025-12-31', 'week'],
        ['2026-01-01', '2026-12-31', 'day'],
      ] as const) {
        for (const currency of ['USD', 'EUR']) {
          const fast = await k.api.reports.data({ start, end, group, currency });
          const scan = await k.db.query<{ period: string; invoiced: string; paid: string; outstanding: string }>(REPORT_SCAN_SQL, [
            start,
            end,
            group,
            currency,
            tz,
          ]);
          const label = `${start}..${end} ${group} ${currency}`;
          expect({ label, invoiced: fast.series.invoiced, paid: fast.series.paid, outstanding: fast.series.outstanding }).toEqual({
            label,
            invoiced: scan.map((r) => Number(r.invoiced)),
            paid: scan.map((r) => Number(r.paid)),
            outstanding: scan.map((r) => Number(r.outstanding)),
          });
          expect({ label, ...fast.totals }).toEqual({ label, ...(await plainSums(currency, start, end, tz)) });
        }
      }
    }
  }

  it('equal plain SQL sums after payments, refunds, trashes, restores, cancellations and a timezone change', async () => {
    const made = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        invoice(i % 2 ? a : b, 100 + i * 10.5, {
          currency: i % 3 ? 'USD' : 'EUR',
          issue_date: `202${5 + (i % 2)}-0${1 + (i % 9)}-1${i % 10}`,
          status: i === 13 ? 'draft' : 'available',
        }),
      ),
    );
    const ids = made.map((d) => d.id as number);
    const pay = (k: Kernel, id: number, amount: number, date?: string) =>
      rest(k, 'POST', `/invoices/${id}/payments`, { amount, method: 'bank_transfer', status: 'completed', ...(date ? { date } : {}) });
    const payments = await Promise.all([
      pay(a, ids[0]!, 50, '2025-03-31 23:30:00'),
      pay(b, ids[1]!, 100 + 10.5),
      pay(a, ids[2]!, 20.25, '2026-01-01 00:15:00'),
      pay(b, ids[3]!, 1),
      pay(a, ids[4]!, 30),
      pay(b, ids[5]!, 12),
    ]);
    for (const p of payments) expect(p.status).toBe(201);
    const pending = await rest(a, 'POST', `/invoices/${ids[6]}/payments`, { amount: 40, method: 'bank_transfer', status: 'pending' });
    expect(pending.status).toBe(201);
    await Promise.all([
      rest(b, 'POST', `/payments/${payments[0]!.body.id}/refund`, { amount: 10, reason: 'goodwill' }),
      rest(a, 'POST', `/payments/${payments[1]!.body.id}/refund`, { amount: 110.5, reason: 'returned' }),
      rest(b, 'POST', `/payments/${pending.body.id}/complete`, {}),
      rest(a, 'DELETE', `/invoices/${ids[2]}`),
      rest(b, 'DELETE', `/invoices/${ids[4]}`),
      rest(a, 'POST', `/invoices/${ids[7]}/cancel`, { reason: 'wrong' }),
    ]);
    await b.api.invoices.restore(ids[4]!, CLI);
    await expectReportsExact('UTC');

    // a timezone east of UTC moves the payment of 23:30 UTC and the refunds to the next day
    await a.options.set('timezone', 'Asia/Kathmandu', CLI);
    await b.options.set('timezone', 'Asia/Kathmandu', CLI); // as the change feed would; both copies current
    const [{ tz }] = await a.db.query<{ tz: string }>('select distinct tz from billing_payment_days');
    expect(tz).toBe('Asia/Kathmandu');
    await pay(a, ids[8]!, 7.5, '2026-02-28 18:20:00');
    await expectReportsExact('Asia/Kathmandu');

    // an instance whose copy of the option is behind still answers the scan's figures
    await a.db.query(`update billing_options set value = '"America/Los_Angeles"' where key = 'timezone'`);
    const stale = await b.api.reports.data({ start: '2000-01-01', end: '2030-12-31', group: 'month', currency: 'USD' });
    expect(stale.totals).toEqual(await plainSums('USD', '2000-01-01', '2030-12-31', 'Asia/Kathmandu'));
  });
});
