import { beforeAll, describe, expect, it } from '@jest/globals';
import { useService, type AjaxClient, type TestUser } from '../../testing/index.ts';
import { inconsistencies } from './support.ts';

const svc = useService();
let boss: TestUser;
const as: Record<string, AjaxClient> = {};

/** admin-ajax as `who`, with their nonce unless the fields bring their own. */
function ajax(who: string, fields: Record<string, string | number>) {
  const client = as[who]!;
  return client.post({ _wpnonce: client.nonce, ...Object.fromEntries(Object.entries(fields).map(([key, v]) => [key, String(v)])) });
}

const rest = (method: string, path: string, body?: unknown) => svc.rest(boss).request(method, path, body);

async function signIn(login: string, role: string): Promise<TestUser> {
  const user = await svc.makeUser(login, role, `${login}-pass-1`);
  as[login] = await svc.ajax(login, `${login}-pass-1`);
  return user;
}

const invoice = async (status = 'available') =>
  (await rest('POST', '/invoices', { items: [{ name: 'Audit', quantity: 1, price: 500 }], status, customer_name: 'Beta Ltd' })).body;

beforeAll(async () => {
  boss = await signIn('boss', 'administrator');
  await signIn('peek', 'billing_viewer');
  svc.beforeStop(async () => expect(await inconsistencies(svc.kernel.db)).toEqual([]));
});

