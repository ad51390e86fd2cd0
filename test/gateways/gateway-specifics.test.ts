import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Stripe from 'stripe';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { bootKernel, deliver, useService, waitFor } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';
import { A_SIGNING, C_KEY, D_LOGIN, D_SIGNATURE_KEY, DRIVERS, E_SECRET, pendingCheckout, squareAccepts, type Driver } from './drivers.ts';

/**
 * What each gateway does its own way (docs/gateways.md): A's timestamp window, several `v1` values and
 * payments without a reference; B trusting only its API; C's signed notification URL (checked against
 * the gateway's own SDK); D's unset key, case-insensitive hex and legacy relay with its optional MD5.
 */
const svc = useService();
let k: Kernel;
const d: Record<string, Driver> = {};
const stripe = new Stripe('sk_test_unused');

beforeAll(async () => {
  k = svc.kernel;
  for (const [name, make] of Object.entries(DRIVERS)) {
    d[name] = await make();
    await k.plugins.activate(d[name]!.plugin, CLI);
    await d[name]!.configure(k);
  }
});

// after useService's afterAll: the service stops before the fake gateways
afterAll(async () => {
  for (const x of Object.values(d)) await x.fake.close();
});

/** An issued invoice with a pending checkout at the gateway of `method`. */
const pending = (method: string, total?: string) =>
  pendingCheckout(
    k,
    Object.values(d).find((x) => x.method === method)!,
    total,
  );

const inboxRows = async () => Number((await k.db.query<{ n: string }>('select count(*) n from billing_gateway_deliveries'))[0]!.n);

const statuses = (invoiceId: number) =>
  k.db.query<{ reference: string; status: string; amount: string; method: string }>(
    'select reference, status, amount::text, method from billing_payments where invoice_id = $1 order by id',
    [invoiceId],
  );

const post = (action: string, body: string, headers: Record<string, string> = {}) => deliver(k.url, action, body, headers);

describe('gateway A', () => {
  const sign = (body: string, timestamp: number) =>
    stripe.webhooks.generateTestHeaderString({ payload: body, secret: A_SIGNING, timestamp });

  it('refuses a signature more than 300 seconds old, and takes one within the window', async () => {
    const { doc, reference } = await pending('gateway_a');
    const body = d.A!.paid(reference);
    const now = Math.floor(Date.now() / 1000);
    expect(await post('billing_gateway_a_webhook', body, { 'gateway-a-signature': sign(body, now - 301) })).toMatchObject({
      status: 401,
      body: { data: { code: 'billing_invalid_signature' } },
    });
    expect((await statuses(doc.id))[0]!.status).toBe('pending');
    expect((await post('billing_gateway_a_webhook', body, { 'gateway-a-signature': sign(body, now - 290) })).status).toBe(200);
    expect((await statuses(doc.id))[0]!.status).toBe('completed');
  });

  it('accepts a header carrying several v1 values when one of them is right (a secret being rolled)', async () => {
    const { doc, reference } = await pending('gateway_a');
    const body = d.A!.paid(reference);
    const t = Math.floor(Date.now() / 1000);
    const right = createHmac('sha256', A_SIGNING).update(`${t}.${body}`).digest('hex');
    const wrong = createHmac('sha256', 'whsec_old').update(`${t}.${body}`).digest('hex');
    expect((await post('billing_gateway_a_webhook', body, { 'gateway-a-signature': `t=${t},v1=${wrong}` })).status).toBe(401);
    expect((await post('billing_gateway_a_webhook', body, { 'gateway-a-signature': `t=${t},v1=${wrong},v1=${right}` })).status).toBe(200);
    expect((await statuses(doc.id))[0]!.status).toBe('completed');
  });

  it('answers 400 to a signed event it cannot read (no currency, an amount that is no integer), keeping it as unreadable', async () => {
    const { doc, reference } = await pending('gateway_a');
    const paid = JSON.parse(d.A!.paid(reference));
    const intent = paid.data.object;
    const events = [
      { ...paid, id: 'evt_no_currency', data: { object: { ...intent, currency: undefined } } },
      { ...paid, id: 'evt_fraction', data: { object: { ...intent, amount_received: 5000.5 } } },
      { ...paid, id: 'evt_text_amount', data: { object: { ...intent, amount_received: '5000' } } },
      {
        id: 'evt_refund_no_currency',
        type: 'charge.refunded',
        data: { object: { id: 'ch_1', payment_intent: intent.id, amount_refunded: 100 } },
      },
    ];
    for (const e of events) {
      const body = JSON.stringify(e);
      expect(await post('billing_gateway_a_webhook', body, d.A!.headers(body))).toMatchObject({
        status: 400,
        body: { success: false, data: { code: 'billing_bad_request' } },
      });
    }
    const kept = await k.db.query<{ status: string }>(
      `select status from billing_gateway_deliveries where method = 'gateway_a' order by id desc limit ${events.length}`,
    );
    expect(kept.map((r) => r.status)).toEqual(Array(events.length).fill('unreadable'));
    expect((await statuses(doc.id))[0]!.status).toBe('pending');
  });

  it('records money for an invoice named only by billing_invoice_id as a new completed payment', async () => {
    const doc = await k.api.invoices.create(
      {
        items: [{ name: 'Work', quantity: 1, price: '30.00', taxable: false }],
        customer_name: 'Bo',
        customer_email: 'bo@example.com',
        status: 'available',
      },
      { actor: CLI, source: 'api' },
    );
    const body = JSON.stringify({
      id: 'evt_direct_1',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_direct_1', amount_received: 3000, currency: 'usd', metadata: { billing_invoice_id: String(doc.id) } } },
    });
    for (let i = 0; i < 3; i++) expect((await post('billing_gateway_a_webhook', body, d.A!.headers(body))).status).toBe(200);
    expect((await statuses(doc.id)).map((p) => [p.status, p.amount, p.method])).toEqual([['completed', '30.00', 'gateway_a']]);
    expect((await k.api.invoices.get(doc.id)).status).toBe('paid');
  });
});

