import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BillingDocument } from '../../core/documents/document.ts';
import type { BillingError } from '../../core/errors.ts';
import type { Payment } from '../../core/payments/payment.ts';
import { freshDatabase, type TestDatabase } from '../../testing/index.ts';
import { ADMIN, inconsistencies, invoiceOf, moneyServices, reload, type MoneyServices } from './support.ts';

/**
 * Every row of docs/statuses.md, named by its number there. Each row starts from an invoice brought to
 * the row's "From" state through the service API, applies the row's cause, and checks the status, the
 * money and the actions that fired.
 */
let tdb: TestDatabase;
let m: MoneyServices;
const admin = { channel: 'admin', actor: ADMIN } as const;
const gatewayB = { channel: 'gateway', method: 'gateway_b' } as const;
let keys = 0;

beforeAll(async () => {
  tdb = await freshDatabase();
  m = await moneyServices(tdb.url);
});

afterAll(async () => {
  if (m) expect(await inconsistencies(m.db)).toEqual([]);
  await m?.db.close();
  await tdb?.drop();
});

// — bringing an invoice to a state —
const issued = (total = 100) => invoiceOf(m, total);
const pay = async (inv: BillingDocument, amount: number): Promise<Payment> =>
  (await m.payments.record(inv.id, { amount, method: 'cheque', status: 'completed' }, ADMIN)).payment;
const pendingGateway = async (inv: BillingDocument, amount: number): Promise<Payment> =>
  (await m.core.apply({ action: 'record', invoiceId: inv.id, amount, method: 'gateway_b', status: 'pending' }, gatewayB)).payment!;
const confirm = (p: Payment) =>
  m.core.apply(
    { action: 'complete', payment: { reference: p.reference }, amount: p.amount, currency: p.currency, key: `evt-${++keys}` },
    gatewayB,
  );
const refund = (p: Payment, amount: number) => m.payments.refund(p.id, { amount, reason: 'customer asked' }, ADMIN);
const credit = (inv: BillingDocument, amount: number) => m.creditNotes.create(inv.id, { amount, reason: 'correction' }, ADMIN);
const cancel = (inv: BillingDocument) => m.payments.cancelInvoice(inv.id, ADMIN, 'withdrawn');
const state = async (inv: BillingDocument) => {
  const now = await reload(m, inv.id);
  return { status: now.status, paid: now.totals.paid, credited: now.totals.credited, due: now.totals.due };
};

/** The actions fired while `fn` ran (names without the `billing_` prefix; status changes as `from>to`). */
async function actions(fn: () => Promise<unknown>): Promise<string[]> {
  const log: string[] = [];
  const offs = [
    m.hooks.addAction('billing_payment_completed', () => {
      log.push('payment_completed');
    }),
    m.hooks.addAction('billing_payment_received', () => {
      log.push('payment_received');
    }),
    m.hooks.addAction('billing_payment_failed', () => {
      log.push('payment_failed');
    }),
    m.hooks.addAction('billing_payment_refunded', () => {
      log.push('payment_refunded');
    }),
    m.hooks.addAction('billing_credit_note_created', () => {
      log.push('credit_note_created');
    }),
    m.hooks.addAction('billing_invoice_created', () => {
      log.push('invoice_created');
    }),
    m.hooks.addAction('billing_invoice_status_changed', (_id, _inv, from, to) => {
      log.push(`${from}>${to}`);
    }),
  ];
  try {
    await fn();
  } finally {
    offs.forEach((off) => off());
  }
  return log;
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return `${(e as BillingError).status} ${(e as BillingError).code}`;
  }
  return 'accepted';
}

const auditCount = async (action: string, objectId: number) =>
  Number(
    (
      await m.db.query<{ n: string }>('select count(*) as n from billing_audit_log where action = $1 and object_id = $2', [
        action,
        String(objectId),
      ])
    )[0]!.n,
  );

