// Instalments over real HTTP on the real service (docs/payments.md, Instalments): the schedule's
// representation, overdue per instalment, payments filling the instalments oldest first, a schedule that
// does not sum refused with nothing written, the page and PDF in the invoice's language, the pay route
// asking for the amount due now (gateway A faked as a real HTTP server), and reminders counting from the
// earliest unpaid instalment.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { addDays, siteDate } from '../../core/time/site-time.ts';
import { useService, waitFor, type TestUser } from '../../testing/index.ts';
import { gatewayA, type Driver } from '../gateways/drivers.ts';
import { pdfText } from '../pdf/pdf-text.ts';

const svc = useService({ mail: true, plugins: ['reminders'], options: { company_email: 'office@example.com' } });
let k: Kernel;
let admin: TestUser;
let A: Driver;

beforeAll(async () => {
  k = svc.kernel;
  admin = await svc.makeUser('boss', 'administrator');
  A = await gatewayA();
  await k.plugins.activate(A.plugin, CLI);
  await A.configure(k);
});

afterAll(async () => {
  await A?.fake.close();
});

const call = (method: string, path: string, body?: unknown) => svc.rest(admin).request(method, path, body);
const today = () => siteDate(new Date(), 'UTC');
const day = (n: number) => addDays(today(), n);
const item = (price: string) => ({ name: 'Kitchen refit', quantity: 1, price, taxable: false });