describe('gateway B', () => {
  it('trusts only its API: a forged notification for an unpaid payment changes nothing', async () => {
    const { doc, reference } = await pending('gateway_b');
    const gid = d.B!.ledger.get(reference)!.gid;
    // whatever the body claims, only the id is read, and the API says the payment is still open
    expect(
      await post('billing_gateway_b_webhook', JSON.stringify({ payment_id: gid, status: 'paid' }), { 'content-type': 'application/json' }),
    ).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await statuses(doc.id))[0]!.status).toBe('pending');
    const call = d.B!.fake.requests(`GET /v2/payments/${gid}`).at(-1)!;
    expect(call.headers.authorization).toBe(`Bearer ${'test_b_0123456789abcdef'}`);
  });

  it('answers 503 while its API fails, and the retried notification completes the payment', async () => {
    const { doc, reference } = await pending('gateway_b');
    const body = d.B!.paid(reference);
    d.B!.fake.failing = 500;
    expect(await post('billing_gateway_b_webhook', body)).toMatchObject({
      status: 503,
      body: { data: { code: 'billing_gateway_unreachable' } },
    });
    d.B!.fake.failing = null;
    expect((await statuses(doc.id))[0]!.status).toBe('pending');
    expect(await post('billing_gateway_b_webhook', `payment_id=${d.B!.ledger.get(reference)!.gid}`)).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await statuses(doc.id))[0]!.status).toBe('completed');
  });

  it('answers 400 to a notification naming no payment', async () => {
    expect(await post('billing_gateway_b_webhook', 'nothing=here')).toMatchObject({
      status: 400,
      body: { data: { code: 'billing_bad_request' } },
    });
  });
});

