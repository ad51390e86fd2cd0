import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import { useService, type TestUser } from '../../testing/index.ts';
import { pdfText } from '../pdf/pdf-text.ts';
import { inconsistencies } from './support.ts';

const svc = useService();
let admin: TestUser;
let viewer: TestUser;
let clerk: TestUser;

const call = (user: TestUser | null, method: string, path: string, body?: unknown) => svc.rest(user).request(method, path, body);

const item = { name: 'Consulting', quantity: 10, price: 100, taxable: true };
const newInvoice = async (status = 'available', extra: Record<string, unknown> = {}) =>
  (await call(admin, 'POST', '/invoices', { items: [item], status, customer_name: 'Acme', customer_email: 'ap@acme.test', ...extra })).body;

beforeAll(async () => {
  admin = await svc.makeUser('boss', 'administrator');
  viewer = await svc.makeUser('peek', 'billing_viewer');
  // a team-roles style clerk: may record payments but not refund them
  clerk = await svc.makeUser('clerk', 'subscriber');
  svc.kernel.hooks.addFilter(
    'billing_user_has_cap',
    (allcaps, _caps, args) => (args[1] === clerk.id ? { ...allcaps, bill_record_payment: true, bill_view_payments: true } : allcaps),
    10,
    'test',
  );
  svc.beforeStop(async () => expect(await inconsistencies(svc.kernel.db)).toEqual([]));
});

describe('a newcomer\'s day with money (issue 5, "done when")', () => {
  it('records a partial cheque and a bank transfer, sees partial then paid, refunds one, issues a credit note with its PDF', async () => {
    const inv = await newInvoice();
    expect(inv.totals).toMatchObject({ total: 1000, paid: 0, due: 1000 });

    const cheque = await call(admin, 'POST', `/invoices/${inv.id}/payments`, {
      amount: 400,
      method: 'cheque',
      status: 'completed',
      notes: 'cheque no. 1187',
    });
    expect(cheque.status).toBe(201);
    expect(cheque.headers.get('location')).toBe(`${svc.kernel.config.baseUrl}/wp-json/billing/v1/payments/${cheque.body.id}`);
    expect(cheque.body).toEqual({
      id: expect.any(Number),
      invoice_id: inv.id,
      invoice_number: inv.number,
      reference: expect.stringMatching(/^P\d{6,}$/),
      amount: 400,
      currency: 'USD',
      method: 'cheque',
      status: 'completed',
      transaction_id: null,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      refunded: 0,
      notes: 'cheque no. 1187',
      review: null,
    });
    expect((await call(admin, 'GET', `/invoices/${inv.id}`)).body).toMatchObject({ status: 'partial', totals: { paid: 400, due: 600 } });

    const transfer = await call(admin, 'POST', `/invoices/${inv.id}/payments`, {
      amount: 600,
      method: 'bank_transfer',
      status: 'pending',
      transaction_id: 'SEPA-2026-0001',
    });
    expect([transfer.status, transfer.body.status]).toEqual([201, 'pending']);
    expect((await call(admin, 'GET', `/invoices/${inv.id}`)).body.status).toBe('partial');
    const done = await call(admin, 'POST', `/payments/${transfer.body.id}/complete`, {});
    expect([done.status, done.body.status]).toEqual([200, 'completed']);
    expect((await call(admin, 'GET', `/invoices/${inv.id}`)).body).toMatchObject({ status: 'paid', totals: { paid: 1000, due: 0 } });

    const refund = await call(admin, 'POST', `/payments/${cheque.body.id}/refund`, { amount: 400, reason: 'paid twice' });
    expect([refund.status, refund.body.status, refund.body.refunded]).toEqual([200, 'refunded', 400]);
    expect((await call(admin, 'GET', `/invoices/${inv.id}`)).body).toMatchObject({ status: 'partial', totals: { paid: 600, due: 400 } });

    const cn = await call(admin, 'POST', `/invoices/${inv.id}/credit-notes`, { amount: 400, reason: 'Two days not worked' });
    expect(cn.status).toBe(201);
    expect(cn.headers.get('location')).toBe(`${svc.kernel.config.baseUrl}/wp-json/billing/v1/credit-notes/${cn.body.id}`);
    expect(cn.body).toEqual({
      id: expect.any(Number),
      number: 'CN-0001',
      invoice_id: inv.id,
      amount: 400,
      currency: 'USD',
      reason: 'Two days not worked',
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      period_start: null,
      period_end: null,
      links: { pdf: `${svc.kernel.config.baseUrl}/wp-json/billing/v1/credit-notes/${cn.body.id}/pdf` },
    });
    expect((await call(admin, 'GET', `/invoices/${inv.id}`)).body).toMatchObject({
      status: 'paid',
      totals: { paid: 600, credited: 400, due: 0 },
    });
    const listed = await call(viewer, 'GET', `/invoices/${inv.id}/credit-notes`);
    expect([listed.status, listed.headers.get('x-wp-total'), listed.body]).toEqual([200, '1', [cn.body]]);

    const pdf = await call(viewer, 'GET', `/credit-notes/${cn.body.id}/pdf`);
    expect([pdf.status, pdf.headers.get('content-type'), pdf.headers.get('content-disposition')]).toEqual([
      200,
      'application/pdf',
      'inline; filename="CN-0001.pdf"',
    ]);
    const text = (await pdfText(pdf.bytes)).text;
    for (const s of ['CN-0001', inv.number, 'Two days not worked', '400.00']) expect(text).toContain(s);
    const again = await svc.rest(viewer).get(`/credit-notes/${cn.body.id}/pdf`, { 'if-none-match': pdf.headers.get('etag')! });
    expect(again.status).toBe(304);

    const history = await call(viewer, 'GET', `/invoices/${inv.id}/payments`);
    expect([history.status, history.headers.get('x-wp-total'), history.body.map((p: any) => p.status).sort()]).toEqual([
      200,
      '2',
      ['completed', 'refunded'],
    ]);
  });

  it('row 3 (sent): sending a draft by e-mail issues it, after which it takes payments', async () => {
    const draft = await newInvoice('draft');
    expect(
      (await call(admin, 'POST', `/invoices/${draft.id}/payments`, { amount: 1, method: 'cash', status: 'completed' })).body.code,
    ).toBe('billing_rest_invalid_state');
    await svc.kernel.api.mail.sendInvoice(draft.id, CLI);
    expect((await call(admin, 'GET', `/invoices/${draft.id}`)).body.status).toBe('available');
    expect((await call(admin, 'POST', `/invoices/${draft.id}/payments`, { amount: 1, method: 'cash', status: 'completed' })).status).toBe(
      201,
    );
  });
});

