import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BillingError } from '../../core/errors.ts';
import { freshDatabase, type TestDatabase } from '../../testing/index.ts';
import { services, type Services } from '../helpers/services.ts';
import { ADMIN, inconsistencies, invoiceOf, moneyServices, reload, type MoneyServices } from './support.ts';

let tdb: TestDatabase;
let m: MoneyServices;
let other: Services;
const admin = { channel: 'admin', actor: ADMIN } as const;
const gatewayA = { channel: 'gateway', method: 'gateway_a' } as const;

/** The code (and status) a promise is rejected with. */
async function refused(p: Promise<unknown>): Promise<[string, number]> {
  try {
    await p;
  } catch (e) {
    return [(e as BillingError).code, (e as BillingError).status];
  }
  throw new Error('expected a refusal');
}

/** Actions heard while `fn` runs, each with what another connection saw of the invoice when it fired. */
async function heard(fn: () => Promise<unknown>): Promise<Array<[string, ...unknown[]]>> {
  const log: Array<[string, ...unknown[]]> = [];
  const offs = [
    m.hooks.addAction('billing_payment_completed', async (id, inv, p) => {
      log.push(['completed', inv.totals.paid, p.amount, await committedPaid(id)]);
    }),
    m.hooks.addAction('billing_payment_received', async (id, inv, p) => {
      log.push(['received', inv.totals.due, p.amount, await committedPaid(id)]);
    }),
    m.hooks.addAction('billing_payment_failed', (_id, _inv, p) => {
      log.push(['failed', p.status]);
    }),
    m.hooks.addAction('billing_payment_refunded', (_id, inv, p) => {
      log.push(['refunded', p.refunded, inv.totals.paid]);
    }),
    m.hooks.addAction('billing_invoice_status_changed', (_id, _inv, from, to) => {
      log.push(['status', from, to]);
    }),
  ];
  try {
    await fn();
  } finally {
    offs.forEach((off) => off());
  }
  return log;
}

/** What a second connection reads: proves an action fired after COMMIT. */
async function committedPaid(invoiceId: number): Promise<string> {
  return (await other.db.query<{ paid: string }>('select paid::text from billing_documents where id = $1', [invoiceId]))[0]!.paid;
}

const count = async (sql: string, params: unknown[] = []) => Number(Object.values((await m.db.query(sql, params))[0]!)[0]);

beforeAll(async () => {
  tdb = await freshDatabase();
  m = await moneyServices(tdb.url);
  other = await services(tdb.url, 1);
});

afterAll(async () => {
  if (m) expect(await inconsistencies(m.db)).toEqual([]);
  await m?.db.close();
  await other?.db.close();
  await tdb?.drop();
});

