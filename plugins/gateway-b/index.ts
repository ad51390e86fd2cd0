// Gateway B (Mollie-shaped): its webhook is only a payment id; what counts is what its API then says
// of that payment, fetched with our key (docs/gateways.md). Nothing in the request itself is trusted.
// Saving: a first payment (`sequenceType: first`) for a customer makes a mandate; later payments are
// `sequenceType: recurring` on the customer's mandate, with no customer present.
import {
  definePlugin,
  unreachable,
  unreadable,
  type GatewayContext,
  type GatewayDelivery,
  type GatewayEvent,
  type CheckoutRequest,
  type GatewayProvider,
  type SavedMethodReport,
} from '../../core/plugin-api.ts';

/** The gateway's settings: options (declared below as data) and the keys its provider reads. */
interface GatewayBSettings {
  gateway_b_api_key: string;
  gateway_b_api_base: string;
}
type Setting = keyof GatewayBSettings;

declare module 'billing-service' {
  interface OptionMap extends GatewayBSettings {}
}

interface BPayment {
  id: string;
  status: string;
  amount: { value: string; currency: string };
  amountRefunded?: { value: string; currency: string };
  metadata?: { billing_payment_reference?: string } | null;
  sequenceType?: string;
  customerId?: string | null;
  mandateId?: string | null;
}