async function scheduled(price: string, schedule: unknown[], extra: Record<string, unknown> = {}) {
  const res = await call('POST', '/invoices', {
    items: [item(price)],
    status: 'available',
    customer_name: 'Ada',
    customer_email: 'ada@example.com',
    issue_date: day(-40),
    schedule,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body;
}
const pay = (id: number, amount: string) => call('POST', `/invoices/${id}/payments`, { amount, method: 'cheque', status: 'completed' });

describe('instalments', () => {
  it('show each instalment with paid, due and status; overdue is per instalment; payments fill them oldest first', async () => {
    const inv = await scheduled('1000.00', [
      { due_date: day(-30), percent: 30 },
      { due_date: day(10), percent: 30 },
      { due_date: day(40), percent: 40 },
    ]);
    expect(inv.due_date).toBe(day(40));
    expect(inv.overdue).toBe(true);
    expect(inv.schedule).toEqual([
      { due_date: day(-30), amount: 300, paid: 0, due: 300, status: 'overdue' },
      { due_date: day(10), amount: 300, paid: 0, due: 300, status: 'open' },
      { due_date: day(40), amount: 400, paid: 0, due: 400, status: 'open' },
    ]);

    expect((await pay(inv.id, '100.00')).status).toBe(201);
    let now = (await call('GET', `/invoices/${inv.id}`)).body;
    expect(now.schedule.map((s: any) => [s.paid, s.status])).toEqual([
      [100, 'overdue'],
      [0, 'open'],
      [0, 'open'],
    ]);
    expect(now.overdue).toBe(true);

    // the first instalment paid: nothing past its date is unpaid, so the invoice is no longer overdue
    expect((await pay(inv.id, '250.00')).status).toBe(201);
    now = (await call('GET', `/invoices/${inv.id}`)).body;
    expect(now.schedule.map((s: any) => [s.paid, s.due, s.status])).toEqual([
      [300, 0, 'paid'],
      [50, 250, 'partial'],
      [0, 400, 'open'],
    ]);
    expect([now.status, now.overdue]).toEqual(['partial', false]);
  });

  it('fill the instalments oldest first for any sequence of partial payments recorded through the service', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 40_000 }), { minLength: 1, maxLength: 4 }), async (cents) => {
        const inv = await scheduled(
          '999.99',
          [
            { due_date: day(-40), percent: '33.3333' },
            { due_date: day(-1), percent: '33.3333' },
            { due_date: day(30), percent: '33.3334' },
          ],
          { currency: 'USD' },
        );
        expect(inv.schedule.map((s: any) => s.amount)).toEqual([333.33, 333.33, 333.33]);
        let received = 0;
        for (const c of cents) {
          if (received + c > 99_999) break;
          expect((await pay(inv.id, (c / 100).toFixed(2))).status).toBe(201);
          received += c;
        }
        const states = (await call('GET', `/invoices/${inv.id}`)).body.schedule as Array<{ amount: number; paid: number }>;
        let left = received;
        for (const s of states) {
          const expected = Math.min(left, Math.round(s.amount * 100));
          expect(Math.round(s.paid * 100)).toBe(expected);
          left -= expected;
        }
      }),
      { numRuns: 6 },
    );
  });

  it('refuse a schedule that does not sum to the total with 400 naming schedule, writing nothing', async () => {
    const [{ n: before }] = await k.db.query<{ n: string }>("select count(*) as n from billing_documents where kind = 'invoice'");
    const next = (await call('GET', '/invoices?per_page=1')).headers.get('x-wp-total');
    const audits = async () =>
      (await k.db.query<{ n: string }>("select count(*) as n from billing_audit_log where action like 'invoice.%'"))[0]!.n;
    const auditsBefore = await audits();
    const res = await call('POST', '/invoices', {
      items: [item('1000.00')],
      customer_name: 'Ada',
      schedule: [
        { due_date: day(1), amount: '500.00' },
        { due_date: day(2), amount: '499.00' },
      ],
    });
    expect([res.status, res.body.code, Object.keys(res.body.data.params)]).toEqual([400, 'rest_invalid_param', ['schedule']]);
    const [{ n: after }] = await k.db.query<{ n: string }>("select count(*) as n from billing_documents where kind = 'invoice'");
    expect(after).toBe(before);
    expect((await call('GET', '/invoices?per_page=1')).headers.get('x-wp-total')).toBe(next);
    expect(await audits()).toBe(auditsBefore);
  });

  it('print the schedule on the page and the PDF in the invoice language, and the pay route asks for the amount due now', async () => {
    const inv = await scheduled(
      '900.00',
      [
        { due_date: day(-30), amount: '300.00' },
        { due_date: day(20), amount: '600.00' },
      ],
      { locale: 'de' },
    );
    const key = await k.api.invoices.accessKey(inv.id);
    const page = await (await fetch(`${k.url}/billing/invoice/${inv.id}?key=${encodeURIComponent(key)}`)).text();
    expect(page).toContain('Zahlungsplan');
    expect(page).toContain('überfällig');
    expect(page).toMatch(/Jetzt fälliger Betrag: 300,00/);
    const pdf = (await pdfText(new Uint8Array(await (await fetch(`${k.url}/billing/invoice/${inv.id}/pdf?key=${key}`)).arrayBuffer())))
      .text;
    expect(pdf).toMatch(/ZAHLUNGSPLAN/);
    expect(pdf).toMatch(/600,00/);

    const res = await fetch(`${k.url}/billing/invoice/${inv.id}/pay?key=${encodeURIComponent(key)}`, {
      method: 'POST',
      body: new URLSearchParams({ gateway: A.method }),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    const [p] = await k.db.query<{ amount: string }>('select amount::text from billing_payments where invoice_id = $1', [inv.id]);
    expect(Number(p!.amount)).toBe(300);
  });

  it('add a charge (a late fee) to the earliest unpaid instalment, so the schedule still sums to the total', async () => {
    const inv = await scheduled('300.00', [
      { due_date: day(-20), amount: '100.00' },
      { due_date: day(-5), amount: '100.00' },
      { due_date: day(20), amount: '100.00' },
    ]);
    expect((await pay(inv.id, '100.00')).status).toBe(201);
    await k.db.transaction((tx) => k.api.invoices.addCharge(tx, inv.id, { name: 'Late fee', amount: '7.50' }, CLI));
    const now = (await call('GET', `/invoices/${inv.id}`)).body;
    expect(now.totals.total).toBe(307.5);
    expect(now.schedule.map((s: any) => [s.amount, s.paid, s.status])).toEqual([
      [100, 100, 'paid'],
      [107.5, 0, 'overdue'],
      [100, 0, 'open'],
    ]);
  });

  it('remind from the earliest unpaid instalment, not the last due date', async () => {
    const inv = await scheduled('500.00', [
      { due_date: day(-1), amount: '100.00' },
      { due_date: day(60), amount: '400.00' },
    ]);
    const other = await scheduled('500.00', [
      { due_date: day(-1), amount: '100.00' },
      { due_date: day(60), amount: '400.00' },
    ]);
    expect((await pay(other.id, '100.00')).status).toBe(201);
    await k.jobs.runNow('billing_send_payment_reminders');
    const sent = await k.db.query<{ invoice_id: string; offset_days: number }>(
      "select invoice_id, offset_days from reminders_sent where invoice_id = any($1) and status <> 'skipped' order by invoice_id",
      [[inv.id, other.id]],
    );
    expect(sent.map((r) => [Number(r.invoice_id), r.offset_days])).toEqual([[inv.id, 1]]);
  });

  it('start the reminder steps again for a later instalment that falls late after an earlier one was reminded and paid', async () => {
    const inv = await scheduled('300.00', [
      { due_date: day(-10), amount: '100.00' },
      { due_date: day(-1), amount: '100.00' },
      { due_date: day(60), amount: '100.00' },
    ]);
    const reminded = async () =>
      (
        await k.db.query<{ instalment: number; offset_days: number }>(
          "select instalment, offset_days from reminders_sent where invoice_id = $1 and status <> 'skipped' order by instalment, offset_days",
          [inv.id],
        )
      ).map((r) => [r.instalment, r.offset_days]);
    await k.jobs.runNow('billing_send_payment_reminders');
    expect(await reminded()).toEqual([[0, 7]]);
    expect((await pay(inv.id, '100.00')).status).toBe(201);
    await k.jobs.runNow('billing_send_payment_reminders');
    expect(await reminded()).toEqual([
      [0, 7],
      [1, 1],
    ]);
    // both went out, each as its own mail
    await waitFor(() => svc.mail.received.filter((m) => String(m.parsed.subject ?? '').includes(inv.number)).length === 2 || undefined, {
      timeoutMs: 15_000,
      what: 'two reminders of the invoice',
    });
  });
});