describe('recording payments', () => {
  it('a completed partial payment: totals recomputed, partial, completed + received after commit, audited', async () => {
    const inv = await invoiceOf(m, 100);
    let out!: Awaited<ReturnType<typeof m.core.apply>>;
    const log = await heard(async () => {
      out = await m.core.apply(
        { action: 'record', invoiceId: inv.id, amount: 30, method: 'cheque', status: 'completed', notes: 'cheque 0042' },
        admin,
      );
    });
    expect(out.result).toBe('applied');
    expect(out.payment).toMatchObject({
      invoiceId: inv.id,
      reference: expect.stringMatching(/^P\d{6,}$/),
      amount: '30.00',
      currency: 'USD',
      method: 'cheque',
      status: 'completed',
      refunded: '0.00',
      notes: 'cheque 0042',
      transactionId: null,
      review: null,
    });
    expect(out.payment!.reference.length).toBeLessThanOrEqual(20);
    expect(out.invoice).toMatchObject({ status: 'partial', totals: { total: '100.00', paid: '30.00', credited: '0.00', due: '70.00' } });
    expect(log).toEqual([
      ['status', 'available', 'partial'],
      ['completed', '30.00', '30.00', '30.00'],
      ['received', '70.00', '30.00', '30.00'],
    ]);
    const trail = await m.db.query<{ action: string }>(
      `select action from billing_audit_log where (object_type = 'payment' and object_id = $1) or (object_type = 'invoice' and object_id = $2 and action = 'invoice.status') order by id`,
      [String(out.payment!.id), String(inv.id)],
    );
    expect(trail.map((r) => r.action)).toEqual(['payment.record', 'invoice.status']);
  });

  it('the payment that settles the invoice fires completed but not received', async () => {
    const inv = await invoiceOf(m, 50);
    const log = await heard(() =>
      m.core.apply({ action: 'record', invoiceId: inv.id, amount: '50', method: 'cash', status: 'completed' }, admin),
    );
    expect(log).toEqual([
      ['status', 'available', 'paid'],
      ['completed', '50.00', '50.00', '50.00'],
    ]);
    expect((await reload(m, inv.id)).totals).toMatchObject({ paid: '50.00', due: '0.00' });
  });

  it('a pending payment changes no money; completing it does, once', async () => {
    const inv = await invoiceOf(m, 80);
    const { payment } = await m.payments.record(
      inv.id,
      { amount: 80, method: 'bank_transfer', status: 'pending', date: '2026-01-15 09:30:00' },
      ADMIN,
    );
    expect(payment).toMatchObject({ status: 'pending', date: new Date('2026-01-15T09:30:00Z') });
    expect(await reload(m, inv.id)).toMatchObject({ status: 'available', totals: { paid: '0.00', due: '80.00' } });
    const log = await heard(() => m.payments.complete(payment.id, ADMIN, { date: '2026-01-20 10:00:00', transaction_id: 'BT-1' }));
    expect(log.map((l) => l[0])).toEqual(['status', 'completed']);
    const done = await m.payments.get(payment.id);
    expect(done).toMatchObject({ status: 'completed', transactionId: 'BT-1', date: new Date('2026-01-20T10:00:00Z') });
    // again: nothing changes, nothing fires
    expect(
      await heard(async () =>
        expect((await m.core.apply({ action: 'complete', payment: { id: payment.id } }, admin)).result).toBe('unchanged'),
      ),
    ).toEqual([]);
    expect(await reload(m, inv.id)).toMatchObject({ status: 'paid', totals: { paid: '80.00', due: '0.00' } });
  });

  it('refuses payments against drafts, unusable amounts and (for an administrator) more than is due, writing nothing', async () => {
    const draft = await invoiceOf(m, 40, 'draft');
    const inv = await invoiceOf(m, 40);
    const before = await count('select count(*) from billing_payments');
    const events = await count('select count(*) from billing_payment_events');
    expect(
      await refused(m.payments.record(draft.id, { amount: 10, method: 'cash', status: 'completed', transaction_id: 'X1' }, ADMIN)),
    ).toEqual(['billing_rest_invalid_state', 409]);
    for (const amount of [0, -5, 1.234, 'ten', '1e3x']) {
      expect(await refused(m.payments.record(inv.id, { amount, method: 'cash', status: 'completed' }, ADMIN))).toEqual([
        'rest_invalid_param',
        400,
      ]);
    }
    expect(await refused(m.payments.record(inv.id, { amount: 40.01, method: 'cash', status: 'completed' }, ADMIN))).toEqual([
      'billing_rest_amount_exceeds',
      400,
    ]);
    expect(await refused(m.payments.record(inv.id, { amount: 1, method: 'cash', status: 'completed', date: '2026-02-30' }, ADMIN))).toEqual(
      ['rest_invalid_param', 400],
    );
    expect(await refused(m.payments.record(999999, { amount: 1, method: 'cash', status: 'completed' }, ADMIN))).toEqual([
      'billing_rest_not_found',
      404,
    ]);
    expect(await count('select count(*) from billing_payments')).toBe(before);
    expect(await count('select count(*) from billing_payment_events')).toBe(events);
    expect(await reload(m, draft.id)).toMatchObject({ status: 'draft', totals: { paid: '0.00' } });
  });

  it('a transaction id makes recording idempotent per invoice and method', async () => {
    const a = await invoiceOf(m, 100);
    const b = await invoiceOf(m, 100);
    const first = await m.payments.record(
      a.id,
      { amount: 60, method: 'bank_transfer', status: 'completed', transaction_id: 'BANK-77' },
      ADMIN,
    );
    const again = await m.payments.record(
      a.id,
      { amount: 60, method: 'bank_transfer', status: 'completed', transaction_id: 'BANK-77' },
      ADMIN,
    );
    expect([first.created, again.created, again.payment.id]).toEqual([true, false, first.payment.id]);
    // one transfer may pay two invoices: the same transaction id on another invoice is another payment
    const onB = await m.payments.record(
      b.id,
      { amount: 40, method: 'bank_transfer', status: 'completed', transaction_id: 'BANK-77' },
      ADMIN,
    );
    expect(onB.created).toBe(true);
    expect((await reload(m, a.id)).totals.paid).toBe('60.00');
  });
});