describe('REST codes', () => {
  it("recording: the contract's codes, nothing written on a refusal", async () => {
    const inv = await newInvoice();
    const draft = await newInvoice('draft');
    const quote = (await call(admin, 'POST', '/quotes', { items: [item] })).body;
    const ok = { amount: 10, method: 'cash', status: 'completed' };
    const cases: Array<[string, unknown, number, string]> = [
      [`/invoices/${draft.id}/payments`, ok, 409, 'billing_rest_invalid_state'],
      [`/invoices/${inv.id}/payments`, {}, 400, 'rest_missing_callback_param'],
      [`/invoices/${inv.id}/payments`, { ...ok, method: 'paypal' }, 400, 'rest_invalid_param'],
      [`/invoices/${inv.id}/payments`, { ...ok, status: 'refunded' }, 400, 'rest_invalid_param'],
      [`/invoices/${inv.id}/payments`, { ...ok, amount: 10.001 }, 400, 'rest_invalid_param'],
      [`/invoices/${inv.id}/payments`, { ...ok, amount: -1 }, 400, 'rest_invalid_param'],
      [`/invoices/${inv.id}/payments`, { ...ok, amount: 'lots' }, 400, 'rest_invalid_param'],
      [`/invoices/${inv.id}/payments`, { ...ok, date: '2026-13-01' }, 400, 'rest_invalid_param'],
      [`/invoices/${inv.id}/payments`, { ...ok, date: 'yesterday' }, 400, 'rest_invalid_param'],
      [`/invoices/${inv.id}/payments`, { ...ok, amount: 1000.01 }, 400, 'billing_rest_amount_exceeds'],
      ['/invoices/999999/payments', ok, 404, 'billing_rest_not_found'],
      [`/invoices/${quote.id}/payments`, ok, 404, 'billing_rest_not_found'],
    ];
    for (const [path, body, status, code] of cases) {
      const res = await call(admin, 'POST', path, body);
      expect({ path, body, status: res.status, code: res.body.code }).toEqual({ path, body, status, code });
    }
    expect((await call(admin, 'GET', `/invoices/${inv.id}/payments`)).body).toEqual([]);
    expect((await call(admin, 'GET', `/invoices/${draft.id}/payments`)).body).toEqual([]);
    const exceeds = await call(admin, 'POST', `/invoices/${inv.id}/payments`, { ...ok, amount: 1000.01 });
    expect(exceeds.body.data).toEqual({ status: 400, max: 1000 });
  });

  it('the same transaction id recorded twice answers the first payment with 200', async () => {
    const inv = await newInvoice();
    const body = { amount: 250, method: 'bank_transfer', status: 'completed', transaction_id: 'TX-42' };
    const first = await call(admin, 'POST', `/invoices/${inv.id}/payments`, body);
    const second = await call(admin, 'POST', `/invoices/${inv.id}/payments`, body);
    expect([first.status, second.status, second.body.id]).toEqual([201, 200, first.body.id]);
    expect((await call(admin, 'GET', `/invoices/${inv.id}`)).body.totals.paid).toBe(250);
  });

  it('completing, refunding, crediting and cancelling: 404, 409, 400 amount_exceeds', async () => {
    const inv = await newInvoice();
    const pending = (await call(admin, 'POST', `/invoices/${inv.id}/payments`, { amount: 100, method: 'cheque', status: 'pending' })).body;
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', '/payments/999999/complete', {}, 404, 'billing_rest_not_found'],
      ['POST', '/payments/999999/refund', { amount: 1, reason: 'x' }, 404, 'billing_rest_not_found'],
      ['POST', `/payments/${pending.id}/refund`, { amount: 1, reason: 'x' }, 409, 'billing_rest_invalid_state'],
      ['POST', `/payments/${pending.id}/refund`, { amount: 1 }, 400, 'rest_missing_callback_param'],
      ['POST', `/payments/${pending.id}/refund`, { amount: 1, reason: '  ' }, 400, 'rest_invalid_param'],
      ['POST', `/payments/${pending.id}/complete`, { date: '2026-02-29 10:00:00' }, 400, 'rest_invalid_param'],
      ['POST', `/invoices/${inv.id}/credit-notes`, { amount: 1000.01, reason: 'too much' }, 400, 'billing_rest_amount_exceeds'],
      ['POST', `/invoices/${inv.id}/credit-notes`, { amount: 10 }, 400, 'rest_missing_callback_param'],
      ['POST', `/invoices/${inv.id}/credit-notes`, { amount: 0, reason: 'nothing' }, 400, 'rest_invalid_param'],
      ['POST', '/invoices/999999/credit-notes', { amount: 1, reason: 'x' }, 404, 'billing_rest_not_found'],
      ['GET', '/invoices/999999/credit-notes', undefined, 404, 'billing_rest_not_found'],
      ['GET', '/credit-notes/999999/pdf', undefined, 404, 'billing_rest_not_found'],
      ['GET', `/credit-notes/${inv.id}`, undefined, 404, 'billing_rest_not_found'],
      ['GET', '/payments/999999', undefined, 404, 'billing_rest_not_found'],
      ['POST', '/invoices/999999/cancel', {}, 404, 'billing_rest_not_found'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const res = await call(admin, method, path, body);
      expect({ method, path, body, status: res.status, code: res.body?.code }).toEqual({ method, path, body, status, code });
    }
    const completed = await call(admin, 'POST', `/payments/${pending.id}/complete`, {
      date: '2026-02-28 10:00:00',
      transaction_id: 'CHQ-9',
    });
    expect(completed.body).toMatchObject({ status: 'completed', date: '2026-02-28 10:00:00', transaction_id: 'CHQ-9' });
    expect((await call(admin, 'POST', `/payments/${pending.id}/complete`, {})).body.date).toBe('2026-02-28 10:00:00');
    expect((await call(admin, 'POST', `/payments/${pending.id}/refund`, { amount: 100.01, reason: 'x' })).body).toMatchObject({
      code: 'billing_rest_amount_exceeds',
      data: { status: 400, max: 100 },
    });
    expect((await call(admin, 'POST', `/invoices/${inv.id}/cancel`, {})).body).toMatchObject({
      code: 'billing_rest_invalid_state',
      data: { status: 409 },
    });
    const draft = await newInvoice('draft');
    expect((await call(admin, 'POST', `/invoices/${draft.id}/cancel`, {})).status).toBe(409);
    expect((await call(admin, 'POST', `/invoices/${draft.id}/credit-notes`, { amount: 1, reason: 'x' })).status).toBe(409);
  });

  it('cancels an issued invoice with nothing paid', async () => {
    const inv = await newInvoice();
    const heard: string[] = [];
    const off = svc.kernel.hooks.addAction('billing_invoice_status_changed', (_id, _inv, from, to) => {
      heard.push(`${from}>${to}`);
    });
    const res = await call(admin, 'POST', `/invoices/${inv.id}/cancel`, { reason: 'ordered by mistake' });
    off();
    expect([res.status, res.body.status, res.body.id]).toEqual([200, 'cancelled', inv.id]);
    expect(heard).toEqual(['available>cancelled']);
    expect((await call(admin, 'POST', `/invoices/${inv.id}/payments`, { amount: 1, method: 'cash', status: 'pending' })).status).toBe(409);
  });

  it('capabilities: viewers read, only recorders record, only refunders refund', async () => {
    const inv = await newInvoice();
    const rec = await call(clerk, 'POST', `/invoices/${inv.id}/payments`, { amount: 5, method: 'cash', status: 'completed' });
    expect(rec.status).toBe(201);
    expect((await call(clerk, 'POST', `/payments/${rec.body.id}/refund`, { amount: 1, reason: 'x' })).body.code).toBe(
      'billing_rest_forbidden',
    );
    expect((await call(viewer, 'POST', `/invoices/${inv.id}/payments`, { amount: 5, method: 'cash', status: 'completed' })).body.code).toBe(
      'billing_rest_forbidden',
    );
    expect((await call(viewer, 'POST', `/invoices/${inv.id}/credit-notes`, { amount: 5, reason: 'x' })).body.code).toBe(
      'billing_rest_forbidden',
    );
    expect((await call(viewer, 'GET', `/payments/${rec.body.id}`)).body.id).toBe(rec.body.id);
    expect((await call(null, 'GET', '/payments')).status).toBe(401);
  });
});