describe('invoice statuses (docs/statuses.md, invoices)', () => {
  it('row 1: created without a status is a draft', async () => {
    let inv!: BillingDocument;
    expect(
      await actions(async () => {
        inv = await invoiceOf(m, 10, 'draft');
      }),
    ).toEqual(['invoice_created']);
    expect(inv.status).toBe('draft');
  });

  it('row 2: created as available', async () => {
    let inv!: BillingDocument;
    expect(
      await actions(async () => {
        inv = await issued(10);
      }),
    ).toEqual(['invoice_created']);
    expect(inv.status).toBe('available');
  });

  it('row 3: a draft saved as available is issued', async () => {
    const inv = await invoiceOf(m, 10, 'draft');
    expect(
      await actions(() =>
        m.invoices.update(inv.id, { items: [{ name: 'Work', quantity: 1, price: 10, taxable: false }], status: 'available' }, ADMIN),
      ),
    ).toEqual(['draft>available']);
    expect((await state(inv)).status).toBe('available');
  });

  it('row 4: no payment against a draft, from any source', async () => {
    const inv = await invoiceOf(m, 10, 'draft');
    expect(await refusal(pay(inv, 5))).toBe('409 billing_rest_invalid_state');
    expect(await refusal(m.payments.record(inv.id, { amount: 5, method: 'cash', status: 'pending' }, ADMIN))).toBe(
      '409 billing_rest_invalid_state',
    );
    expect(
      await refusal(
        m.core.apply(
          { action: 'record', invoiceId: inv.id, amount: 5, method: 'gateway_b', status: 'completed', key: 'draft-evt' },
          gatewayB,
        ),
      ),
    ).toBe('409 billing_rest_invalid_state');
    expect(await state(inv)).toEqual({ status: 'draft', paid: '0.00', credited: '0.00', due: '10.00' });
    expect((await m.db.query('select 1 from billing_payments where invoice_id = $1', [inv.id])).length).toBe(0);
    expect((await m.db.query(`select 1 from billing_payment_events where key = 'draft-evt'`)).length).toBe(0);
  });

  it('row 5: no credit note against a draft', async () => {
    const inv = await invoiceOf(m, 10, 'draft');
    expect(await refusal(credit(inv, 5))).toBe('409 billing_rest_invalid_state');
    expect((await state(inv)).credited).toBe('0.00');
  });

  it('row 6: a draft is not cancelled', async () => {
    const inv = await invoiceOf(m, 10, 'draft');
    expect(await refusal(cancel(inv))).toBe('409 billing_rest_invalid_state');
    expect((await state(inv)).status).toBe('draft');
  });

  it('row 7: available, paid in part → partial', async () => {
    const inv = await issued();
    expect(await actions(() => pay(inv, 40))).toEqual(['available>partial', 'payment_completed', 'payment_received']);
    expect(await state(inv)).toEqual({ status: 'partial', paid: '40.00', credited: '0.00', due: '60.00' });
  });

  it('row 8: available, paid in full → paid', async () => {
    const inv = await issued();
    expect(await actions(() => pay(inv, 100))).toEqual(['available>paid', 'payment_completed']);
    expect(await state(inv)).toEqual({ status: 'paid', paid: '100.00', credited: '0.00', due: '0.00' });
  });

  it('row 9: a pending payment moves nothing', async () => {
    const inv = await issued();
    expect(await actions(() => m.payments.record(inv.id, { amount: 100, method: 'bank_transfer', status: 'pending' }, ADMIN))).toEqual([]);
    expect(await state(inv)).toEqual({ status: 'available', paid: '0.00', credited: '0.00', due: '100.00' });
  });

  it('row 10: a failed payment moves nothing but says so', async () => {
    const inv = await issued();
    const p = await pendingGateway(inv, 100);
    expect(
      await actions(() => m.core.apply({ action: 'fail', payment: { reference: p.reference }, key: `evt-${++keys}` }, gatewayB)),
    ).toEqual(['payment_failed']);
    expect((await state(inv)).status).toBe('available');
  });

  it('row 11: available, partial credit note → available', async () => {
    const inv = await issued();
    expect(await actions(() => credit(inv, 30))).toEqual(['credit_note_created']);
    expect(await state(inv)).toEqual({ status: 'available', paid: '0.00', credited: '30.00', due: '70.00' });
  });

  it('row 12: available, credited in full → cancelled', async () => {
    const inv = await issued();
    await credit(inv, 30);
    expect(await actions(() => credit(inv, 70))).toEqual(['available>cancelled', 'credit_note_created']);
    expect(await state(inv)).toEqual({ status: 'cancelled', paid: '0.00', credited: '100.00', due: '0.00' });
  });

  it('row 13: available, cancelled by an administrator; its pending payments with it', async () => {
    const inv = await issued();
    const p = (await m.payments.record(inv.id, { amount: 100, method: 'bank_transfer', status: 'pending' }, ADMIN)).payment;
    expect(await actions(() => cancel(inv))).toEqual(['available>cancelled']);
    expect((await state(inv)).status).toBe('cancelled');
    expect((await m.payments.get(p.id)).status).toBe('cancelled');
  });

  it('row 14: partial, paid a bit more → partial', async () => {
    const inv = await issued();
    await pay(inv, 40);
    expect(await actions(() => pay(inv, 10))).toEqual(['payment_completed', 'payment_received']);
    expect(await state(inv)).toEqual({ status: 'partial', paid: '50.00', credited: '0.00', due: '50.00' });
  });

  it('row 15: partial, paid the rest → paid', async () => {
    const inv = await issued();
    await pay(inv, 40);
    expect(await actions(() => pay(inv, 60))).toEqual(['partial>paid', 'payment_completed']);
    expect((await state(inv)).status).toBe('paid');
  });

  it('row 16: partial, part refunded → partial', async () => {
    const inv = await issued();
    const p = await pay(inv, 40);
    expect(await actions(() => refund(p, 15))).toEqual(['payment_refunded']);
    expect(await state(inv)).toEqual({ status: 'partial', paid: '25.00', credited: '0.00', due: '75.00' });
  });

  it('row 17: partial, all refunded → unpaid', async () => {
    const inv = await issued();
    const a = await pay(inv, 40);
    const b = await pay(inv, 20);
    await refund(a, 40);
    expect(await actions(() => refund(b, 20))).toEqual(['partial>unpaid', 'payment_refunded']);
    expect(await state(inv)).toEqual({ status: 'unpaid', paid: '0.00', credited: '0.00', due: '100.00' });
  });

  it('row 18: partial, partial credit note → partial', async () => {
    const inv = await issued();
    await pay(inv, 40);
    expect(await actions(() => credit(inv, 20))).toEqual(['credit_note_created']);
    expect(await state(inv)).toEqual({ status: 'partial', paid: '40.00', credited: '20.00', due: '40.00' });
  });

  it('row 19: partial, credit note for the rest → paid', async () => {
    const inv = await issued();
    await pay(inv, 40);
    expect(await actions(() => credit(inv, 60))).toEqual(['partial>paid', 'credit_note_created']);
    expect(await state(inv)).toEqual({ status: 'paid', paid: '40.00', credited: '60.00', due: '0.00' });
  });

  it('row 20: partial is not cancelled', async () => {
    const inv = await issued();
    await pay(inv, 40);
    expect(await refusal(cancel(inv))).toBe('409 billing_rest_invalid_state');
    expect((await state(inv)).status).toBe('partial');
  });

  it('row 21: paid, part refunded → partial', async () => {
    const inv = await issued();
    const p = await pay(inv, 100);
    expect(await actions(() => refund(p, 0.01))).toEqual(['paid>partial', 'payment_refunded']);
    expect(await state(inv)).toEqual({ status: 'partial', paid: '99.99', credited: '0.00', due: '0.01' });
  });

  it('row 22: paid, all refunded → unpaid', async () => {
    const inv = await issued();
    const p = await pay(inv, 100);
    expect(await actions(() => refund(p, 100))).toEqual(['paid>unpaid', 'payment_refunded']);
    expect(await state(inv)).toEqual({ status: 'unpaid', paid: '0.00', credited: '0.00', due: '100.00' });
    expect((await m.payments.get(p.id)).status).toBe('refunded');
  });

  it('row 23: paid, credit note → paid', async () => {
    const inv = await issued();
    await pay(inv, 100);
    expect(await actions(() => credit(inv, 25))).toEqual(['credit_note_created']);
    expect(await state(inv)).toEqual({ status: 'paid', paid: '100.00', credited: '25.00', due: '0.00' });
    expect(await refusal(credit(inv, 75.01))).toBe('400 billing_rest_amount_exceeds');
  });

  it('row 24: paid is not cancelled', async () => {
    const inv = await issued();
    await pay(inv, 100);
    expect(await refusal(cancel(inv))).toBe('409 billing_rest_invalid_state');
  });

  it("row 25: paid, a pending payment's money arrives late → paid, the money held for review (P18)", async () => {
    const inv = await issued();
    const late = await pendingGateway(inv, 30);
    await pay(inv, 100);
    let out: Awaited<ReturnType<typeof confirm>> | undefined;
    expect(await actions(async () => (out = await confirm(late)))).toEqual([]);
    expect([out!.result, out!.payment!.status, out!.payment!.review]).toEqual([
      'review',
      'pending',
      'overpaid: received 30.00 USD when 0.00 was due',
    ]);
    expect(await state(inv)).toEqual({ status: 'paid', paid: '100.00', credited: '0.00', due: '0.00' });
    expect(await auditCount('payment.review', late.id)).toBe(1);
    // an administrator accepting it books it: paid then exceeds the total, due stays 0
    expect(await actions(() => m.payments.complete(late.id, ADMIN))).toEqual(['payment_completed']);
    expect(await state(inv)).toEqual({ status: 'paid', paid: '130.00', credited: '0.00', due: '0.00' });
    expect((await m.payments.get(late.id)).review).toBeNull();
  });

  it('row 26: unpaid, paid in part → partial', async () => {
    const inv = await issued();
    await refund(await pay(inv, 100), 100);
    expect(await actions(() => pay(inv, 30))).toEqual(['unpaid>partial', 'payment_completed', 'payment_received']);
    expect((await state(inv)).status).toBe('partial');
  });

  it('row 27: unpaid, paid in full → paid', async () => {
    const inv = await issued();
    await refund(await pay(inv, 100), 100);
    expect(await actions(() => pay(inv, 100))).toEqual(['unpaid>paid', 'payment_completed']);
    expect((await state(inv)).status).toBe('paid');
  });

  it('row 28: unpaid, partial credit note → unpaid', async () => {
    const inv = await issued();
    await refund(await pay(inv, 100), 100);
    expect(await actions(() => credit(inv, 40))).toEqual(['credit_note_created']);
    expect(await state(inv)).toEqual({ status: 'unpaid', paid: '0.00', credited: '40.00', due: '60.00' });
  });

  it('row 29: unpaid, credited in full → cancelled', async () => {
    const inv = await issued();
    await refund(await pay(inv, 100), 100);
    expect(await actions(() => credit(inv, 100))).toEqual(['unpaid>cancelled', 'credit_note_created']);
    expect((await state(inv)).status).toBe('cancelled');
  });

  it('row 30: cancelled, money confirmed → recorded, still cancelled, flagged', async () => {
    const inv = await issued();
    const p = await pendingGateway(inv, 100);
    await cancel(inv);
    expect(await actions(() => confirm(p))).toEqual(['payment_completed']);
    expect(await state(inv)).toEqual({ status: 'cancelled', paid: '100.00', credited: '0.00', due: '0.00' });
    expect(await auditCount('payment.received_after_cancellation', p.id)).toBe(1);
    // a gateway confirming money with no payment yet is recorded too
    const fresh = await m.core.apply(
      { action: 'record', invoiceId: inv.id, amount: 5, method: 'gateway_b', status: 'completed', key: `evt-${++keys}` },
      gatewayB,
    );
    expect([fresh.result, fresh.invoice!.status]).toEqual(['applied', 'cancelled']);
    expect(await auditCount('payment.received_after_cancellation', fresh.payment!.id)).toBe(1);
  });

  it('row 31: cancelled takes no new pending payment', async () => {
    const inv = await issued();
    await cancel(inv);
    expect(await refusal(m.payments.record(inv.id, { amount: 10, method: 'cash', status: 'pending' }, ADMIN))).toBe(
      '409 billing_rest_invalid_state',
    );
    expect(await refusal(pendingGateway(inv, 10))).toBe('409 billing_rest_invalid_state');
  });

  it('row 32: cancelled, the late money refunded → cancelled', async () => {
    const inv = await issued();
    const p = await pendingGateway(inv, 100);
    await cancel(inv);
    await confirm(p);
    expect(await actions(() => refund(p, 100))).toEqual(['payment_refunded']);
    expect(await state(inv)).toEqual({ status: 'cancelled', paid: '0.00', credited: '0.00', due: '100.00' });
  });

  it('row 33: cancelled, credit note → cancelled', async () => {
    const inv = await issued();
    await cancel(inv);
    expect(await actions(() => credit(inv, 100))).toEqual(['credit_note_created']);
    expect(await state(inv)).toEqual({ status: 'cancelled', paid: '0.00', credited: '100.00', due: '0.00' });
  });

  it('row 34: cancelling a cancelled invoice changes nothing', async () => {
    const inv = await issued();
    await cancel(inv);
    const audits = await auditCount('invoice.cancel', inv.id);
    expect(await actions(() => cancel(inv))).toEqual([]);
    expect(await auditCount('invoice.cancel', inv.id)).toBe(audits);
  });

  it('row 35: unpaid, cancelled by an administrator', async () => {
    const inv = await issued();
    await refund(await pay(inv, 100), 100);
    expect(await actions(() => cancel(inv))).toEqual(['unpaid>cancelled']);
  });

  it('row 36: an issued invoice never goes back to draft; only its notes change', async () => {
    for (const setup of [
      async (i: BillingDocument) => i,
      async (i: BillingDocument) => {
        await pay(i, 100);
        return i;
      },
    ]) {
      const inv = await setup(await issued());
      const before = (await state(inv)).status;
      expect(
        await refusal(
          m.invoices.update(inv.id, { items: [{ name: 'Work', quantity: 2, price: 100, taxable: false }], status: 'draft' }, ADMIN),
        ),
      ).toBe('409 billing_rest_invalid_state');
      await m.invoices.update(
        inv.id,
        { items: [{ name: 'Work', quantity: 1, price: 100, taxable: false }], customer_name: 'Jane Roe', notes: 'thanks', status: 'draft' },
        ADMIN,
      );
      expect((await state(inv)).status).toBe(before);
    }
  });

  it('row 37: money confirmed for a trashed invoice is recorded and flagged', async () => {
    const inv = await issued();
    const p = await pendingGateway(inv, 100);
    await m.invoices.trash(inv.id, ADMIN);
    expect(await refusal(pay(inv, 1))).toBe('404 billing_rest_not_found');
    expect((await confirm(p)).result).toBe('applied');
    expect(await auditCount('payment.received_for_trashed_invoice', p.id)).toBe(1);
    expect((await state(inv)).paid).toBe('100.00');
  });
});

