// Gateway E (Paystack-shaped): transactions initialised with our reference as theirs, webhooks signed with
// hex HMAC-SHA512(secret key, body) in `x-gateway-e-signature` (docs/gateways.md).
import { createHmac } from 'node:crypto';
import {
  constantTimeEqual,
  definePlugin,
  Money,
  unreadable,
  type CurrencyCode,
  type GatewayContext,
  type GatewayEvent,
  type GatewayProvider,
} from '../../core/plugin-api.ts';

/** The gateway's settings: options (declared below as data) and the keys its provider reads. */
interface GatewayESettings {
  gateway_e_secret_key: string;
  gateway_e_api_base: string;
}
type Setting = keyof GatewayESettings;

declare module 'billing-service' {
  interface OptionMap extends GatewayESettings {}
}

interface Charge {
  id: number | string;
  reference: string;
  status: string;
  amount: number;
  currency: string;
}

const major = (minor: number, currency: string) => Money.fromMinor(minor, currency.toUpperCase() as CurrencyCode).toString();
const auth = (ctx: GatewayContext<Setting>) => ({ authorization: `Bearer ${ctx.settings.gateway_e_secret_key}` });

/** Keyed by the gateway's transaction id: the webhook and the look-up of one charge count once. */
function charge(c: Charge): GatewayEvent[] {
  const key = `charge:${c.id}`;
  const payment = { reference: c.reference };
  if (c.status === 'success')
    return [
      {
        key,
        command: {
          action: 'complete',
          payment,
          amount: major(c.amount, c.currency),
          currency: c.currency.toUpperCase(),
          transactionId: String(c.id),
        },
      },
    ];
  if (c.status === 'failed') return [{ key: `${key}:failed`, command: { action: 'fail', payment, reason: 'failed at gateway E' } }];
  return [];
}

const provider: GatewayProvider<Setting> = {
  method: 'gateway_e',
  title: 'Gateway E',
  settings: ['gateway_e_secret_key', 'gateway_e_api_base'],
  required: ['gateway_e_secret_key'],
  apiBase: 'gateway_e_api_base',
  reconcile: { hook: 'billing_check_pending_gateway_e_payments' },

  verify(delivery, ctx) {
    const given = delivery.headers['x-gateway-e-signature'];
    if (typeof given !== 'string') return false;
    const expected = createHmac('sha512', ctx.settings.gateway_e_secret_key).update(delivery.raw).digest('hex');
    return constantTimeEqual(given.toLowerCase(), expected);
  },

  async parse(delivery) {
    let event: { event?: string; data?: any };
    try {
      event = JSON.parse(delivery.raw.toString('utf8'));
    } catch {
      throw unreadable();
    }
    const d = event?.data;
    if (typeof event?.event !== 'string' || typeof d !== 'object' || d === null || d.id === undefined)
      throw unreadable('Not a gateway E event.');
    switch (event.event) {
      case 'charge.success':
        if (typeof d.reference !== 'string') throw unreadable('A charge carries its reference.');
        return charge({ ...d, status: 'success' });
      case 'refund.processed': {
        // a refund names the transaction it refunds by that transaction's reference, which is ours
        const reference = d.transaction_reference ?? d.transaction?.reference;
        if (typeof reference !== 'string') throw unreadable('A refund names its transaction.');
        return [{ key: `refund:${d.id}`, command: { action: 'refund', payment: { reference }, amount: major(d.amount, d.currency) } }];
      }
      default:
        return [{ key: `${event.event}:${d.id}`, command: { action: 'ignore', reason: `event type ${event.event}` } }];
    }
  },

  async checkout({ payment, invoice, returnUrl }, ctx) {
    const res = await ctx.api('/transaction/initialize', {
      method: 'POST',
      headers: { ...auth(ctx), 'content-type': 'application/json' },
      body: JSON.stringify({
        email: invoice.customer.email,
        amount: String(payment.minor),
        currency: payment.currency,
        reference: payment.reference,
        callback_url: returnUrl,
        metadata: { billing_invoice_id: invoice.id, invoice_number: invoice.number },
      }),
    });
    const body = (await res.json().catch(() => ({}))) as { status?: boolean; data?: { authorization_url?: string } };
    if (!res.ok || !body.status || !body.data?.authorization_url) throw new Error(`gateway E refused the checkout (${res.status})`);
    return { redirectUrl: body.data.authorization_url, transactionId: null };
  },

  async lookup(payment, ctx) {
    const res = await ctx.api(`/transaction/verify/${encodeURIComponent(payment.reference)}`, { headers: auth(ctx) });
    if (!res.ok) return [];
    const body = (await res.json()) as { status?: boolean; data?: Charge };
    return body.status && body.data?.reference === payment.reference ? charge(body.data) : [];
  },
};

export default definePlugin({
  name: 'gateway-e',
  version: '1.0.0',
  title: 'Gateway E',
  compatibility: '>=0.1.0',
  settings: {
    gateway_e_secret_key: { type: 'string', default: '', secret: true, description: 'Secret key (sk_…): API calls and webhook signatures' },
    gateway_e_api_base: { type: 'string', format: 'api-base', default: 'https://api.paystack.co', description: "The gateway's API" },
  },
  gateways: [provider],
});