describe('GET /payments', () => {
  it('lists with WP pagination and filters by status, method, invoice and date in the site timezone', async () => {
    await svc.kernel.options.set('timezone', 'Europe/Paris', CLI);
    try {
      const inv = await newInvoice();
      const mk = (amount: number, method: string, status: string, date: string) =>
        call(admin, 'POST', `/invoices/${inv.id}/payments`, { amount, method, status, date });
      const march1 = (await mk(10, 'cheque', 'completed', '2026-03-01 00:30:00')).body;
      expect(march1.date).toBe('2026-03-01 00:30:00');
      // stored as the instant: 23:30 UTC the day before
      expect(
        (
          await svc.kernel.db.query<{ d: string }>(
            `select to_char(date at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as d from billing_payments where id = $1`,
            [march1.id],
          )
        )[0]!.d,
      ).toBe('2026-02-28 23:30');
      const march2 = (await mk(20, 'cash', 'pending', '2026-03-02 12:00:00')).body;
      const march3 = (await mk(30, 'cash', 'completed', '2026-03-03')).body;
      const ids = async (q: string) => (await call(viewer, 'GET', `/payments?invoice_id=${inv.id}&${q}`)).body.map((p: any) => p.id);
      expect(await ids('')).toEqual([march3.id, march2.id, march1.id]);
      expect(await ids('status=completed')).toEqual([march3.id, march1.id]);
      expect(await ids('method=cash')).toEqual([march3.id, march2.id]);
      expect(await ids('method=cash,cheque&status=pending,completed')).toEqual([march3.id, march2.id, march1.id]);
      expect(await ids('after=2026-03-01')).toEqual([march3.id, march2.id]);
      expect(await ids('before=2026-03-02')).toEqual([march1.id]);
      expect(await ids('after=2026-03-02 11:59:59&before=2026-03-03 00:00:01')).toEqual([march3.id, march2.id]);
      expect(await ids(`search=${march2.reference.toLowerCase()}`)).toEqual([march2.id]);
      const page = await call(viewer, 'GET', `/payments?invoice_id=${inv.id}&per_page=2&page=2`);
      expect([page.headers.get('x-wp-total'), page.headers.get('x-wp-totalpages'), page.body.length]).toEqual(['3', '2', 1]);
      expect(page.headers.get('link')).toContain('rel="prev"');
      for (const q of ['per_page=101', 'status=lost', 'method=Bit%20coin', 'after=03/01/2026']) {
        expect((await call(viewer, 'GET', `/payments?${q}`)).body.code).toBe('rest_invalid_param');
      }
      expect((await call(viewer, 'GET', `/payments?invoice_id=${inv.id}&page=9`)).body.code).toBe('billing_rest_invalid_page_number');
      const none = await call(viewer, 'GET', '/payments?invoice_id=999999');
      expect([none.body, none.headers.get('x-wp-total'), none.headers.get('x-wp-totalpages')]).toEqual([[], '0', '0']);
    } finally {
      await svc.kernel.options.delete('timezone', CLI);
    }
  });
});