describe('payment screens over admin-ajax', () => {
  it('record, complete, refund and credit: each answers the payment (or credit note) and the invoice after it', async () => {
    const inv = await invoice();
    const rec = await ajax('boss', {
      action: 'billing_record_payment',
      invoice_id: inv.id,
      amount: '150.25',
      method: 'cheque',
      status: 'pending',
      notes: 'post',
    });
    expect(rec.status).toBe(200);
    expect(rec.body).toMatchObject({
      success: true,
      data: {
        created: true,
        payment: { invoice_id: inv.id, amount: 150.25, method: 'cheque', status: 'pending', notes: 'post' },
        invoice: { id: inv.id, status: 'available' },
      },
    });
    const paymentId = rec.body.data.payment.id;
    const done = await ajax('boss', { action: 'billing_complete_payment', payment_id: paymentId });
    expect(done.body.data).toMatchObject({
      payment: { status: 'completed' },
      invoice: { status: 'partial', totals: { paid: 150.25, due: 349.75 } },
    });
    const refunded = await ajax('boss', {
      action: 'billing_refund_payment',
      payment_id: paymentId,
      amount: '50.25',
      reason: 'discount agreed',
    });
    expect(refunded.body.data).toMatchObject({
      payment: { status: 'completed', refunded: 50.25 },
      invoice: { status: 'partial', totals: { paid: 100, due: 400 } },
    });
    const cn = await ajax('boss', { action: 'billing_create_credit_note', invoice_id: inv.id, amount: 400, reason: 'scope reduced' });
    expect(cn.body.data).toMatchObject({
      credit_note: { number: expect.stringMatching(/^CN-\d{4}$/), invoice_id: inv.id, amount: 400, reason: 'scope reduced' },
      invoice: { status: 'paid', totals: { paid: 100, credited: 400, due: 0 } },
    });
    // REST sees the same
    expect((await rest('GET', `/invoices/${inv.id}/payments`)).body[0]).toEqual(refunded.body.data.payment);
  });

  it('cancels an issued invoice with nothing paid', async () => {
    const inv = await invoice();
    const res = await ajax('boss', { action: 'billing_cancel_invoice', id: inv.id, reason: 'duplicate' });
    expect(res.body).toMatchObject({ success: true, data: { id: inv.id, status: 'cancelled' } });
  });

  it('gives the REST codes for the same input (same checks on both surfaces)', async () => {
    const inv = await invoice();
    const draft = await invoice('draft');
    const pending = (await rest('POST', `/invoices/${inv.id}/payments`, { amount: 100, method: 'cash', status: 'pending' })).body;
    const cases: Array<[Record<string, string | number>, [string, string, unknown?], number, string]> = [
      [
        { action: 'billing_record_payment', invoice_id: draft.id, amount: 1, method: 'cash', status: 'completed' },
        ['POST', `/invoices/${draft.id}/payments`],
        409,
        'billing_rest_invalid_state',
      ],
      [
        { action: 'billing_record_payment', invoice_id: inv.id, amount: 1, method: 'cash' },
        ['POST', `/invoices/${inv.id}/payments`],
        400,
        'rest_missing_callback_param',
      ],
      [
        { action: 'billing_record_payment', invoice_id: inv.id, amount: '1.001', method: 'cash', status: 'completed' },
        ['POST', `/invoices/${inv.id}/payments`],
        400,
        'rest_invalid_param',
      ],
      [
        { action: 'billing_record_payment', invoice_id: inv.id, amount: 1, method: 'barter', status: 'completed' },
        ['POST', `/invoices/${inv.id}/payments`],
        400,
        'rest_invalid_param',
      ],
      [
        { action: 'billing_record_payment', invoice_id: inv.id, amount: 500.01, method: 'cash', status: 'completed' },
        ['POST', `/invoices/${inv.id}/payments`],
        400,
        'billing_rest_amount_exceeds',
      ],
      [
        { action: 'billing_record_payment', invoice_id: 999999, amount: 1, method: 'cash', status: 'completed' },
        ['POST', '/invoices/999999/payments'],
        404,
        'billing_rest_not_found',
      ],
      [{ action: 'billing_complete_payment', payment_id: 999999 }, ['POST', '/payments/999999/complete'], 404, 'billing_rest_not_found'],
      [
        { action: 'billing_refund_payment', payment_id: pending.id, amount: 1, reason: 'x' },
        ['POST', `/payments/${pending.id}/refund`],
        409,
        'billing_rest_invalid_state',
      ],
      [
        { action: 'billing_refund_payment', payment_id: pending.id, amount: 1 },
        ['POST', `/payments/${pending.id}/refund`],
        400,
        'rest_missing_callback_param',
      ],
      [
        { action: 'billing_create_credit_note', invoice_id: inv.id, amount: 500.01, reason: 'x' },
        ['POST', `/invoices/${inv.id}/credit-notes`],
        400,
        'billing_rest_amount_exceeds',
      ],
      [
        { action: 'billing_create_credit_note', invoice_id: draft.id, amount: 1, reason: 'x' },
        ['POST', `/invoices/${draft.id}/credit-notes`],
        409,
        'billing_rest_invalid_state',
      ],
      [
        { action: 'billing_create_credit_note', invoice_id: inv.id, amount: 1, reason: '' },
        ['POST', `/invoices/${inv.id}/credit-notes`],
        400,
        'rest_invalid_param',
      ],
      [{ action: 'billing_cancel_invoice', id: draft.id }, ['POST', `/invoices/${draft.id}/cancel`], 409, 'billing_rest_invalid_state'],
    ];
    for (const [fields, [method, path], status, code] of cases) {
      const { action, invoice_id: _i, payment_id: _p, id: _id, ...body } = fields;
      const viaAjax = await ajax('boss', fields);
      const viaRest = await rest(method, path, body);
      expect({
        action,
        fields,
        ajax: [viaAjax.status, viaAjax.body.success, viaAjax.body.data?.code],
        rest: [viaRest.status, viaRest.body.code],
      }).toEqual({ action, fields, ajax: [status, false, code], rest: [status, code] });
    }
    expect(
      (await ajax('boss', { action: 'billing_refund_payment', payment_id: pending.id, amount: 1, reason: 'x' })).body.data.message,
    ).toMatch(/only received money/);
  });

  it('checks the capability and the nonce', async () => {
    const inv = await invoice();
    for (const action of [
      'billing_record_payment',
      'billing_complete_payment',
      'billing_refund_payment',
      'billing_create_credit_note',
      'billing_cancel_invoice',
    ]) {
      const res = await ajax('peek', {
        action,
        invoice_id: inv.id,
        payment_id: 1,
        id: inv.id,
        amount: 1,
        method: 'cash',
        status: 'completed',
        reason: 'x',
      });
      expect([action, res.status, res.body.data?.code]).toEqual([action, 403, 'billing_forbidden']);
      expect((await ajax('boss', { action, _wpnonce: '0000000000' })).body).toBe('-1');
    }
    expect((await rest('GET', `/invoices/${inv.id}`)).body.totals.paid).toBe(0);
  });
});
