import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BillingError } from '../../core/errors.ts';
import type { PaymentOutcome } from '../../core/payments/payment-core.ts';
import { freshDatabase, usingPostgres, type TestDatabase } from '../../testing/index.ts';
import { ADMIN, inconsistencies, invoiceOf, moneyServices, reload, type MoneyServices } from './support.ts';

/**
 * Money under concurrency, through two separate pools on one database (two instances of the service):
 * concurrent partial payments, the same external key applied many times at once, concurrent refunds
 * racing for the same money, and credit-note numbers under concurrent creation.
 */
let tdb: TestDatabase;
let a: MoneyServices;
let b: MoneyServices;
const gatewayC = { channel: 'gateway', method: 'gateway_c' } as const;

/** Alternates the two instances. */
const inst = (i: number) => (i % 2 ? b : a);

beforeAll(async () => {
  tdb = await freshDatabase();
  // the embedded database serves 8 connections in all; a real PostgreSQL gets real parallelism
  a = await moneyServices(tdb.url, usingPostgres ? 10 : 3);
  b = await moneyServices(tdb.url, usingPostgres ? 10 : 3);
});

afterAll(async () => {
  if (a) expect(await inconsistencies(a.db)).toEqual([]);
  await a?.db.close();
  await b?.db.close();
  await tdb?.drop();
});

function counter(m: MoneyServices) {
  const seen: Record<string, number> = {};
  const bump = (k: string) => () => {
    seen[k] = (seen[k] ?? 0) + 1;
  };
  const offs = [
    m.hooks.addAction('billing_payment_completed', bump('completed')),
    m.hooks.addAction('billing_payment_received', bump('received')),
    m.hooks.addAction('billing_payment_refunded', bump('refunded')),
    m.hooks.addAction('billing_invoice_status_changed', (_i, _inv, from, to) => bump(`${from}>${to}`)()),
  ];
  return { seen, off: () => offs.forEach((o) => o()) };
}

describe('concurrent payments on one invoice', () => {
  it('20 partial payments that settle it exactly: paid to the cent, paid once, one status change each way', async () => {
    const inv = await invoiceOf(a, 1000);
    const ca = counter(a);
    const cb = counter(b);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        inst(i).payments.record(inv.id, { amount: '50.00', method: 'bank_transfer', status: 'completed' }, ADMIN),
      ),
    );
    ca.off();
    cb.off();
    expect(results.every((r) => r.created)).toBe(true);
    expect(new Set(results.map((r) => r.payment.reference)).size).toBe(20);
    expect(await reload(a, inv.id)).toMatchObject({
      status: 'paid',
      totals: { total: '1000.00', paid: '1000.00', credited: '0.00', due: '0.00' },
    });
    const merged: Record<string, number> = {};
    for (const s of [ca.seen, cb.seen]) for (const [k, v] of Object.entries(s)) merged[k] = (merged[k] ?? 0) + v;
    // every payment completes; only the one that brought due to 0 was not "received" (nothing left due)
    expect(merged).toEqual({ completed: 20, received: 19, 'available>partial': 1, 'partial>paid': 1 });
  });

  it('20 partial payments that leave some due: exact sum, partial', async () => {
    const inv = await invoiceOf(a, 1000);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        inst(i).core.apply(
          { action: 'record', invoiceId: inv.id, amount: '33.33', method: 'gateway_c', status: 'completed', key: `part-${inv.id}-${i}` },
          gatewayC,
        ),
      ),
    );
    expect(await reload(a, inv.id)).toMatchObject({ status: 'partial', totals: { paid: '666.60', due: '333.40' } });
  });

  it('payments racing for the last of the amount due: an administrator cannot overpay, whatever the timing', async () => {
    const inv = await invoiceOf(a, 100);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => inst(i).payments.record(inv.id, { amount: 30, method: 'cash', status: 'completed' }, ADMIN)),
    );
    const ok = outcomes.filter((o) => o.status === 'fulfilled').length;
    const codes = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => (o.reason as BillingError).code);
    expect([ok, codes]).toEqual([3, Array(7).fill('billing_rest_amount_exceeds')]);
    expect(await reload(a, inv.id)).toMatchObject({ status: 'partial', totals: { paid: '90.00', due: '10.00' } });
  });
});

