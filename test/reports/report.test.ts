import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { useService, type AjaxClient } from '../../testing/index.ts';

/**
 * Report totals against sums computed here, independently of the SQL: every amount of the seed is kept
 * in integer cents, every date as the site's wall-clock date, and the expected series are summed in
 * JavaScript. The site is in New York, so payments near midnight fall on another UTC day than the
 * site's, and the range's ends cut a week and a month.
 */
const TZ = 'America/New_York';
const START = '2026-02-27';
const END = '2026-04-30';

interface SeedInvoice {
  key: string;
  issue: string;
  cents: number;
  currency?: string;
  status?: 'draft' | 'available';
  trashed?: boolean;
  cancelled?: boolean;
}
interface SeedPayment {
  invoice: string;
  cents: number;
  at: string;
  pending?: boolean;
}
interface SeedRefund {
  payment: number;
  cents: number;
  at: string;
}

const INVOICES: SeedInvoice[] = [
  { key: 'I1', issue: '2026-02-27', cents: 10_010 },
  { key: 'I2', issue: '2026-02-28', cents: 25_000 },
  { key: 'I3', issue: '2026-03-01', cents: 7_555 },
  { key: 'I4', issue: '2026-03-02', cents: 100_000 },
  { key: 'I5', issue: '2026-03-09', cents: 1_234 },
  { key: 'I6', issue: '2026-04-15', cents: 50_000 },
  { key: 'I7', issue: '2026-04-30', cents: 99 },
  { key: 'before', issue: '2026-02-26', cents: 3_000 },
  { key: 'after', issue: '2026-05-01', cents: 4_000 },
  { key: 'draft', issue: '2026-03-01', cents: 99_900, status: 'draft' },
  { key: 'trashed', issue: '2026-03-01', cents: 88_800, trashed: true },
  { key: 'cancelled', issue: '2026-03-03', cents: 4_000, cancelled: true },
  { key: 'usd', issue: '2026-03-01', cents: 77_700, currency: 'USD' },
];

const PAYMENTS: SeedPayment[] = [
  { invoice: 'I1', cents: 10_010, at: '2026-02-28 23:30:00' }, // 04:30 UTC on 1 March: still 28 February here
  { invoice: 'I2', cents: 10_000, at: '2026-03-01 00:30:00' }, // 05:30 UTC
  { invoice: 'I4', cents: 100_000, at: '2026-03-05 12:00:00' },
  { invoice: 'I3', cents: 7_555, at: '2026-03-06 12:00:00', pending: true },
  { invoice: 'trashed', cents: 88_800, at: '2026-03-01 10:00:00' },
  { invoice: 'usd', cents: 77_700, at: '2026-03-02 10:00:00' },
  { invoice: 'I6', cents: 12_345, at: '2026-04-30 23:59:59' }, // 03:59 UTC on 1 May
  { invoice: 'I5', cents: 1_234, at: '2026-05-01 00:00:00' }, // after the range
  { invoice: 'before', cents: 500, at: '2026-02-26 23:59:59' }, // before the range
];

/** Refunds by index into PAYMENTS, dated in site time. */
const REFUNDS: SeedRefund[] = [
  { payment: 2, cents: 20_000, at: '2026-03-10 12:00:00' },
  { payment: 2, cents: 5_000, at: '2026-05-02 09:00:00' }, // after the range: counts nowhere here, but lowers what was paid
  { payment: 0, cents: 10, at: '2026-02-27 00:00:01' }, // dated before its payment; the report goes by each event's own date
];

type Group = 'day' | 'week' | 'month';