interface BMandate {
  id: string;
  status: string;
  method: string;
  details?: { consumerAccount?: string; cardLabel?: string; cardNumber?: string };
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const FAILED = new Set(['failed', 'canceled', 'expired']);
const auth = (ctx: GatewayContext<Setting>) => ({ authorization: `Bearer ${ctx.settings.gateway_b_api_key}` });

/** The gateway's payment, read from its API with our key; null when it does not know the id. */
async function fetchPayment(id: string, ctx: GatewayContext<Setting>): Promise<BPayment | null> {
  const res = await ctx.api(`/v2/payments/${encodeURIComponent(id)}`, { headers: auth(ctx) });
  if (res.status === 404) return null;
  // our key refused, or another answer we cannot use: worth a retry once fixed
  if (!res.ok) throw unreachable();
  return (await res.json()) as BPayment;
}

/** The gateway's payment id a notification names (form or JSON: `payment_id`, or `id`). */
function namedId(delivery: GatewayDelivery): string {
  const text = delivery.raw.toString('utf8');
  let fields: Record<string, unknown>;
  try {
    fields = text.trimStart().startsWith('{') ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
  } catch {
    throw unreadable();
  }
  const id = fields?.payment_id ?? fields?.id;
  if (typeof id !== 'string' || !ID.test(id)) throw unreadable('A gateway B notification carries a payment_id.');
  return id;
}

/** What a person sees of a mandate: "SEPA mandate NL•• 4300", "Visa •••• 4242". */
function mandateLabel(m: BMandate): string {
  const d = m.details ?? {};
  if (m.method === 'creditcard') return `${d.cardLabel ?? 'Card'} •••• ${String(d.cardNumber ?? '').slice(-4)}`.trim();
  const iban = String(d.consumerAccount ?? '').replace(/\s+/g, '');
  return iban ? `SEPA mandate ${iban.slice(0, 2)}•• ${iban.slice(-4)}` : 'SEPA mandate';
}

/** The mandate a paid first payment made, as the gateway's API describes it; none while it is not valid. */
async function savedMandate(p: BPayment, ctx: GatewayContext<Setting>): Promise<SavedMethodReport | undefined> {
  if (p.sequenceType !== 'first' || p.status !== 'paid' || !p.customerId || !p.mandateId) return undefined;
  const res = await ctx.api(`/v2/customers/${encodeURIComponent(p.customerId)}/mandates/${encodeURIComponent(p.mandateId)}`, {
    headers: auth(ctx),
  });
  if (!res.ok) throw unreachable();
  const m = (await res.json()) as BMandate;
  if (m.status !== 'valid' && m.status !== 'pending') return undefined;
  return { token: m.id, customer: p.customerId, label: mandateLabel(m) };
}

/** Keyed by payment id + status + refunded amount: the same state reported again counts once. */
async function events(p: BPayment, ctx: GatewayContext<Setting>): Promise<GatewayEvent[]> {
  const reference = p.metadata?.billing_payment_reference;
  const refunded = p.amountRefunded?.value ?? '0.00';
  const key = `${p.id}:${p.status}:${refunded}`;
  if (!reference) return [{ key, command: { action: 'ignore', reason: 'a payment that is not ours' } }];
  const payment = { reference };
  if (p.status === 'paid') {
    const saved = await savedMandate(p, ctx);
    const out: GatewayEvent[] = [
      {
        key,
        command: {
          action: 'complete',
          payment,
          amount: p.amount.value,
          currency: p.amount.currency,
          transactionId: p.id,
          ...(saved ? { saved } : {}),
        },
      },
    ];
    if (Number(refunded) > 0) out.push({ key: `${key}:refund`, command: { action: 'refund_to', payment, refundedTotal: refunded } });
    return out;
  }
  if (FAILED.has(p.status)) return [{ key, command: { action: 'fail', payment, reason: `${p.status} at gateway B` } }];
  return [{ key, command: { action: 'ignore', reason: `status ${p.status}` } }];
}

const provider: GatewayProvider<Setting> = {
  method: 'gateway_b',
  title: 'Gateway B',
  settings: ['gateway_b_api_key', 'gateway_b_api_base'],
  required: ['gateway_b_api_key'],
  apiBase: 'gateway_b_api_base',
  reconcile: { hook: 'billing_check_pending_gateway_b_payments' },

  // no signature: the delivery only names a payment, which parse fetches from the gateway itself
  verify: () => true,
  // the core asks the gateway nothing unless this id is one of our payments' (kept as transaction_id at checkout)
  names: (delivery) => ({ transactionId: namedId(delivery) }),

  async parse(delivery, ctx) {
    const id = namedId(delivery);
    const p = await fetchPayment(id, ctx);
    return p ? events(p, ctx) : [{ key: `${id}:unknown`, command: { action: 'ignore', reason: 'unknown at gateway B' } }];
  },

  checkout: (request, ctx) => createPayment(request, ctx, {}),

  // a first payment for a customer (the client's earlier one, or one made now): paid, it makes a mandate
  async saveMethod(request, ctx) {
    let customerId = request.gatewayCustomer;
    if (!customerId) {
      const res = await ctx.api('/v2/customers', {
        method: 'POST',
        headers: { ...auth(ctx), 'content-type': 'application/json', 'idempotency-key': `customer-${request.payment.reference}` },
        body: JSON.stringify({ name: request.invoice.customer.name, email: request.invoice.customer.email }),
      });
      customerId = ((await res.json().catch(() => ({}))) as { id?: string }).id ?? null;
      if (!res.ok || !customerId) throw new Error(`gateway B refused the customer (${res.status})`);
    }
    return createPayment(request, ctx, { sequenceType: 'first', customerId });
  },

  async chargeSaved({ payment, invoice, saved }, ctx) {
    const res = await ctx.api('/v2/payments', {
      method: 'POST',
      headers: { ...auth(ctx), 'content-type': 'application/json', 'idempotency-key': payment.reference },
      body: JSON.stringify({
        amount: { currency: payment.currency, value: payment.amount },
        description: `Invoice ${invoice.number}`,
        sequenceType: 'recurring',
        customerId: saved.customer,
        mandateId: saved.token,
        webhookUrl: ctx.url('/wp-admin/admin-ajax.php?action=billing_gateway_b_webhook'),
        metadata: { billing_payment_reference: payment.reference },
      }),
    });
    const body = (await res.json().catch(() => ({}))) as { id?: string };
    if (!res.ok || !body.id) throw new Error(`gateway B refused the recurring payment (${res.status})`);
    return { transactionId: body.id };
  },

  async lookup(payment, ctx) {
    if (!payment.transactionId) return [];
    const p = await fetchPayment(payment.transactionId, ctx);
    return p ? (await events(p, ctx)).filter((e) => e.command.action !== 'ignore') : [];
  },
};

/** A payment at the gateway carrying our reference, and the hosted page to send the customer to. */
async function createPayment(
  { payment, invoice, returnUrl, cancelUrl }: CheckoutRequest,
  ctx: GatewayContext<Setting>,
  extra: Record<string, string>,
) {
  const res = await ctx.api('/v2/payments', {
    method: 'POST',
    headers: { ...auth(ctx), 'content-type': 'application/json', 'idempotency-key': payment.reference },
    body: JSON.stringify({
      amount: { currency: payment.currency, value: payment.amount },
      description: `Invoice ${invoice.number}`,
      redirectUrl: returnUrl,
      cancelUrl,
      webhookUrl: ctx.url('/wp-admin/admin-ajax.php?action=billing_gateway_b_webhook'),
      metadata: { billing_payment_reference: payment.reference },
      ...extra,
    }),
  });
  const body = (await res.json().catch(() => ({}))) as { id?: string; _links?: { checkout?: { href?: string } } };
  const href = body._links?.checkout?.href;
  if (!res.ok || !href) throw new Error(`gateway B refused the checkout (${res.status})`);
  return { redirectUrl: href, transactionId: body.id ?? null };
}

export default definePlugin({
  name: 'gateway-b',
  version: '1.0.0',
  title: 'Gateway B',
  compatibility: '>=0.1.0',
  settings: {
    gateway_b_api_key: { type: 'string', default: '', secret: true, description: 'API key (live_… or test_…)' },
    gateway_b_api_base: { type: 'string', format: 'api-base', default: 'https://api.mollie.com', description: "The gateway's API" },
  },
  gateways: [provider],
});
