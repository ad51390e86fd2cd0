// Gateway A (Stripe-shaped): Checkout Sessions whose PaymentIntent carries our reference in its metadata,
// webhooks signed `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` (docs/gateways.md). Saving a card:
// a session with `setup_future_usage: off_session` for a customer, then off-session PaymentIntents on it.
import { createHmac } from 'node:crypto';
import {
  constantTimeEqual,
  definePlugin,
  isCurrency,
  Money,
  unreadable,
  type CheckoutRequest,
  type CurrencyCode,
  type GatewayContext,
  type GatewayEvent,
  type GatewayPaymentRef,
  type GatewayProvider,
  type SavedMethodReport,
} from '../../core/plugin-api.ts';

/** The gateway's settings: options (declared below as data) and the keys its provider reads. */
interface GatewayASettings {
  gateway_a_secret_key: string;
  gateway_a_signing_secret: string;
  gateway_a_api_base: string;
}
type Setting = keyof GatewayASettings;

declare module 'billing-service' {
  interface OptionMap extends GatewayASettings {}
}

/** How old a signed timestamp may be: replays of a captured delivery are refused after this. */
const TOLERANCE_S = 300;

interface Intent {
  id: string;
  status?: string;
  amount_received?: number;
  currency: string;
  metadata?: Record<string, string>;
  /** Set when the checkout asked to keep the card: then `customer` and `payment_method` are what was saved. */
  setup_future_usage?: string | null;
  customer?: string | null;
  payment_method?: string | null;
}

/**
 * An amount in minor units of an event, in the currency's major unit. An event without a currency or
 * with an amount that is no whole number of minor units cannot be read (400): the gateway retrying
 * it would not make it readable.
 */
function major(minor: unknown, currency: unknown): string {
  const code = typeof currency === 'string' ? currency.toUpperCase() : '';
  if (!isCurrency(code)) throw unreadable('A gateway A amount carries its currency.');
  if (typeof minor !== 'number' || !Number.isSafeInteger(minor) || minor < 0)
    throw unreadable('A gateway A amount is a whole number of minor units.');
  return Money.fromMinor(minor, code as CurrencyCode).toString();
}
const auth = (ctx: GatewayContext<Setting>) => ({ authorization: `Bearer ${ctx.settings.gateway_a_secret_key}` });

/**
 * The payment of ours an intent concerns: the one its metadata names, else — money paid outside the pay
 * route, which `billing_invoice_id` recorded as a new payment with the intent as its transaction id —
 * the one the core finds by that id.
 */
function paymentOf(pi: Pick<Intent, 'id' | 'metadata'>): GatewayPaymentRef {
  const reference = pi.metadata?.billing_payment_reference;
  return reference ? { reference } : { transactionId: pi.id };
}

/**
 * The card a succeeded intent kept for off-session use, as the gateway's API describes it (its brand
 * and last four digits): only an intent of a checkout that asked to save carries one.
 */
async function savedCard(pi: Intent, ctx: GatewayContext<Setting>): Promise<SavedMethodReport | undefined> {
  if (pi.setup_future_usage !== 'off_session' || typeof pi.payment_method !== 'string' || typeof pi.customer !== 'string') return undefined;
  const res = await ctx.api(`/v1/payment_methods/${encodeURIComponent(pi.payment_method)}`, { headers: auth(ctx) });
  const card = res.ok ? ((await res.json()) as { card?: { brand?: string; last4?: string } }).card : undefined;
  const brand = card?.brand ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : 'Card';
  const label = card?.last4 ? `${brand} •••• ${card.last4}` : brand;
  return { token: pi.payment_method, customer: pi.customer, label };
}