function periodOf(date: string, group: Group): string {
  if (group === 'day') return date;
  if (group === 'month') return date.slice(0, 7);
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

function periods(start: string, end: string, group: Group): string[] {
  const out: string[] = [];
  for (let d = new Date(`${start}T00:00:00Z`); d.toISOString().slice(0, 10) <= end; d.setUTCDate(d.getUTCDate() + 1)) {
    const p = periodOf(d.toISOString().slice(0, 10), group);
    if (out.at(-1) !== p) out.push(p);
  }
  return out;
}

const inRange = (date: string, start: string, end: string) => date >= start && date <= end;

/** The expected report in cents, from the seed alone. */
function expected(start: string, end: string, group: Group, currency = 'EUR') {
  const labels = periods(start, end, group);
  const zero = () => Object.fromEntries(labels.map((l) => [l, 0])) as Record<string, number>;
  const invoiced = zero();
  const paid = zero();
  const outstanding = zero();
  const live = (inv: SeedInvoice) => (inv.currency ?? 'EUR') === currency && !inv.trashed;
  for (const inv of INVOICES) {
    if (!live(inv) || inv.cancelled || inv.status === 'draft' || !inRange(inv.issue, start, end)) continue;
    const received = PAYMENTS.map((p, i) => ({ p, i })).filter(({ p }) => p.invoice === inv.key && !p.pending);
    const refunds = REFUNDS.filter((r) => received.some(({ i }) => i === r.payment));
    const net = received.reduce((s, { p }) => s + p.cents, 0) - refunds.reduce((s, r) => s + r.cents, 0);
    invoiced[periodOf(inv.issue, group)]! += inv.cents;
    outstanding[periodOf(inv.issue, group)]! += Math.max(0, inv.cents - net);
  }
  const invoiceOf = (key: string) => INVOICES.find((i) => i.key === key)!;
  PAYMENTS.forEach((p) => {
    const day = p.at.slice(0, 10);
    if (p.pending || !live(invoiceOf(p.invoice)) || !inRange(day, start, end)) return;
    paid[periodOf(day, group)]! += p.cents;
  });
  for (const r of REFUNDS) {
    const p = PAYMENTS[r.payment]!;
    const day = r.at.slice(0, 10);
    if (!live(invoiceOf(p.invoice)) || !inRange(day, start, end)) continue;
    paid[periodOf(day, group)]! -= r.cents;
  }
  const series = {
    invoiced: labels.map((l) => invoiced[l]!),
    paid: labels.map((l) => paid[l]!),
    outstanding: labels.map((l) => outstanding[l]!),
  };
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return { labels, series, totals: { invoiced: sum(series.invoiced), paid: sum(series.paid), outstanding: sum(series.outstanding) } };
}

const cents = (xs: number[]) => xs.map((x) => Math.round(x * 100));

const svc = useService({ options: { timezone: TZ, currency: 'EUR' } });
let k: Kernel;
const browsers: Record<string, AjaxClient> = {};

async function signIn(login: string, role: string): Promise<void> {
  await svc.makeUser(login, role, `${login}-pass-1`);
  browsers[login] = await svc.ajax(login, `${login}-pass-1`);
}

async function report(
  who: string,
  fields: Record<string, string>,
  method: 'POST' | 'GET' = 'POST',
): Promise<{ status: number; body: any }> {
  const client = browsers[who]!;
  if (method === 'POST') return client.call('billing_get_report_data', fields);
  const params = new URLSearchParams({ action: 'billing_get_report_data', _wpnonce: client.nonce, ...fields });
  const res = await client.session.fetch(`/wp-admin/admin-ajax.php?${params}`);
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

beforeAll(async () => {
  k = svc.kernel;
  const ids: Record<string, number> = {};
  for (const inv of INVOICES) {
    const doc = await k.api.invoices.create(
      {
        items: [{ name: `Work ${inv.key}`, quantity: 1, price: (inv.cents / 100).toFixed(2) }],
        customer_name: `Customer ${inv.key}`,
        issue_date: inv.issue,
        currency: inv.currency ?? 'EUR',
        status: inv.status ?? 'available',
      } as never,
      { actor: CLI, source: 'api' },
    );
    ids[inv.key] = doc.id;
    if (inv.cancelled)
      await k.api.creditNotes.create(doc.id, { amount: (inv.cents / 100).toFixed(2), reason: 'Cancelled order' } as never, CLI);
  }
  const paymentIds: number[] = [];
  for (const p of PAYMENTS) {
    const { payment } = await k.api.payments.record(
      ids[p.invoice]!,
      {
        amount: (p.cents / 100).toFixed(2),
        method: 'bank_transfer',
        status: p.pending ? 'pending' : 'completed',
        date: p.at,
      },
      CLI,
    );
    paymentIds.push(payment.id);
  }
  for (const r of REFUNDS) {
    await k.api.payments.refund(paymentIds[r.payment]!, { amount: (r.cents / 100).toFixed(2), reason: 'Returned goods' }, CLI);
    // a refund is dated when it is made: move the one just made to the seed's date (site time)
    await k.db.query(
      `update billing_payment_refunds set created_at = ($2::timestamp at time zone $3)
        where id = (select max(id) from billing_payment_refunds where payment_id = $1)`,
      [paymentIds[r.payment], r.at, TZ],
    );
  }
  for (const inv of INVOICES) if (inv.trashed) await k.api.invoices.trash(ids[inv.key]!, CLI);
  await k.outbox.drain();
  await signIn('boss', 'administrator');
  await signIn('viewer', 'billing_viewer');
  await signIn('sub', 'subscriber');
});

describe('billing_get_report_data', () => {
  it('the seed is what the report is checked against', async () => {
    const cancelled = await k.db.query<{ status: string }>(
      `select status from billing_documents where customer_name = 'Customer cancelled' and kind = 'invoice'`,
    );
    expect(cancelled[0]!.status).toBe('cancelled');
  });

  for (const group of ['day', 'week', 'month'] as const) {
    it(`sums invoiced, paid and outstanding per ${group} exactly as computed independently`, async () => {
      const res = await report('boss', { start: START, end: END, group });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const data = res.body.data;
      const want = expected(START, END, group);
      expect(data.labels).toEqual(want.labels);
      expect(cents(data.series.invoiced)).toEqual(want.series.invoiced);
      expect(cents(data.series.paid)).toEqual(want.series.paid);
      expect(cents(data.series.outstanding)).toEqual(want.series.outstanding);
      expect(cents([data.totals.invoiced, data.totals.paid, data.totals.outstanding])).toEqual([
        want.totals.invoiced,
        want.totals.paid,
        want.totals.outstanding,
      ]);
      expect(data).toMatchObject({ currency: 'EUR', group, start: START, end: END });
    });
  }

  it('gives the month figures worked out by hand', async () => {
    const { body } = await report('boss', { start: START, end: END, group: 'month' });
    expect(body.data.series).toEqual({
      // Feb: I1 + I2; Mar: I3 + I4 + I5; Apr: I6 + I7
      invoiced: [350.1, 1087.89, 500.99],
      // Feb: 100.10 − 0.10 refunded; Mar: 100 + 1000 − 200 refunded; Apr: 123.45 (the 50 refunded in May is outside)
      paid: [100, 900, 123.45],
      // Feb: 0.10 + 150; Mar: 75.55 (pending payment) + 250 + 0; Apr: 376.55 + 0.99
      outstanding: [150.1, 325.55, 377.54],
    });
    expect(body.data.totals).toEqual({ invoiced: 1938.98, paid: 1123.45, outstanding: 853.19 });
  });

  it("puts a payment on the site's date, not the UTC one", async () => {
    const { body } = await report('boss', { start: '2026-02-28', end: '2026-03-01', group: 'day' });
    expect(body.data.labels).toEqual(['2026-02-28', '2026-03-01']);
    // 100.10 paid late on 28 February (New York), 100.00 early on 1 March
    expect(body.data.series.paid).toEqual([100.1, 100]);
  });

  it('labels weeks by their Monday and months as Y-m', async () => {
    expect((await report('boss', { start: START, end: '2026-03-10', group: 'week' })).body.data.labels).toEqual([
      '2026-02-23',
      '2026-03-02',
      '2026-03-09',
    ]);
    expect((await report('boss', { start: START, end: END, group: 'month' })).body.data.labels).toEqual(['2026-02', '2026-03', '2026-04']);
  });

  it("counts one currency at a time: the site's by default, another on request", async () => {
    const usd = (await report('boss', { start: START, end: END, group: 'month', currency: 'USD' })).body.data;
    const want = expected(START, END, 'month', 'USD');
    expect(usd.currency).toBe('USD');
    expect(cents(usd.series.invoiced)).toEqual(want.series.invoiced);
    expect(cents(usd.series.paid)).toEqual(want.series.paid);
    expect(usd.totals).toEqual({ invoiced: 777, paid: 777, outstanding: 0 });
  });

  it('defaults to the last 30 days by day, and gives every period even when empty', async () => {
    const { body } = await report('boss', {});
    expect(body.data.group).toBe('day');
    expect(body.data.labels).toHaveLength(30);
    expect(body.data.labels.at(-1)).toBe(body.data.end);
    expect(body.data.series.invoiced).toHaveLength(30);
  });

  it('answers the legacy name and GET, and needs bill_view_reports', async () => {
    const legacy = await report('viewer', { action: 'billing_reports_data', start: START, end: END, group: 'month' }, 'GET');
    expect(legacy.status).toBe(200);
    expect(cents([legacy.body.data.totals.invoiced])).toEqual([expected(START, END, 'month').totals.invoiced]);
    const denied = await report('sub', { start: START, end: END });
    expect(denied.status).toBe(403);
    expect(denied.body.data.code).toBe('billing_forbidden');
    expect((await report('sub', { action: 'billing_reports_data' })).status).toBe(403);
  });

  it('refuses bad parameters with the REST codes', async () => {
    const bad = async (fields: Record<string, string>) => (await report('boss', fields)).body.data;
    expect(await bad({ start: '2026-02-30' })).toMatchObject({ code: 'rest_invalid_param', params: { start: expect.any(String) } });
    expect(await bad({ group: 'year' })).toMatchObject({ code: 'rest_invalid_param', params: { group: expect.any(String) } });
    expect(await bad({ currency: 'euro' })).toMatchObject({ code: 'rest_invalid_param', params: { currency: expect.any(String) } });
    expect(await bad({ currency: 'XYZ' })).toMatchObject({ code: 'rest_invalid_param', params: { currency: expect.any(String) } });
    expect(await bad({ start: '2026-03-02', end: '2026-03-01' })).toMatchObject({
      code: 'rest_invalid_param',
      params: { end: expect.any(String) },
    });
    expect(await bad({ start: '2020-01-01', end: '2026-01-01', group: 'day' })).toMatchObject({
      code: 'rest_invalid_param',
      params: { group: expect.any(String) },
    });
    expect((await report('boss', { start: '2020-01-01', end: '2026-01-01', group: 'month' })).body.data.labels).toHaveLength(73);
  });
});