describe('gateway C', () => {
  const configured = 'https://billing.example.com/wp-admin/admin-ajax.php?action=billing_gateway_c_webhook';

  it("signs the configured notification URL with the body, as the gateway's own SDK checks it", async () => {
    const { doc, reference } = await pending('gateway_c');
    const body = d.C!.paid(reference);
    const [signature] = Object.values(d.C!.headers(body));
    expect(await squareAccepts(body, signature!, configured)).toBe(true);
    // signed over the URL the request really reached: not what the option says, so refused
    const actual = `${k.url}/wp-admin/admin-ajax.php?action=billing_gateway_c_webhook`;
    const overActual = createHmac('sha256', C_KEY)
      .update(actual + body)
      .digest('base64');
    expect(await squareAccepts(body, overActual, actual)).toBe(true);
    expect((await post('billing_gateway_c_webhook', body, { 'x-gateway-c-signature': overActual })).status).toBe(401);
    expect((await post('billing_gateway_c_webhook', body, { 'x-gateway-c-signature': signature! })).status).toBe(200);
    expect((await statuses(doc.id))[0]!.status).toBe('completed');
  });

  it('counts payment.created and payment.updated of one completed payment once, and a refund only once it completes', async () => {
    const { doc, reference } = await pending('gateway_c', '40.00');
    const updated = d.C!.paid(reference);
    const created = updated.replace('"payment.updated"', '"payment.created"').replace(/"event_id":"[^"]+"/, '"event_id":"ev-created-1"');
    for (const b of [created, updated]) expect((await post('billing_gateway_c_webhook', b, d.C!.headers(b))).status).toBe(200);
    const keys = await k.db.query<{ key: string }>(
      "select e.key from billing_payment_events e join billing_payments p on p.id = e.payment_id where p.reference = $1 and e.key like 'gateway_c:%'",
      [reference],
    );
    expect(keys.map((r) => r.key)).toEqual([`gateway_c:payment:${d.C!.ledger.get(reference)!.gid}:COMPLETED`]);
    const refund = JSON.parse(d.C!.refunded(reference, 1000));
    refund.type = 'refund.created';
    refund.data.object.refund.status = 'PENDING';
    const pendingRefund = JSON.stringify(refund);
    expect((await post('billing_gateway_c_webhook', pendingRefund, d.C!.headers(pendingRefund))).status).toBe(200);
    expect((await k.api.invoices.get(doc.id)).totals.paid).toBe('40.00');
    refund.type = 'refund.updated';
    refund.event_id = 'ev-refund-done';
    refund.data.object.refund.status = 'COMPLETED';
    const done = JSON.stringify(refund);
    expect((await post('billing_gateway_c_webhook', done, d.C!.headers(done))).status).toBe(200);
    expect((await k.api.invoices.get(doc.id)).totals.paid).toBe('30.00');
  });

  it('runs its reconcile job every 15 minutes under the name the interface gives it', async () => {
    const jobs = await k.jobs.status();
    expect(jobs.find((j) => j.hook === 'billing_check_pending_gateway_c_payments')).toMatchObject({ schedule: '*/15 * * * *' });
    for (const x of ['a', 'b', 'd', 'e']) expect(jobs.map((j) => j.hook)).toContain(`billing_check_pending_gateway_${x}_payments`);
  });
});