describe('the same external key, concurrently', () => {
  it('recorded 10 times at once: one payment, nine duplicates, one action', async () => {
    const inv = await invoiceOf(a, 500);
    const ca = counter(a);
    const cb = counter(b);
    const outs = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        inst(i).core.apply(
          { action: 'record', invoiceId: inv.id, amount: 200, method: 'gateway_c', status: 'completed', key: 'evt_same_record' },
          gatewayC,
        ),
      ),
    );
    ca.off();
    cb.off();
    expect(outs.map((o) => o.result).sort()).toEqual(['applied', ...Array(9).fill('duplicate')]);
    expect(new Set(outs.map((o) => o.payment!.id)).size).toBe(1);
    expect((await a.db.query('select id from billing_payments where invoice_id = $1', [inv.id])).length).toBe(1);
    expect(await reload(a, inv.id)).toMatchObject({ status: 'partial', totals: { paid: '200.00', due: '300.00' } });
    expect((ca.seen.completed ?? 0) + (cb.seen.completed ?? 0)).toBe(1);
  });

  it('a completion delivered 10 times at once completes once; a refund delivered 10 times refunds once', async () => {
    const inv = await invoiceOf(a, 80);
    const p = (await a.core.apply({ action: 'record', invoiceId: inv.id, amount: 80, method: 'gateway_c', status: 'pending' }, gatewayC))
      .payment!;
    const completions = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        inst(i).core.apply(
          { action: 'complete', payment: { reference: p.reference }, amount: 80, currency: 'USD', key: 'evt_same_complete' },
          gatewayC,
        ),
      ),
    );
    expect(completions.map((o) => o.result).sort()).toEqual(['applied', ...Array(9).fill('duplicate')]);
    const refunds = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        inst(i).core.apply(
          { action: 'refund', payment: { reference: p.reference }, amount: 30, reason: 'partial', key: 'evt_same_refund' },
          gatewayC,
        ),
      ),
    );
    expect(refunds.map((o) => o.result).sort()).toEqual(['applied', ...Array(9).fill('duplicate')]);
    expect(await a.payments.get(p.id)).toMatchObject({ status: 'completed', refunded: '30.00' });
    expect(await reload(a, inv.id)).toMatchObject({ status: 'partial', totals: { paid: '50.00', due: '30.00' } });
  });

  it('concurrent refunds with different keys never refund more than was paid', async () => {
    const inv = await invoiceOf(a, 100);
    const p = (await a.payments.record(inv.id, { amount: 100, method: 'cheque', status: 'completed' }, ADMIN)).payment;
    const outs = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        inst(i).core.apply(
          { action: 'refund', payment: { id: p.id }, amount: 30, reason: `r${i}`, key: `ref-${p.id}-${i}` },
          { channel: 'admin', actor: ADMIN },
        ),
      ),
    );
    const applied = outs.filter((o) => o.status === 'fulfilled' && (o.value as PaymentOutcome).result === 'applied').length;
    expect(applied).toBe(3);
    expect(await a.payments.get(p.id)).toMatchObject({ status: 'completed', refunded: '90.00' });
    expect(await reload(a, inv.id)).toMatchObject({ status: 'partial', totals: { paid: '10.00', due: '90.00' } });
  });
});

describe('credit-note numbers', () => {
  it('start at CN-0001 and stay gapless under concurrent creation, refused ones taking no number', async () => {
    const first = await invoiceOf(a, 100);
    const cn = await a.creditNotes.create(first.id, { amount: 10, reason: 'first' }, ADMIN);
    expect(cn.creditNote).toMatchObject({ number: 'CN-0001', kind: 'credit_note', status: 'issued', parentId: first.id, reason: 'first' });
    const invoices = await Promise.all(Array.from({ length: 4 }, () => invoiceOf(a, 100)));
    // 4 invoices × 4 notes of 30: the 4th on each invoice exceeds the total and is refused
    const outs = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) => inst(i).creditNotes.create(invoices[i % 4]!.id, { amount: 30, reason: `n${i}` }, ADMIN)),
    );
    const refusedCodes = outs
      .filter((o): o is PromiseRejectedResult => o.status === 'rejected')
      .map((o) => (o.reason as BillingError).code);
    expect(refusedCodes).toEqual(Array(4).fill('billing_rest_amount_exceeds'));
    const numbers = (
      await a.db.query<{ number: string }>(`select number from billing_documents where kind = 'credit_note' order by number`)
    ).map((r) => r.number);
    expect(numbers).toEqual(Array.from({ length: 13 }, (_, i) => `CN-${String(i + 1).padStart(4, '0')}`));
    for (const inv of invoices)
      expect(await reload(a, inv.id)).toMatchObject({ status: 'available', totals: { credited: '90.00', due: '10.00' } });
  });
});
