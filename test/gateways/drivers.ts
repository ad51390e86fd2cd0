import { createHmac } from 'node:crypto';
import type { expect as jestExpect } from '@jest/globals';
import Stripe from 'stripe';
import { WebhooksHelper } from 'square';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { FakeGateway, type SeenRequest } from '../../testing/index.ts';

/**
 * Gateways A–E as fakes that keep a ledger, and what each one sends: a driver makes its fake gateway
 * (a real local HTTP server answering the plugin's API calls from the ledger), configures the plugin,
 * and writes the webhook bodies a real gateway would post for a change of the ledger, signed its way.
 * The shared test (gateways.test.ts) runs the same behaviour over all five through these.
 */

/** A payment as the fake gateway holds it. */
export interface Held {
  reference: string;
  /** The gateway's payment id (`pi_…`, `tr_…`, a transaction id…). */
  gid: string;
  /** The object checkout created (session, order), when the gateway has one besides the payment. */
  object: string;
  minor: number;
  currency: string;
  status: 'open' | 'paid' | 'failed';
  refunds: Array<{ id: string; minor: number }>;
  /** Paid outside the pay route: the gateway-side object names only the invoice (A's `billing_invoice_id`), no reference of ours. */
  invoiceId?: number;
  /** Saving (A: `setup_future_usage`; B: `sequenceType` first/recurring): the customer, and the card or mandate once paid. */
  save?: 'first' | 'recurring';
  customer?: string;
  saved?: string;
}

/**
 * The saved-method half of a fake (A and B): cards and mandates it keeps, off-session charges it takes
 * (declining the next `declineNext` of them), and the webhook body telling a charge's result.
 */
export interface SavingFake {
  declineNext: number;
  /** The off-session charges (A's PaymentIntents, B's recurring payments) it was asked for, by idempotency key. */
  charges: Map<string, Held>;
  /** The webhook body a real gateway posts for the payment of `reference` as its ledger has it now. */
  outcome(reference: string): string;
}

export interface Driver {
  name: string;
  plugin: string;
  method: string;
  webhook: string;
  fake: FakeGateway;
  /** Whether deliveries carry a signature (all but B, which asks its API instead). */
  signed: boolean;
  /** Whether the hosted page takes its token by POST (D): the pay route answers a page with a button, not a 303. */
  byPost?: boolean;
  ledger: Map<string, Held>;
  configure(k: Kernel): Promise<void>;
  /** The creation call the pay route makes, and what it must carry. */
  creation: string;
  checkCreation(call: SeenRequest, held: Held, expect: typeof jestExpect): void;
  /** Headers for a delivery of `body`, signed (or, with `bad`, signed with the wrong secret). */
  headers(body: string, bad?: boolean): Record<string, string>;
  /** The ledger says paid (another amount or currency when given); answers the webhook body saying so. */
  paid(reference: string, over?: { minor?: number; currency?: string }): string;
  /** The ledger says failed; the webhook body, or null when the gateway sends none for it. */
  failed(reference: string): string | null;
  /** A refund of `minor` at the gateway; the webhook body saying so. */
  refunded(reference: string, minor: number): string;
  /** A success naming a payment the service never made. */
  unknown(): string;
  /**
   * For a gateway whose success events can record money paid outside the pay route (A: a payment taken
   * in its dashboard, naming only our invoice): the ledger entry (its key, for `refunded` and
   * `failed`) and the success webhook body. Absent: the gateway's events only complete our payments.
   */
  outside?(invoiceId: number, minor: number): { key: string; body: string };
  /** The reconciliation job's name. */
  job: string;
  saving?: SavingFake;
}

let seq = 0;
const next = (prefix: string) => `${prefix}${++seq}`;
const refundedMinor = (h: Held) => h.refunds.reduce((s, r) => s + r.minor, 0);
const decimal = (minor: number) => (minor / 100).toFixed(2);