describe('gateway D', () => {
  const sign = (body: string) => `sha512=${createHmac('sha512', D_SIGNATURE_KEY).update(body).digest('hex')}`;

  it('refuses its webhook and its relay with 503 while the signature key is unset', async () => {
    await k.options.delete('gateway_d_signature_key', CLI);
    const body = JSON.stringify({ notificationId: 'n1', eventType: 'net.authorize.payment.authcapture.created', payload: {} });
    expect(await post('billing_gateway_d_webhook', body, { 'x-gateway-d-signature': sign(body) })).toEqual({
      status: 503,
      body: { success: false, data: { code: 'billing_gateway_not_configured', message: expect.any(String) } },
    });
    expect((await post('billing_gateway_d_response', 'x_trans_id=1&x_response_code=1')).status).toBe(503);
    await d.D!.configure(k);
  });

  it('compares the hex case-insensitively', async () => {
    const { doc, reference } = await pending('gateway_d');
    const body = d.D!.paid(reference);
    expect((await post('billing_gateway_d_webhook', body, { 'x-gateway-d-signature': sign(body) })).status).toBe(200);
    expect((await statuses(doc.id))[0]!.status).toBe('completed');
  });

  describe('the legacy relay billing_gateway_d_response', () => {
    const relay = (f: Record<string, string>) =>
      post('billing_gateway_d_response', new URLSearchParams(f).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    const md5 = (hash: string, trans: string, amount: string) =>
      createHash('md5').update(`${hash}${D_LOGIN}${trans}${amount}`).digest('hex').toUpperCase();

    it('without an MD5 setting, confirms the transaction with the API: a forged approval does nothing', async () => {
      const { doc, reference } = await pending('gateway_d', '25.00');
      const trans = d.D!.ledger.get(reference)!.gid;
      const form = { x_response_code: '1', x_trans_id: trans, x_amount: '25.00', x_invoice_num: reference };
      expect(await relay(form)).toEqual({ status: 200, body: { success: true } });
      expect((await statuses(doc.id))[0]!.status).toBe('pending');
      // a transaction the gateway does not know: 200, nothing to retry
      expect(await relay({ ...form, x_trans_id: '999999999' })).toEqual({ status: 200, body: { success: true } });
      d.D!.paid(reference); // now it is captured at the gateway
      expect((await relay(form)).status).toBe(200);
      expect((await statuses(doc.id))[0]!.status).toBe('completed');
    });

    it('with an MD5 setting, checks x_MD5_Hash, and completes what the API says is captured', async () => {
      await k.options.set('gateway_d_md5_hash', 'legacyhash', CLI);
      try {
        const { doc, reference } = await pending('gateway_d', '33.00');
        const trans = d.D!.ledger.get(reference)!.gid;
        const form = { x_response_code: '1', x_trans_id: trans, x_amount: '33.00', x_invoice_num: reference };
        expect(await relay({ ...form, x_MD5_Hash: md5('wrong', trans, '33.00') })).toMatchObject({
          status: 401,
          body: { data: { code: 'billing_invalid_signature' } },
        });
        expect(await relay(form)).toMatchObject({ status: 401 });
        expect((await statuses(doc.id))[0]!.status).toBe('pending');
        d.D!.paid(reference); // captured at the gateway
        expect(await relay({ ...form, x_MD5_Hash: md5('legacyhash', trans, '33.00') })).toEqual({ status: 200, body: { success: true } });
        expect((await statuses(doc.id))[0]!.status).toBe('completed');
        // the webhook reporting the same transaction afterwards counts nothing more
        const body = JSON.stringify({
          notificationId: 'n-late',
          eventType: 'net.authorize.payment.authcapture.created',
          payload: { responseCode: 1, authAmount: 33, invoiceNumber: reference, id: trans },
        });
        expect((await post('billing_gateway_d_webhook', body, { 'x-gateway-d-signature': sign(body) })).status).toBe(200);
        expect((await k.api.invoices.get(doc.id)).totals.paid).toBe('33.00');
      } finally {
        await k.options.set('gateway_d_md5_hash', '', CLI);
      }
    });

    it('a signed decline replayed as an approval, or naming another invoice, completes nothing: the API says what happened', async () => {
      await k.options.set('gateway_d_md5_hash', 'legacyhash', CLI);
      try {
        const declined = await pending('gateway_d', '40.00');
        const other = await pending('gateway_d', '40.00');
        const held = d.D!.ledger.get(declined.reference)!;
        held.status = 'failed'; // the card was declined at the gateway
        const asked = () => d.D!.fake.seen.filter((r) => r.json?.getTransactionDetailsRequest?.transId === held.gid).length;
        // the decline as the gateway relayed it, signed: its MD5 covers login, transaction id and amount only
        const captured = {
          x_response_code: '2',
          x_trans_id: held.gid,
          x_amount: '40.00',
          x_invoice_num: declined.reference,
          x_MD5_Hash: md5('legacyhash', held.gid, '40.00'),
        };
        expect(await relay(captured)).toEqual({ status: 200, body: { success: true } });
        expect((await statuses(declined.doc.id))[0]!.status).toBe('failed');
        // replayed as an approval, then as an approval of another pending payment of ours: both still verify
        expect(await relay({ ...captured, x_response_code: '1' })).toEqual({ status: 200, body: { success: true } });
        expect(await relay({ ...captured, x_response_code: '1', x_invoice_num: other.reference })).toEqual({
          status: 200,
          body: { success: true },
        });
        expect(asked()).toBe(3); // each time the gateway was asked, and said: declined, for the first invoice
        expect((await statuses(declined.doc.id))[0]!.status).toBe('failed');
        expect((await statuses(other.doc.id))[0]!.status).toBe('pending');
        for (const id of [declined.doc.id, other.doc.id]) expect((await k.api.invoices.get(id)).totals.paid).toBe('0.00');
      } finally {
        await k.options.set('gateway_d_md5_hash', '', CLI);
      }
    });

    it('asks the API nothing, and stores nothing, for a post naming no payment of ours', async () => {
      const seen = d.D!.fake.seen.length;
      const rows = await inboxRows();
      expect(await relay({ x_response_code: '1', x_trans_id: '123456', x_amount: '1.00', x_invoice_num: 'P424242' })).toEqual({
        status: 200,
        body: { success: true },
      });
      // a reference of ours, but of another method's payment
      const { reference } = await pending('gateway_e', '5.00');
      expect((await relay({ x_response_code: '1', x_trans_id: '123457', x_invoice_num: reference })).status).toBe(200);
      expect(await relay({ x_response_code: '1', x_invoice_num: reference })).toMatchObject({ status: 400 });
      expect([d.D!.fake.seen.length, await inboxRows()]).toEqual([seen, rows]);
    });
  });
});

describe('settings', () => {
  it('never echo a secret: `billing option list` hides every gateway secret', async () => {
    const { code, stdout } = await billing(svc.databaseUrl, ['option', 'list']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/gateway_a_signing_secret\s+\[secret\]/);
    const listed = stdout;
    for (const secret of [A_SIGNING, C_KEY, D_SIGNATURE_KEY, 'test_b_0123456789abcdef']) expect(listed).not.toContain(secret);
  }, 120_000);

  describe("a gateway's API base, where its secret goes", () => {
    async function save(settings: Record<string, string>) {
      const user = await svc.makeUser(`ops${++users}`, 'administrator', 'ops-pass-1');
      const ajax = await svc.ajax(user.login, 'ops-pass-1');
      return ajax.call('billing_save_settings', { settings: JSON.stringify(settings) });
    }
    let users = 0;
    const secret = () => k.options.get('gateway_e_secret_key');

    afterAll(async () => {
      await d.E!.configure(k);
    });

    it('is https: only — file:, javascript:, plain http: to another host and credentials in the URL are refused', async () => {
      for (const bad of [
        'file:///etc/passwd',
        'javascript:alert(1)',
        'http://collector.example/',
        'ftp://api.example/',
        'https://u:p@api.example',
      ]) {
        await expect(k.options.set('gateway_e_api_base', bad, CLI)).rejects.toMatchObject({ code: 'billing_invalid_option' });
        expect(await save({ gateway_e_api_base: bad })).toMatchObject({
          status: 400,
          body: { data: { code: 'rest_invalid_param', params: { gateway_e_api_base: expect.any(String) } } },
        });
      }
      expect([await k.options.get('gateway_e_api_base'), await secret()]).toEqual([d.E!.fake.url, E_SECRET]);
    });

    it('changed on the settings screen, it empties the secrets in the same write; secrets given with it are kept', async () => {
      expect(await save({ gateway_e_api_base: 'https://api.elsewhere.example' })).toMatchObject({
        status: 200,
        body: { success: true, data: { saved: ['gateway_e_api_base'], cleared: ['gateway_e_secret_key'] } },
      });
      expect(await secret()).toBe('');
      const note = await k.db.query<{ details: any }>(
        "select details from billing_audit_log where action = 'option.delete' and object_id = 'gateway_e_secret_key' order by id desc limit 1",
      );
      expect(note[0]!.details).toEqual({ reason: 'gateway_e_api_base changed' });
      // not configured now: no pay button, and the webhook asks the gateway to retry
      const body = JSON.stringify({ event: 'charge.success', data: { id: 1, reference: 'P1', amount: 1, currency: 'USD' } });
      expect((await post('billing_gateway_e_webhook', body, d.E!.headers(body))).status).toBe(503);
      // the base sent again unchanged (as the screen sends every field) keeps a new secret
      expect(await save({ gateway_e_api_base: 'https://api.elsewhere.example', gateway_e_secret_key: 'sk_new' })).toMatchObject({
        status: 200,
      });
      expect(await secret()).toBe('sk_new');
      // a new base and its secret in one save, the secret listed first: the secret is the one kept
      expect(await save({ gateway_e_secret_key: E_SECRET, gateway_e_api_base: d.E!.fake.url })).toMatchObject({
        status: 200,
        body: { data: { cleared: [] } },
      });
      expect([await k.options.get('gateway_e_api_base'), await secret()]).toEqual([d.E!.fake.url, E_SECRET]);
      // the CLI's way, one option at a time, the same, and it says so
      const { code, stdout } = await billing(svc.databaseUrl, ['option', 'set', 'gateway_e_api_base', 'https://api.paystack.co']);
      expect([code, stdout.trim()]).toEqual([
        0,
        'Option gateway_e_api_base set to https://api.paystack.co. Emptied with it (a new API base): gateway_e_secret_key.',
      ]);
      await waitFor(async () => (await secret()) === '', { what: "the CLI's new base to empty the secret" });
    }, 60_000);

    it('may be http: to this machine only where the process allows it, and a refused base is never called', async () => {
      await d.E!.configure(k);
      const { reference } = await pending('gateway_e', '12.00');
      const strict = await bootKernel(svc.databaseUrl, { serve: false, config: { gatewayLoopbackHttp: false } });
      try {
        await expect(strict.options.set('gateway_e_api_base', d.E!.fake.url, CLI)).rejects.toMatchObject({
          code: 'billing_invalid_option',
        });
        // the base stored by a process that allows it is not called by one that does not
        const seen = d.E!.fake.seen.length;
        const run = (await strict.jobs.runNow('billing_check_pending_gateway_e_payments')) as { result: { unreachable: number } };
        expect(run.result.unreachable).toBeGreaterThan(0);
        expect(d.E!.fake.seen.length).toBe(seen);
        expect(
          (await k.db.query<{ status: string }>('select status from billing_payments where reference = $1', [reference]))[0]!.status,
        ).toBe('pending');
      } finally {
        await strict.stop();
      }
    });
  });
});