/** What a succeeded or failed PaymentIntent means; keyed by the intent, so a webhook and a look-up count once. */
async function fromIntent(pi: Intent, succeeded: boolean, ctx: GatewayContext<Setting>): Promise<GatewayEvent[]> {
  if (typeof pi.id !== 'string' || !pi.id) throw unreadable('A gateway A payment intent carries its id.');
  const reference = pi.metadata?.billing_payment_reference;
  const invoiceId = Number(pi.metadata?.billing_invoice_id);
  const key = `${pi.id}:${succeeded ? 'succeeded' : 'failed'}`;
  if (!succeeded) return [{ key, command: { action: 'fail', payment: paymentOf(pi), reason: 'payment failed at gateway A' } }];
  const money = { amount: major(pi.amount_received ?? 0, pi.currency), currency: pi.currency.toUpperCase(), transactionId: pi.id };
  if (reference) {
    const saved = await savedCard(pi, ctx);
    return [{ key, command: { action: 'complete', payment: { reference }, ...money, ...(saved ? { saved } : {}) } }];
  }
  // paid outside our pay route for one of our invoices: recorded as a new payment
  if (Number.isSafeInteger(invoiceId) && invoiceId > 0) return [{ key, command: { action: 'record', invoiceId, ...money } }];
  return [{ key, command: { action: 'ignore', reason: 'no billing metadata' } }];
}