describe('payment statuses (docs/statuses.md, payments)', () => {
  it('P1, P2: recorded pending or completed, with a reference', async () => {
    const inv = await issued();
    const a = (await m.payments.record(inv.id, { amount: 10, method: 'cash', status: 'pending' }, ADMIN)).payment;
    const b = (await m.payments.record(inv.id, { amount: 10, method: 'cash', status: 'completed' }, ADMIN)).payment;
    expect([a.status, b.status]).toEqual(['pending', 'completed']);
    expect(a.reference).toMatch(/^P\d{6,}$/);
    expect(a.reference).not.toBe(b.reference);
  });

  it('P3: pending → completed by an administrator (offline) and by its gateway', async () => {
    const inv = await issued();
    const offline = (await m.payments.record(inv.id, { amount: 10, method: 'cheque', status: 'pending' }, ADMIN)).payment;
    expect((await m.payments.complete(offline.id, ADMIN)).payment.status).toBe('completed');
    const online = await pendingGateway(inv, 10);
    expect((await confirm(online)).payment!.status).toBe('completed');
  });

  it('P4: pending, another amount confirmed → pending under review', async () => {
    const inv = await issued();
    const p = await pendingGateway(inv, 10);
    const out = await m.core.apply(
      { action: 'complete', payment: { reference: p.reference }, amount: 9, currency: 'USD', key: `evt-${++keys}` },
      gatewayB,
    );
    expect([out.result, out.payment!.status, typeof out.payment!.review]).toEqual(['review', 'pending', 'string']);
  });

  it('P5: pending → failed', async () => {
    const inv = await issued();
    const p = await pendingGateway(inv, 10);
    expect((await m.core.apply({ action: 'fail', payment: { id: p.id } }, gatewayB)).payment!.status).toBe('failed');
  });

  it('P6: pending → cancelled with its invoice', async () => {
    const inv = await issued();
    const p = await pendingGateway(inv, 10);
    await cancel(inv);
    expect((await m.payments.get(p.id)).status).toBe('cancelled');
  });

  it('P7: failed → completed when the money is confirmed after all', async () => {
    const inv = await issued();
    const p = await pendingGateway(inv, 10);
    await m.core.apply({ action: 'fail', payment: { id: p.id } }, gatewayB);
    expect(await actions(() => confirm(p))).toEqual(['available>partial', 'payment_completed', 'payment_received']);
  });

  it('P8: cancelled → completed when the money is confirmed after all (row 30)', async () => {
    const inv = await issued();
    const p = await pendingGateway(inv, 10);
    await cancel(inv);
    expect((await confirm(p)).payment!.status).toBe('completed');
  });

  it('P9, P10: partial refund keeps completed; the rest makes it refunded', async () => {
    const inv = await issued();
    const p = await pay(inv, 50);
    expect((await refund(p, 20)).payment).toMatchObject({ status: 'completed', refunded: '20.00' });
    expect((await refund(p, 30)).payment).toMatchObject({ status: 'refunded', refunded: '50.00' });
  });

  it('P11: completed, a failure reported → ignored', async () => {
    const inv = await issued();
    const p = await pendingGateway(inv, 10);
    await confirm(p);
    expect(
      await actions(async () =>
        expect((await m.core.apply({ action: 'fail', payment: { id: p.id }, key: `evt-${++keys}` }, gatewayB)).result).toBe('ignored'),
      ),
    ).toEqual([]);
    expect((await m.payments.get(p.id)).status).toBe('completed');
  });

  it('P12: completed, completed again → unchanged', async () => {
    const inv = await issued();
    const p = await pay(inv, 10);
    expect(
      await actions(async () =>
        expect((await m.core.apply({ action: 'complete', payment: { id: p.id } }, admin)).result).toBe('unchanged'),
      ),
    ).toEqual([]);
    expect((await state(inv)).paid).toBe('10.00');
  });

  it('P13: refunded refuses any refund', async () => {
    const inv = await issued();
    const p = await pay(inv, 10);
    await refund(p, 10);
    expect(await refusal(refund(p, 0.01))).toBe('400 billing_rest_amount_exceeds');
  });

  it('P14: pending, failed and cancelled payments have nothing to refund', async () => {
    const inv = await issued();
    const pending = await pendingGateway(inv, 10);
    const failed = await pendingGateway(inv, 10);
    await m.core.apply({ action: 'fail', payment: { id: failed.id } }, gatewayB);
    expect(await refusal(refund(pending, 1))).toBe('409 billing_rest_invalid_state');
    expect(await refusal(refund(failed, 1))).toBe('409 billing_rest_invalid_state');
    await cancel(inv);
    expect(await refusal(refund(pending, 1))).toBe('409 billing_rest_invalid_state');
  });

  it('P15: failed, failed again → unchanged', async () => {
    const inv = await issued();
    const p = await pendingGateway(inv, 10);
    await m.core.apply({ action: 'fail', payment: { id: p.id } }, gatewayB);
    expect(
      await actions(async () => expect((await m.core.apply({ action: 'fail', payment: { id: p.id } }, gatewayB)).result).toBe('unchanged')),
    ).toEqual([]);
  });

  it('P16: the same external key again changes nothing', async () => {
    const inv = await issued();
    const once = await m.core.apply(
      { action: 'record', invoiceId: inv.id, amount: 10, method: 'gateway_b', status: 'completed', key: 'same-key' },
      gatewayB,
    );
    expect(
      await actions(async () => {
        const twice = await m.core.apply(
          { action: 'record', invoiceId: inv.id, amount: 10, method: 'gateway_b', status: 'completed', key: 'same-key' },
          gatewayB,
        );
        expect([twice.result, twice.payment!.id]).toEqual(['duplicate', once.payment!.id]);
      }),
    ).toEqual([]);
    expect((await state(inv)).paid).toBe('10.00');
  });

  it('P17: a gateway event naming an offline payment is ignored', async () => {
    const inv = await issued();
    const p = (await m.payments.record(inv.id, { amount: 10, method: 'bank_transfer', status: 'pending' }, ADMIN)).payment;
    expect((await m.core.apply({ action: 'complete', payment: { reference: p.reference } }, gatewayB)).result).toBe('ignored');
    expect((await m.payments.get(p.id)).status).toBe('pending');
  });
});