function base(name: string, plugin: string): Pick<Driver, 'name' | 'plugin' | 'method' | 'webhook' | 'ledger' | 'job'> {
  const method = `gateway_${name.toLowerCase()}`;
  return {
    name,
    plugin,
    method,
    webhook: `billing_${method}_webhook`,
    ledger: new Map(),
    job: `billing_check_pending_${method}_payments`,
  };
}

function hold(ledger: Map<string, Held>, reference: string, minor: number, currency: string, gid: string, object = gid): Held {
  const h: Held = { reference, gid, object, minor, currency, status: 'open', refunds: [] };
  ledger.set(reference, h);
  return h;
}

function settle(ledger: Map<string, Held>, reference: string, over: { minor?: number; currency?: string } = {}): Held {
  const h = ledger.get(reference) ?? {
    reference,
    gid: next('unknown_'),
    object: '',
    minor: 100,
    currency: 'USD',
    status: 'open',
    refunds: [],
  };
  h.status = 'paid';
  if (over.minor !== undefined) h.minor = over.minor;
  if (over.currency) h.currency = over.currency;
  if (ledger.has(reference)) ledger.set(reference, h);
  return h;
}

const byGid = (ledger: Map<string, Held>, gid: string) => [...ledger.values()].find((h) => h.gid === gid || h.object === gid);

export const A_SECRET = 'sk_test_a_0123456789';
export const A_SIGNING = 'whsec_a_0123456789';
const stripe = new Stripe('sk_test_unused');

