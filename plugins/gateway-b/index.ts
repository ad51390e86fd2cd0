// Gateway B (Mollie-shaped): its webhook is only a payment id; what counts is what its API then says
// of that payment, fetched with our key (docs/gateways.md). Nothing in the request itself is trusted.
import {
  definePlugin,
  unreachable,
  unreadable,
  type GatewayContext,
  type GatewayDelivery,
  type GatewayEvent,
  type GatewayProvider,
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

/** Keyed by payment id + status + refunded amount: the same state reported again counts once. */
function events(p: BPayment): GatewayEvent[] {
  const reference = p.metadata?.billing_payment_reference;
  const refunded = p.amountRefunded?.value ?? '0.00';
  const key = `${p.id}:${p.status}:${refunded}`;
  if (!reference) return [{ key, command: { action: 'ignore', reason: 'a payment that is not ours' } }];
  const payment = { reference };
  if (p.status === 'paid') {
    const out: GatewayEvent[] = [
      { key, command: { action: 'complete', payment, amount: p.amount.value, currency: p.amount.currency, transactionId: p.id } },
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
    return p ? events(p) : [{ key: `${id}:unknown`, command: { action: 'ignore', reason: 'unknown at gateway B' } }];
  },

  async checkout({ payment, invoice, returnUrl, cancelUrl }, ctx) {
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
      }),
    });
    const body = (await res.json().catch(() => ({}))) as { id?: string; _links?: { checkout?: { href?: string } } };
    const href = body._links?.checkout?.href;
    if (!res.ok || !href) throw new Error(`gateway B refused the checkout (${res.status})`);
    return { redirectUrl: href, transactionId: body.id ?? null };
  },

  async lookup(payment, ctx) {
    if (!payment.transactionId) return [];
    const p = await fetchPayment(payment.transactionId, ctx);
    return p ? events(p).filter((e) => e.command.action !== 'ignore') : [];
  },
};

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