describe('failures and refunds', () => {
  it('a pending payment fails; a completed one never goes back (ignored, audited)', async () => {
    const inv = await invoiceOf(m, 70);
    const pending = (
      await m.core.apply({ action: 'record', invoiceId: inv.id, amount: 70, method: 'gateway_a', status: 'pending' }, gatewayA)
    ).payment!;
    expect(
      await heard(async () =>
        expect((await m.core.apply({ action: 'fail', payment: { reference: pending.reference }, key: 'evt_f1' }, gatewayA)).result).toBe(
          'applied',
        ),
      ),
    ).toEqual([['failed', 'failed']]);
    // money confirmed later for the same payment is still recorded
    const done = await m.core.apply(
      { action: 'complete', payment: { reference: pending.reference }, amount: '70.00', currency: 'USD', key: 'evt_s1' },
      gatewayA,
    );
    expect([done.result, done.payment!.status, done.invoice!.status]).toEqual(['applied', 'completed', 'paid']);
    const late = await m.core.apply({ action: 'fail', payment: { reference: pending.reference }, key: 'evt_f2' }, gatewayA);
    expect([late.result, late.payment!.status]).toEqual(['ignored', 'completed']);
    expect(
      await count(`select count(*) from billing_audit_log where action = 'payment.fail_ignored' and object_id = $1`, [String(pending.id)]),
    ).toBe(1);
    // and the database itself refuses to move received money back
    await expect(m.db.query(`update billing_payments set status = 'pending' where id = $1`, [pending.id])).rejects.toThrow(
      /cannot become pending/,
    );
  });

  it('refunds in part and in full, with reasons; more than is left is 400 amount_exceeds; unreceived money 409', async () => {
    const inv = await invoiceOf(m, 100);
    const p = (await m.payments.record(inv.id, { amount: 100, method: 'cheque', status: 'completed' }, ADMIN)).payment;
    const log = await heard(() => m.payments.refund(p.id, { amount: 25.5, reason: 'damaged goods' }, ADMIN));
    expect(log).toEqual([
      ['status', 'paid', 'partial'],
      ['refunded', '25.50', '74.50'],
    ]);
    expect(await m.payments.get(p.id)).toMatchObject({ status: 'completed', refunded: '25.50' });
    expect(await refused(m.payments.refund(p.id, { amount: 74.51, reason: 'too much' }, ADMIN))).toEqual([
      'billing_rest_amount_exceeds',
      400,
    ]);
    expect(await refused(m.payments.refund(p.id, { amount: 1, reason: '   ' }, ADMIN))).toEqual(['rest_invalid_param', 400]);
    await m.payments.refund(p.id, { amount: '74.50', reason: 'order cancelled' }, ADMIN);
    expect(await m.payments.get(p.id)).toMatchObject({ status: 'refunded', refunded: '100.00' });
    expect(await reload(m, inv.id)).toMatchObject({ status: 'unpaid', totals: { paid: '0.00', due: '100.00' } });
    expect(await refused(m.payments.refund(p.id, { amount: 0.01, reason: 'again' }, ADMIN))).toEqual(['billing_rest_amount_exceeds', 400]);
    const reasons = await m.db.query<{ reason: string }>('select reason from billing_payment_refunds where payment_id = $1 order by id', [
      p.id,
    ]);
    expect(reasons.map((r) => r.reason)).toEqual(['damaged goods', 'order cancelled']);

    const pending = (await m.payments.record(inv.id, { amount: 10, method: 'cash', status: 'pending' }, ADMIN)).payment;
    expect(await refused(m.payments.refund(pending.id, { amount: 1, reason: 'x' }, ADMIN))).toEqual(['billing_rest_invalid_state', 409]);
  });

  it('refund_to raises the refunded total as gateways report it, and never lowers it', async () => {
    const inv = await invoiceOf(m, 90);
    const p = (
      await m.core.apply(
        { action: 'record', invoiceId: inv.id, amount: 90, method: 'gateway_a', status: 'completed', key: 'evt_r0' },
        gatewayA,
      )
    ).payment!;
    expect(
      (await m.core.apply({ action: 'refund_to', payment: { reference: p.reference }, refundedTotal: 30, key: 'evt_r1' }, gatewayA))
        .payment!.refunded,
    ).toBe('30.00');
    expect(
      (await m.core.apply({ action: 'refund_to', payment: { reference: p.reference }, refundedTotal: 20, key: 'evt_r2' }, gatewayA)).result,
    ).toBe('unchanged');
    expect(
      (await m.core.apply({ action: 'refund_to', payment: { reference: p.reference }, refundedTotal: 90, key: 'evt_r3' }, gatewayA))
        .payment!.status,
    ).toBe('refunded');
    expect((await reload(m, inv.id)).status).toBe('unpaid');
  });
});