export async function gatewayA(): Promise<Driver> {
  const fake = await new FakeGateway().start();
  const d = base('A', 'gateway-a');
  const cards = new Map<string, { customer: string; brand: string; last4: string }>();
  const intent = (h: Held) => {
    // paying a session that saves keeps the card for its customer, as the gateway does
    if (h.save === 'first' && h.status === 'paid' && !h.saved) {
      h.saved = next('pm_');
      cards.set(h.saved, { customer: h.customer!, brand: 'visa', last4: '4242' });
    }
    return {
      id: h.gid,
      object: 'payment_intent',
      status: h.status === 'paid' ? 'succeeded' : h.status === 'failed' ? 'requires_payment_method' : 'requires_payment_method',
      amount_received: h.status === 'paid' ? h.minor : 0,
      currency: h.currency.toLowerCase(),
      metadata: h.invoiceId === undefined ? { billing_payment_reference: h.reference } : { billing_invoice_id: String(h.invoiceId) },
      setup_future_usage: h.save === 'first' ? 'off_session' : null,
      customer: h.customer ?? null,
      payment_method: h.saved ?? null,
    };
  };
  fake.on('POST /v1/checkout/sessions', (req) => {
    const h = hold(
      d.ledger,
      req.json['metadata[billing_payment_reference]'],
      Number(req.json['line_items[0][price_data][unit_amount]']),
      'USD',
      next('pi_'),
      next('cs_'),
    );
    if (req.json['payment_intent_data[setup_future_usage]'] === 'off_session') {
      h.save = 'first';
      h.customer = req.json.customer ?? (req.json.customer_creation === 'always' ? next('cus_') : undefined);
    }
    return { status: 200, body: { id: h.object, object: 'checkout.session', url: `${fake.url}/pay/${h.object}` } };
  });
  fake.on('GET /v1/payment_methods/:id', (req) => {
    const id = req.path.split('/').pop()!;
    const card = cards.get(id);
    return card ? { status: 200, body: { id, object: 'payment_method', customer: card.customer, card } } : { status: 404, body: {} };
  });
  const saving: SavingFake = {
    declineNext: 0,
    charges: new Map(),
    outcome(reference) {
      const h = d.ledger.get(reference)!;
      return event(h.status === 'paid' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed', intent(h));
    },
  };
  // an off-session PaymentIntent on a saved card, confirmed at once; the same Idempotency-Key answers the same intent
  fake.on('POST /v1/payment_intents', (req) => {
    if (req.headers.authorization !== `Bearer ${A_SECRET}`) return { status: 401, body: {} };
    const key = String(req.headers['idempotency-key'] ?? '');
    const card = cards.get(req.json.payment_method);
    if (!key || !card || card.customer !== req.json.customer || req.json.off_session !== 'true' || req.json.confirm !== 'true')
      return { status: 400, body: { error: { type: 'invalid_request_error' } } };
    let h = saving.charges.get(key);
    if (!h) {
      h = hold(
        d.ledger,
        req.json['metadata[billing_payment_reference]'],
        Number(req.json.amount),
        req.json.currency.toUpperCase(),
        next('pi_'),
      );
      h.save = 'recurring';
      h.customer = card.customer;
      h.saved = req.json.payment_method;
      h.status = saving.declineNext > 0 ? 'failed' : 'paid';
      if (saving.declineNext > 0) saving.declineNext--;
      saving.charges.set(key, h);
    }
    return h.status === 'paid'
      ? { status: 200, body: intent(h) }
      : { status: 402, body: { error: { type: 'card_error', code: 'card_declined', payment_intent: intent(h) } } };
  });
  fake.on('GET /v1/checkout/sessions/:id', (req) => {
    const h = byGid(d.ledger, req.path.split('/').pop()!);
    return h ? { status: 200, body: { id: h.object, payment_intent: intent(h) } } : { status: 404, body: {} };
  });
  fake.on('GET /v1/payment_intents/:id', (req) => {
    const h = byGid(d.ledger, req.path.split('/').pop()!);
    return h ? { status: 200, body: intent(h) } : { status: 404, body: {} };
  });
  const event = (type: string, object: unknown) => JSON.stringify({ id: next('evt_'), object: 'event', type, data: { object } });
  return {
    ...d,
    fake,
    saving,
    signed: true,
    creation: 'POST /v1/checkout/sessions',
    async configure(k) {
      await k.options.set('gateway_a_api_base', fake.url, CLI);
      await k.options.set('gateway_a_secret_key', A_SECRET, CLI);
      await k.options.set('gateway_a_signing_secret', A_SIGNING, CLI);
    },
    checkCreation(call, h, expect) {
      expect(call.headers.authorization).toBe(`Bearer ${A_SECRET}`);
      expect(call.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(call.json).toMatchObject({
        mode: 'payment',
        'payment_intent_data[metadata][billing_payment_reference]': h.reference,
        'line_items[0][price_data][unit_amount]': String(h.minor),
        'line_items[0][price_data][currency]': 'usd',
      });
      expect(call.json['payment_intent_data[metadata][billing_invoice_id]']).toMatch(/^\d+$/);
    },
    headers(body, bad = false) {
      // the gateway's own SDK writes the header: t=<unix>,v1=<hex>
      return {
        'gateway-a-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret: bad ? 'whsec_wrong' : A_SIGNING }),
      };
    },
    paid(reference, over) {
      return event('payment_intent.succeeded', intent(settle(d.ledger, reference, over)));
    },
    failed(reference) {
      const h = d.ledger.get(reference)!;
      if (h.status !== 'paid') h.status = 'failed';
      return event('payment_intent.payment_failed', { ...intent(h), status: 'requires_payment_method' });
    },
    refunded(reference, minor) {
      const h = d.ledger.get(reference)!;
      h.refunds.push({ id: next('re_'), minor });
      // as the gateway sends it: the charge, without the intent's metadata (the plugin asks for the intent)
      return event('charge.refunded', {
        id: next('ch_'),
        object: 'charge',
        payment_intent: h.gid,
        amount_refunded: refundedMinor(h),
        currency: 'usd',
      });
    },
    unknown() {
      return event('payment_intent.succeeded', {
        id: next('pi_'),
        amount_received: 100,
        currency: 'usd',
        metadata: { billing_payment_reference: 'P999999' },
      });
    },
    outside(invoiceId, minor) {
      const key = next('outside_');
      const h = hold(d.ledger, key, minor, 'USD', next('pi_'));
      h.invoiceId = invoiceId;
      h.status = 'paid';
      return { key, body: event('payment_intent.succeeded', intent(h)) };
    },
  };
}

export const B_KEY = 'test_b_0123456789abcdef';

export async function gatewayB(): Promise<Driver> {
  const fake = await new FakeGateway().start();
  const d = base('B', 'gateway-b');
  const customers = new Set<string>();
  const mandates = new Map<string, { customer: string; iban: string }>();
  const saving: SavingFake = { declineNext: 0, charges: new Map(), outcome: (reference) => `id=${d.ledger.get(reference)!.gid}` };
  fake.on('POST /v2/customers', (req) => {
    if (req.headers.authorization !== `Bearer ${B_KEY}`) return { status: 401, body: {} };
    const id = next('cst_');
    customers.add(id);
    return { status: 201, body: { resource: 'customer', id, name: req.json.name, email: req.json.email } };
  });
  fake.on('POST /v2/payments', (req) => {
    const recurring = req.json.sequenceType === 'recurring';
    if (recurring) {
      // a recurring payment needs the customer's valid mandate; the idempotency key answers the same payment
      const m = mandates.get(req.json.mandateId);
      if (!m || m.customer !== req.json.customerId) return { status: 422, body: { status: 422, title: 'Unprocessable Entity' } };
      const known = saving.charges.get(String(req.headers['idempotency-key']));
      if (known) return { status: 201, body: { id: known.gid, status: 'pending', sequenceType: 'recurring' } };
    }
    if (req.json.sequenceType === 'first' && !customers.has(req.json.customerId)) return { status: 422, body: { status: 422 } };
    const h = hold(
      d.ledger,
      req.json.metadata.billing_payment_reference,
      Math.round(Number(req.json.amount.value) * 100),
      req.json.amount.currency,
      next('tr_'),
    );
    if (req.json.sequenceType === 'first') Object.assign(h, { save: 'first', customer: req.json.customerId });
    if (recurring) {
      Object.assign(h, { save: 'recurring', customer: req.json.customerId, saved: req.json.mandateId });
      h.status = saving.declineNext > 0 ? 'failed' : 'paid';
      if (saving.declineNext > 0) saving.declineNext--;
      saving.charges.set(String(req.headers['idempotency-key']), h);
      return { status: 201, body: { id: h.gid, status: 'pending', sequenceType: 'recurring' } };
    }
    return { status: 201, body: { id: h.gid, status: 'open', _links: { checkout: { href: `${fake.url}/checkout/${h.gid}` } } } };
  });
  fake.on('GET /v2/payments/:id', (req) => {
    if (req.headers.authorization !== `Bearer ${B_KEY}`) return { status: 401, body: {} };
    const h = byGid(d.ledger, req.path.split('/').pop()!);
    if (!h) return { status: 404, body: { status: 404, title: 'Not Found' } };
    // a paid first payment leaves a mandate for its customer
    if (h.save === 'first' && h.status === 'paid' && !h.saved) {
      h.saved = next('mdt_');
      mandates.set(h.saved, { customer: h.customer!, iban: 'NL55INGB0000004300' });
    }
    return {
      status: 200,
      body: {
        id: h.gid,
        status: h.status,
        amount: { value: decimal(h.minor), currency: h.currency },
        amountRefunded: { value: decimal(refundedMinor(h)), currency: h.currency },
        metadata: { billing_payment_reference: h.reference },
        sequenceType: h.save ?? 'oneoff',
        ...(h.customer ? { customerId: h.customer } : {}),
        ...(h.saved ? { mandateId: h.saved } : {}),
      },
    };
  });
  fake.on('GET /v2/customers/:cid/mandates/:mid', (req) => {
    if (req.headers.authorization !== `Bearer ${B_KEY}`) return { status: 401, body: {} };
    const [, , , cid, , mid] = req.path.split('/');
    const m = mandates.get(mid!);
    if (!m || m.customer !== cid) return { status: 404, body: { status: 404 } };
    return {
      status: 200,
      body: {
        resource: 'mandate',
        id: mid,
        status: 'valid',
        method: 'directdebit',
        details: { consumerName: 'Ann Buyer', consumerAccount: m.iban },
      },
    };
  });
  const body = (h: Held) => `id=${h.gid}`;
  return {
    ...d,
    fake,
    saving,
    signed: false,
    creation: 'POST /v2/payments',
    async configure(k) {
      await k.options.set('gateway_b_api_base', fake.url, CLI);
      await k.options.set('gateway_b_api_key', B_KEY, CLI);
    },
    checkCreation(call, h, expect) {
      expect(call.headers.authorization).toBe(`Bearer ${B_KEY}`);
      expect(call.json).toMatchObject({
        amount: { currency: 'USD', value: decimal(h.minor) },
        metadata: { billing_payment_reference: h.reference },
        webhookUrl: expect.stringContaining('action=billing_gateway_b_webhook'),
      });
    },
    headers: () => ({ 'content-type': 'application/x-www-form-urlencoded' }),
    paid(reference, over) {
      const h = settle(d.ledger, reference, over);
      if (!d.ledger.has(reference)) d.ledger.set(reference, h); // an unknown reference still has a gateway payment
      return body(h);
    },
    failed(reference) {
      const h = d.ledger.get(reference)!;
      if (h.status !== 'paid') h.status = 'failed';
      // B says nothing of a paid payment failing: the API answers the truth, which is still paid
      return body(h);
    },
    refunded(reference, minor) {
      const h = d.ledger.get(reference)!;
      h.refunds.push({ id: next('re_'), minor });
      return body(h);
    },
    unknown() {
      return `id=${next('tr_nobody')}`;
    },
  };
}

export const C_TOKEN = 'EAAA_c_token_0123456789';
export const C_KEY = 'c_signature_key_0123456789';
export const C_LOCATION = 'L0CATION1';

export async function gatewayC(): Promise<Driver> {
  const fake = await new FakeGateway().start();
  const d = base('C', 'gateway-c');
  const notificationUrl = 'https://billing.example.com/wp-admin/admin-ajax.php?action=billing_gateway_c_webhook';
  const money = (minor: number, currency: string) => ({ amount: minor, currency });
  const payment = (h: Held) => ({
    id: h.gid,
    status: h.status === 'paid' ? 'COMPLETED' : h.status === 'failed' ? 'FAILED' : 'APPROVED',
    amount_money: money(h.minor, h.currency),
    order_id: h.object,
    reference_id: h.reference,
  });
  fake.on('POST /v2/online-checkout/payment-links', (req) => {
    const item = req.json.order.line_items[0];
    const h = hold(
      d.ledger,
      req.json.order.reference_id,
      item.base_price_money.amount,
      item.base_price_money.currency,
      next('pay_'),
      next('ord_'),
    );
    return { status: 200, body: { payment_link: { id: next('pl_'), url: `${fake.url}/link/${h.object}`, order_id: h.object } } };
  });
  fake.on('GET /v2/orders/:id', (req) => {
    const h = byGid(d.ledger, req.path.split('/').pop()!);
    if (!h) return { status: 404, body: { errors: [{ code: 'NOT_FOUND' }] } };
    return {
      status: 200,
      body: {
        order: {
          id: h.object,
          reference_id: h.reference,
          state: h.status === 'paid' ? 'COMPLETED' : 'OPEN',
          tenders:
            h.status === 'paid'
              ? [{ id: 't1', payment_id: h.gid, amount_money: money(h.minor, h.currency), card_details: { status: 'CAPTURED' } }]
              : [],
          refunds: h.refunds.map((r) => ({ id: r.id, status: 'APPROVED', amount_money: money(r.minor, h.currency) })),
        },
      },
    };
  });
  fake.on('GET /v2/payments/:id', (req) => {
    const h = byGid(d.ledger, req.path.split('/').pop()!);
    return h ? { status: 200, body: { payment: payment(h) } } : { status: 404, body: {} };
  });
  const event = (type: string, object: unknown) =>
    JSON.stringify({
      merchant_id: 'M1',
      type,
      event_id: next('ev-'),
      created_at: new Date().toISOString(),
      data: { type: type.split('.')[0], id: 'x', object },
    });
  const sign = (body: string, key = C_KEY) =>
    createHmac('sha256', key)
      .update(notificationUrl + body)
      .digest('base64');
  return {
    ...d,
    fake,
    signed: true,
    creation: 'POST /v2/online-checkout/payment-links',
    async configure(k) {
      await k.options.set('gateway_c_api_base', fake.url, CLI);
      await k.options.set('gateway_c_access_token', C_TOKEN, CLI);
      await k.options.set('gateway_c_location_id', C_LOCATION, CLI);
      await k.options.set('gateway_c_signature_key', C_KEY, CLI);
      await k.options.set('gateway_c_notification_url', notificationUrl, CLI);
    },
    checkCreation(call, h, expect) {
      expect(call.headers.authorization).toBe(`Bearer ${C_TOKEN}`);
      expect(call.json).toMatchObject({
        idempotency_key: h.reference,
        order: {
          location_id: C_LOCATION,
          reference_id: h.reference,
          line_items: [{ quantity: '1', base_price_money: { amount: h.minor, currency: 'USD' } }],
        },
      });
    },
    headers(body, bad = false) {
      return { 'x-gateway-c-signature': sign(body, bad ? 'wrong' : C_KEY) };
    },
    paid(reference, over) {
      return event('payment.updated', { payment: payment(settle(d.ledger, reference, over)) });
    },
    failed(reference) {
      const h = d.ledger.get(reference)!;
      return event('payment.updated', { payment: { ...payment(h), status: 'FAILED' } });
    },
    refunded(reference, minor) {
      const h = d.ledger.get(reference)!;
      const id = next('rf_');
      h.refunds.push({ id, minor });
      return event('refund.updated', { refund: { id, status: 'COMPLETED', amount_money: money(minor, h.currency), payment_id: h.gid } });
    },
    unknown() {
      return event('payment.updated', {
        payment: { id: next('pay_'), status: 'COMPLETED', amount_money: money(100, 'USD'), reference_id: 'P999999' },
      });
    },
  };
}

/** What the gateway's own SDK says of a delivery to C (the test's signing agrees with the gateway's). */
export function squareAccepts(body: string, signature: string, notificationUrl: string): Promise<boolean> {
  return WebhooksHelper.verifySignature({ requestBody: body, signatureHeader: signature, signatureKey: C_KEY, notificationUrl });
}

export const D_LOGIN = 'd_login_42';
export const D_TRANSACTION_KEY = 'd_txn_key_0123456789';
export const D_SIGNATURE_KEY = 'D1E2A3D4B5E6E7F80123456789ABCDEF';

export async function gatewayD(): Promise<Driver> {
  const fake = await new FakeGateway().start();
  const d = base('D', 'gateway-d');
  let trans = 60000000000;
  const ok = { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] };
  // the real API answers JSON with a byte-order mark; a string body is sent as it is
  const answer = (body: unknown) => ({
    status: 200,
    body: `\uFEFF${JSON.stringify(body)}`,
    headers: { 'content-type': 'application/json' },
  });
  fake.on('POST /xml/v1/request.api', (req) => {
    const [name, r] = Object.entries(req.json as Record<string, any>)[0]!;
    if (r.merchantAuthentication?.name !== D_LOGIN || r.merchantAuthentication?.transactionKey !== D_TRANSACTION_KEY)
      return answer({ messages: { resultCode: 'Error', message: [{ code: 'E00007', text: 'User authentication failed' }] } });
    if (name === 'getHostedPaymentPageRequest') {
      const t = r.transactionRequest;
      hold(d.ledger, t.order.invoiceNumber, Math.round(Number(t.amount) * 100), 'USD', String(++trans));
      return answer({ token: `tok_${trans}`, messages: ok });
    }
    if (name === 'getUnsettledTransactionListRequest') {
      const transactions = [...d.ledger.values()]
        .filter((h) => h.status === 'paid')
        .map((h) => ({
          transId: h.gid,
          invoiceNumber: h.reference,
          transactionStatus: 'capturedPendingSettlement',
          settleAmount: h.minor / 100,
        }));
      return answer({ transactions, messages: ok });
    }
    if (name === 'getTransactionDetailsRequest') {
      const h = byGid(d.ledger, r.transId);
      if (!h) return answer({ messages: { resultCode: 'Error', message: [{ code: 'E00040', text: 'not found' }] } });
      const status = h.status === 'paid' ? 'capturedPendingSettlement' : h.status === 'failed' ? 'declined' : 'authorizedPendingCapture';
      return answer({
        transaction: {
          transId: h.gid,
          transactionStatus: status,
          authAmount: h.minor / 100,
          settleAmount: h.minor / 100,
          order: { invoiceNumber: h.reference },
        },
        messages: ok,
      });
    }
    return answer({ messages: { resultCode: 'Error', message: [{ code: 'E00003', text: 'unknown request' }] } });
  });
  const note = (eventType: string, payload: Record<string, unknown>) =>
    JSON.stringify({
      notificationId: next('d-note-'),
      eventType,
      eventDate: new Date().toISOString(),
      webhookId: 'wh1',
      payload: { entityName: 'transaction', ...payload },
    });
  return {
    ...d,
    fake,
    signed: true,
    byPost: true,
    creation: 'POST /xml/v1/request.api',
    async configure(k) {
      await k.options.set('gateway_d_api_base', fake.url, CLI);
      await k.options.set('gateway_d_api_login_id', D_LOGIN, CLI);
      await k.options.set('gateway_d_transaction_key', D_TRANSACTION_KEY, CLI);
      await k.options.set('gateway_d_signature_key', D_SIGNATURE_KEY, CLI);
    },
    checkCreation(call, h, expect) {
      expect(call.json).toMatchObject({
        getHostedPaymentPageRequest: {
          merchantAuthentication: { name: D_LOGIN, transactionKey: D_TRANSACTION_KEY },
          transactionRequest: {
            transactionType: 'authCaptureTransaction',
            amount: decimal(h.minor),
            order: { invoiceNumber: h.reference },
          },
        },
      });
    },
    headers(body, bad = false) {
      // upper-case hex, as the gateway sends it: compared case-insensitively
      return {
        'X-GATEWAY-D-Signature': `sha512=${createHmac('sha512', bad ? 'wrong' : D_SIGNATURE_KEY)
          .update(body)
          .digest('hex')
          .toUpperCase()}`,
      };
    },
    paid(reference, over) {
      const h = settle(d.ledger, reference, over);
      return note('net.authorize.payment.authcapture.created', {
        responseCode: 1,
        authAmount: h.minor / 100,
        invoiceNumber: reference,
        id: h.gid,
      });
    },
    failed(reference) {
      const h = d.ledger.get(reference)!;
      return note('net.authorize.payment.authcapture.created', {
        responseCode: 2,
        authAmount: h.minor / 100,
        invoiceNumber: reference,
        id: String(++trans),
      });
    },
    refunded(reference, minor) {
      const h = d.ledger.get(reference)!;
      const id = String(++trans);
      h.refunds.push({ id, minor });
      return note('net.authorize.payment.refund.created', { responseCode: 1, authAmount: minor / 100, invoiceNumber: reference, id });
    },
    unknown() {
      return note('net.authorize.payment.authcapture.created', {
        responseCode: 1,
        authAmount: 1,
        invoiceNumber: 'P999999',
        id: String(++trans),
      });
    },
  };
}

export const E_SECRET = 'sk_test_e_0123456789abcdef';

export async function gatewayE(): Promise<Driver> {
  const fake = await new FakeGateway().start();
  const d = base('E', 'gateway-e');
  let id = 4000000;
  fake.on('POST /transaction/initialize', (req) => {
    const h = hold(d.ledger, req.json.reference, Number(req.json.amount), req.json.currency, String(++id));
    return {
      status: 200,
      body: {
        status: true,
        message: 'Authorization URL created',
        data: { authorization_url: `${fake.url}/checkout/${h.gid}`, access_code: `ac_${h.gid}`, reference: h.reference },
      },
    };
  });
  fake.on('GET /transaction/verify/:ref', (req) => {
    const h = d.ledger.get(decodeURIComponent(req.path.split('/').pop()!));
    if (!h) return { status: 400, body: { status: false, message: 'Transaction reference not found' } };
    const status = h.status === 'paid' ? 'success' : h.status === 'failed' ? 'failed' : 'abandoned';
    return {
      status: 200,
      body: { status: true, data: { id: Number(h.gid), reference: h.reference, status, amount: h.minor, currency: h.currency } },
    };
  });
  const event = (name: string, data: Record<string, unknown>) => JSON.stringify({ event: name, data });
  return {
    ...d,
    fake,
    signed: true,
    creation: 'POST /transaction/initialize',
    async configure(k) {
      await k.options.set('gateway_e_api_base', fake.url, CLI);
      await k.options.set('gateway_e_secret_key', E_SECRET, CLI);
    },
    checkCreation(call, h, expect) {
      expect(call.headers.authorization).toBe(`Bearer ${E_SECRET}`);
      expect(call.json).toMatchObject({ reference: h.reference, amount: String(h.minor), currency: 'USD', email: 'ann@example.com' });
    },
    headers(body, bad = false) {
      return {
        'x-gateway-e-signature': createHmac('sha512', bad ? 'wrong' : E_SECRET)
          .update(body)
          .digest('hex'),
      };
    },
    paid(reference, over) {
      const h = settle(d.ledger, reference, over);
      return event('charge.success', { id: Number(h.gid), status: 'success', reference, amount: h.minor, currency: h.currency });
    },
    failed() {
      return null; // the gateway posts no failure event: an abandoned charge is found by reconciliation
    },
    refunded(reference, minor) {
      const h = d.ledger.get(reference)!;
      const rid = String(++id);
      h.refunds.push({ id: rid, minor });
      return event('refund.processed', {
        id: Number(rid),
        status: 'processed',
        transaction_reference: reference,
        amount: minor,
        currency: h.currency,
      });
    },
    unknown() {
      return event('charge.success', { id: ++id, status: 'success', reference: 'P999999', amount: 100, currency: 'USD' });
    },
  };
}

export const DRIVERS = { A: gatewayA, B: gatewayB, C: gatewayC, D: gatewayD, E: gatewayE };

/** The pay route's answer sends the customer to `d`'s hosted page: a 303, or (D) a page posting the token there. */
export async function sentToGateway(res: Response, d: Driver): Promise<boolean> {
  if (!d.byPost) return res.status === 303 && (res.headers.get('location') ?? '').startsWith(`${d.fake.url}/`);
  const page = await res.text();
  return (
    res.status === 200 &&
    page.includes(`<form method="post" action="${d.fake.url}/payment/payment">`) &&
    /<input type="hidden" name="token" value="tok_\d+" \/>/.test(page) &&
    (res.headers.get('content-security-policy') ?? '').includes(d.fake.url)
  );
}

/**
 * An issued invoice of `total` and the pending payment its pay route made at `d`'s gateway (the customer
 * sent on to the hosted page), as a customer paying would leave it.
 */
export async function pendingCheckout(k: Kernel, d: Driver, total = '50.00'): Promise<{ doc: { id: number }; reference: string }> {
  const doc = await k.api.invoices.create(
    {
      items: [{ name: 'Work', quantity: 1, price: total, taxable: false }],
      customer_name: 'Ann Buyer',
      customer_email: 'ann@example.com',
      status: 'available',
    },
    { actor: CLI, source: 'api' },
  );
  const key = await k.api.invoices.accessKey(doc.id);
  const res = await fetch(`${k.url}/billing/invoice/${doc.id}/pay?key=${encodeURIComponent(key)}`, {
    method: 'POST',
    body: new URLSearchParams({ gateway: d.method }),
    redirect: 'manual',
  });
  if (!(await sentToGateway(res, d))) throw new Error(`the pay route did not send the customer to ${d.name} (${res.status})`);
  const [p] = await k.db.query<{ reference: string }>('select reference from billing_payments where invoice_id = $1 order by id desc', [
    doc.id,
  ]);
  return { doc, reference: p!.reference };
}