const provider: GatewayProvider<Setting> = {
  method: 'gateway_a',
  title: 'Card (gateway A)',
  settings: ['gateway_a_secret_key', 'gateway_a_signing_secret', 'gateway_a_api_base'],
  required: ['gateway_a_secret_key', 'gateway_a_signing_secret'],
  apiBase: 'gateway_a_api_base',
  reconcile: { hook: 'billing_check_pending_gateway_a_payments' },

  verify(delivery, ctx) {
    const header = delivery.headers['gateway-a-signature'];
    if (typeof header !== 'string') return false;
    const parts = header.split(',').map((p) => p.trim().split('='));
    const t = parts.find(([k]) => k === 't')?.[1] ?? '';
    const given = parts.filter(([k]) => k === 'v1').map(([, v]) => v ?? '');
    if (!/^\d{1,12}$/.test(t) || !given.length) return false;
    if (Math.abs(delivery.receivedAt.getTime() / 1000 - Number(t)) > TOLERANCE_S) return false;
    const expected = createHmac('sha256', ctx.settings.gateway_a_signing_secret).update(`${t}.`).update(delivery.raw).digest('hex');
    // every v1 is compared, so the answer takes as long whichever matched (secrets being rolled carry two)
    return given.map((v) => constantTimeEqual(v, expected)).includes(true);
  },

  async parse(delivery, ctx) {
    let event: { id?: string; type?: string; data?: { object?: any } };
    try {
      event = JSON.parse(delivery.raw.toString('utf8'));
    } catch {
      throw unreadable();
    }
    const object = event?.data?.object;
    if (typeof event?.id !== 'string' || typeof object !== 'object' || object === null) throw unreadable('Not a gateway A event.');
    switch (event.type) {
      case 'payment_intent.succeeded':
        return fromIntent(object, true, ctx);
      case 'payment_intent.payment_failed':
        return fromIntent(object, false, ctx);
      case 'charge.refunded': {
        const total = major(object.amount_refunded, object.currency);
        // a charge does not inherit its intent's metadata: ask the gateway for the intent when it is not there
        let reference: string | undefined = object.metadata?.billing_payment_reference;
        const intent = typeof object.payment_intent === 'string' && object.payment_intent ? object.payment_intent : null;
        if (!reference && intent) {
          const res = await ctx.api(`/v1/payment_intents/${encodeURIComponent(intent)}`, { headers: auth(ctx) });
          if (res.ok) reference = ((await res.json()) as Intent).metadata?.billing_payment_reference;
        }
        // without a reference it may still be money recorded from billing_invoice_id: the intent names it
        const payment: GatewayPaymentRef | null = reference ? { reference } : intent ? { transactionId: intent } : null;
        if (!payment) return [{ key: event.id, command: { action: 'ignore', reason: 'refund of a charge with no payment intent' } }];
        return [{ key: event.id, command: { action: 'refund_to', payment, refundedTotal: total } }];
      }
      default:
        return [{ key: event.id, command: { action: 'ignore', reason: `event type ${event.type}` } }];
    }
  },

  checkout: (request, ctx) => session(request, ctx, {}),

  // the card is kept for the customer (made now, or the client's earlier one) and may be charged off-session
  saveMethod: (request, ctx) =>
    session(request, ctx, {
      'payment_intent_data[setup_future_usage]': 'off_session',
      ...(request.gatewayCustomer ? { customer: request.gatewayCustomer } : { customer_creation: 'always' }),
    }),

  async chargeSaved({ payment, invoice, saved }, ctx) {
    const form = new URLSearchParams({
      amount: String(payment.minor),
      currency: payment.currency.toLowerCase(),
      payment_method: saved.token,
      off_session: 'true',
      confirm: 'true',
      description: `Invoice ${invoice.number}`,
      'metadata[billing_payment_reference]': payment.reference,
      'metadata[billing_invoice_id]': String(invoice.id),
    });
    if (saved.customer) form.set('customer', saved.customer);
    const res = await ctx.api('/v1/payment_intents', {
      method: 'POST',
      headers: { ...auth(ctx), 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': payment.reference },
      body: form,
    });
    const body = (await res.json().catch(() => ({}))) as { id?: string; error?: { payment_intent?: { id?: string } } };
    // a decline (402) still made an intent: its payment_intent.payment_failed webhook fails our payment
    const id = body.id ?? body.error?.payment_intent?.id;
    if (!id) throw new Error(`gateway A refused the off-session charge (${res.status})`);
    return { transactionId: id };
  },

  async lookup(payment, ctx) {
    if (!payment.transactionId) return [];
    // an off-session charge is an intent of its own (pi_…); a checkout is a session holding one
    const direct = payment.transactionId.startsWith('pi_');
    const path = direct
      ? `/v1/payment_intents/${encodeURIComponent(payment.transactionId)}`
      : `/v1/checkout/sessions/${encodeURIComponent(payment.transactionId)}?expand[]=payment_intent`;
    const res = await ctx.api(path, { headers: auth(ctx) });
    if (!res.ok) return [];
    const read = (await res.json()) as Intent & { payment_intent?: Intent | string | null };
    const pi = direct ? read : read.payment_intent;
    if (!pi || typeof pi !== 'object') return [];
    if (pi.status === 'succeeded') return fromIntent(pi, true, ctx);
    if (pi.status === 'canceled' || (direct && pi.status === 'requires_payment_method')) return fromIntent(pi, false, ctx);
    return [];
  },
};

/** A Checkout Session whose PaymentIntent carries our reference (and, to save the card, `extra`). */
async function session(
  { payment, invoice, returnUrl, cancelUrl }: CheckoutRequest,
  ctx: GatewayContext<Setting>,
  extra: Record<string, string>,
) {
  const metadata = { billing_payment_reference: payment.reference, billing_invoice_id: String(invoice.id) };
  const form = new URLSearchParams({
    mode: 'payment',
    success_url: returnUrl,
    cancel_url: cancelUrl,
    client_reference_id: payment.reference,
    'line_items[0][quantity]': '1',
    'line_items[0][price_data][currency]': payment.currency.toLowerCase(),
    'line_items[0][price_data][unit_amount]': String(payment.minor),
    'line_items[0][price_data][product_data][name]': `Invoice ${invoice.number}`,
    ...extra,
  });
  // the gateway takes a customer or an e-mail, not both
  if (!extra.customer) form.set('customer_email', invoice.customer.email);
  for (const [k, v] of Object.entries(metadata)) {
    form.set(`metadata[${k}]`, v);
    form.set(`payment_intent_data[metadata][${k}]`, v);
  }
  const res = await ctx.api('/v1/checkout/sessions', {
    method: 'POST',
    headers: { ...auth(ctx), 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': payment.reference },
    body: form,
  });
  const body = (await res.json().catch(() => ({}))) as { id?: string; url?: string };
  if (!res.ok || !body.url) throw new Error(`gateway A refused the checkout (${res.status})`);
  return { redirectUrl: body.url, transactionId: body.id ?? null };
}

export default definePlugin({
  name: 'gateway-a',
  version: '1.0.0',
  title: 'Gateway A (cards)',
  compatibility: '>=0.1.0',
  settings: {
    gateway_a_secret_key: { type: 'string', default: '', secret: true, description: 'Secret API key (sk_…): creates checkouts' },
    gateway_a_signing_secret: { type: 'string', default: '', secret: true, description: 'Webhook signing secret (whsec_…)' },
    gateway_a_api_base: { type: 'string', format: 'api-base', default: 'https://api.stripe.com', description: "The gateway's API" },
  },
  gateways: [provider],
});