describe('the gateway channel', () => {
  it('acts only on payments of its own method: offline payments are completed by an administrator only', async () => {
    const inv = await invoiceOf(m, 60);
    const cheque = (await m.payments.record(inv.id, { amount: 60, method: 'cheque', status: 'pending' }, ADMIN)).payment;
    const out = await m.core.apply({ action: 'complete', payment: { reference: cheque.reference } }, gatewayA);
    expect([out.result, out.payment!.status]).toEqual(['ignored', 'pending']);
    expect(
      await refused(m.core.apply({ action: 'record', invoiceId: inv.id, amount: 1, method: 'cash', status: 'completed' }, gatewayA)),
    ).toEqual(['billing_invalid_argument', 400]);
    expect((await m.core.apply({ action: 'complete', payment: { reference: 'P999999999' } }, gatewayA)).result).toBe('ignored');
    expect(
      (await m.core.apply({ action: 'record', invoiceId: 999999, amount: 1, method: 'gateway_a', status: 'completed' }, gatewayA)).result,
    ).toBe('ignored');
    expect((await reload(m, inv.id)).totals.paid).toBe('0.00');
  });

  it('an amount or currency that does not match records the event and marks the payment for review', async () => {
    const inv = await invoiceOf(m, 120);
    const p = (await m.core.apply({ action: 'record', invoiceId: inv.id, amount: 120, method: 'gateway_a', status: 'pending' }, gatewayA))
      .payment!;
    const short = await m.core.apply(
      { action: 'complete', payment: { reference: p.reference }, amount: '119.99', currency: 'USD', key: 'evt_m1' },
      gatewayA,
    );
    expect([short.result, short.payment!.status, short.payment!.review]).toEqual(['review', 'pending', expect.stringContaining('119.99')]);
    expect(
      (
        await m.core.apply(
          { action: 'complete', payment: { reference: p.reference }, amount: '120', currency: 'EUR', key: 'evt_m2' },
          gatewayA,
        )
      ).result,
    ).toBe('review');
    expect(
      (
        await m.core.apply(
          { action: 'complete', payment: { reference: p.reference }, amount: '120', currency: 'EUR', key: 'evt_m2' },
          gatewayA,
        )
      ).result,
    ).toBe('duplicate');
    expect(await reload(m, inv.id)).toMatchObject({ status: 'available', totals: { paid: '0.00' } });
    expect(await count(`select count(*) from billing_payment_events where key in ('evt_m1', 'evt_m2')`)).toBe(2);
    // a money confirmation in another currency for an invoice becomes a pending payment under review
    const foreign = await m.core.apply(
      { action: 'record', invoiceId: inv.id, amount: 100, currency: 'EUR', method: 'gateway_a', status: 'completed' },
      gatewayA,
    );
    expect([foreign.result, foreign.payment!.status, foreign.payment!.currency]).toEqual(['review', 'pending', 'EUR']);
    // the right amount completes it and clears the review
    const ok = await m.core.apply(
      { action: 'complete', payment: { reference: p.reference }, amount: 120, currency: 'USD', key: 'evt_m3' },
      gatewayA,
    );
    expect([ok.result, ok.payment!.review, ok.invoice!.status]).toEqual(['applied', null, 'paid']);
  });

  it('money confirmed after a cancellation is recorded and flagged; a new pending payment is refused', async () => {
    const inv = await invoiceOf(m, 45);
    const p = (await m.core.apply({ action: 'record', invoiceId: inv.id, amount: 45, method: 'gateway_a', status: 'pending' }, gatewayA))
      .payment!;
    const cancelled = await m.payments.cancelInvoice(inv.id, ADMIN, 'customer withdrew');
    expect(cancelled.status).toBe('cancelled');
    expect((await m.payments.get(p.id)).status).toBe('cancelled');
    const late = await m.core.apply(
      { action: 'complete', payment: { reference: p.reference }, amount: 45, currency: 'USD', key: 'evt_c1' },
      gatewayA,
    );
    expect([late.result, late.payment!.status]).toEqual(['applied', 'completed']);
    expect(await reload(m, inv.id)).toMatchObject({ status: 'cancelled', totals: { paid: '45.00', due: '0.00' } });
    expect(
      await count(`select count(*) from billing_audit_log where action = 'payment.received_after_cancellation' and object_id = $1`, [
        String(p.id),
      ]),
    ).toBe(1);
    expect(
      await refused(m.core.apply({ action: 'record', invoiceId: inv.id, amount: 1, method: 'gateway_a', status: 'pending' }, gatewayA)),
    ).toEqual(['billing_rest_invalid_state', 409]);
  });
});
