// Gateway C (Square-shaped): payment links whose order carries our reference as `reference_id`, webhooks
// signed with base64 HMAC-SHA256(signature key, notification URL + body), and a reconcile job every
// 15 minutes that reads each pending payment's order (docs/gateways.md, interface "Gateway webhooks" rule 1).
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
interface GatewayCSettings {
  gateway_c_access_token: string;
  gateway_c_location_id: string;
  gateway_c_signature_key: string;
  gateway_c_notification_url: string;
  gateway_c_api_base: string;
}
type Setting = keyof GatewayCSettings;

declare module 'billing-service' {
  interface OptionMap extends GatewayCSettings {}
}

interface Amount {
  amount: number;
  currency: string;
}

const VERSION = '2025-01-23';
const major = (m: Amount) => Money.fromMinor(m.amount, m.currency.toUpperCase() as CurrencyCode).toString();
const headers = (ctx: GatewayContext<Setting>) => ({
  authorization: `Bearer ${ctx.settings.gateway_c_access_token}`,
  'square-version': VERSION,
  'content-type': 'application/json',
});

/**
 * Keys name the gateway's object and its state (`payment:<id>:COMPLETED`, `refund:<id>`), not the event:
 * `payment.created` and `payment.updated` of one payment, and the reconcile job, then count once.
 */
function payment(p: { id: string; status: string; amount_money: Amount; reference_id?: string }, reference = p.reference_id) {
  const key = `payment:${p.id}:${p.status}`;
  if (!reference) return { key, command: { action: 'ignore', reason: 'a payment that is not ours' } } as GatewayEvent;
  if (p.status === 'COMPLETED') {
    const { amount_money: m } = p;
    return {
      key,
      command: { action: 'complete', payment: { reference }, amount: major(m), currency: m.currency, transactionId: p.id },
    } as GatewayEvent;
  }
  if (p.status === 'FAILED' || p.status === 'CANCELED')
    return { key, command: { action: 'fail', payment: { reference }, reason: `${p.status} at gateway C` } } as GatewayEvent;
  return { key, command: { action: 'ignore', reason: `payment ${p.status}` } } as GatewayEvent;
}

function refund(r: { id: string; status: string; amount_money: Amount }, reference: string | undefined): GatewayEvent {
  const key = `refund:${r.id}`;
  if (!reference || r.status !== 'COMPLETED')
    return { key: `${key}:${r.status}`, command: { action: 'ignore', reason: `refund ${r.status}` } };
  return { key, command: { action: 'refund', payment: { reference }, amount: major(r.amount_money), reason: 'refunded at gateway C' } };
}

const provider: GatewayProvider<Setting> = {
  method: 'gateway_c',
  title: 'Gateway C',
  settings: [
    'gateway_c_access_token',
    'gateway_c_location_id',
    'gateway_c_signature_key',
    'gateway_c_notification_url',
    'gateway_c_api_base',
  ],
  required: ['gateway_c_access_token', 'gateway_c_location_id', 'gateway_c_signature_key', 'gateway_c_notification_url'],
  apiBase: 'gateway_c_api_base',
  reconcile: { hook: 'billing_check_pending_gateway_c_payments', schedule: '*/15 * * * *' },

  verify(delivery, ctx) {
    const given = delivery.headers['x-gateway-c-signature'];
    if (typeof given !== 'string') return false;
    // the URL signed is the one configured, never one read from the request (a proxy may rewrite it)
    const expected = createHmac('sha256', ctx.settings.gateway_c_signature_key)
      .update(ctx.settings.gateway_c_notification_url)
      .update(delivery.raw)
      .digest('base64');
    return constantTimeEqual(given, expected);
  },

  async parse(delivery, ctx) {
    let event: { event_id?: string; type?: string; data?: { object?: any } };
    try {
      event = JSON.parse(delivery.raw.toString('utf8'));
    } catch {
      throw unreadable();
    }
    const object = event?.data?.object;
    if (typeof event?.event_id !== 'string' || typeof object !== 'object' || object === null) throw unreadable('Not a gateway C event.');
    switch (event.type) {
      case 'payment.created':
      case 'payment.updated':
        if (!object.payment?.id) throw unreadable('A gateway C payment event carries a payment.');
        return [payment(object.payment)];
      case 'refund.created':
      case 'refund.updated': {
        const r = object.refund;
        if (!r?.id || !r.payment_id) throw unreadable('A gateway C refund event carries a refund.');
        // a refund names the gateway's payment, not ours: its reference is on that payment
        const res = await ctx.api(`/v2/payments/${encodeURIComponent(r.payment_id)}`, { headers: headers(ctx) });
        const reference = res.ok ? ((await res.json()) as any).payment?.reference_id : undefined;
        return [refund(r, reference)];
      }
      default:
        return [{ key: event.event_id, command: { action: 'ignore', reason: `event type ${event.type}` } }];
    }
  },

  async checkout({ payment: p, invoice, returnUrl }, ctx) {
    const res = await ctx.api('/v2/online-checkout/payment-links', {
      method: 'POST',
      headers: headers(ctx),
      body: JSON.stringify({
        idempotency_key: p.reference,
        order: {
          location_id: ctx.settings.gateway_c_location_id,
          reference_id: p.reference,
          line_items: [
            { name: `Invoice ${invoice.number}`, quantity: '1', base_price_money: { amount: Number(p.minor), currency: p.currency } },
          ],
        },
        checkout_options: { redirect_url: returnUrl },
        pre_populated_data: { buyer_email: invoice.customer.email },
      }),
    });
    const body = (await res.json().catch(() => ({}))) as { payment_link?: { url?: string; order_id?: string } };
    if (!res.ok || !body.payment_link?.url) throw new Error(`gateway C refused the checkout (${res.status})`);
    // the order is what reconciliation reads: its tenders are the payments, its refunds the refunds
    return { redirectUrl: body.payment_link.url, transactionId: body.payment_link.order_id ?? null };
  },

  async lookup(p, ctx) {
    if (!p.transactionId) return [];
    const res = await ctx.api(`/v2/orders/${encodeURIComponent(p.transactionId)}`, { headers: headers(ctx) });
    if (!res.ok) return [];
    const order = ((await res.json()) as { order?: any }).order;
    if (!order || order.reference_id !== p.reference) return [];
    const events: GatewayEvent[] = [];
    for (const t of order.tenders ?? []) {
      if (t.payment_id && (order.state === 'COMPLETED' || t.card_details?.status === 'CAPTURED'))
        events.push(payment({ id: t.payment_id, status: 'COMPLETED', amount_money: t.amount_money }, p.reference));
    }
    for (const r of order.refunds ?? [])
      events.push(refund({ ...r, status: r.status === 'APPROVED' ? 'COMPLETED' : r.status }, p.reference));
    return events.filter((e) => e.command.action !== 'ignore');
  },
};

export default definePlugin({
  name: 'gateway-c',
  version: '1.0.0',
  title: 'Gateway C',
  compatibility: '>=0.1.0',
  settings: {
    gateway_c_access_token: { type: 'string', default: '', secret: true, description: 'Access token of the application' },
    gateway_c_location_id: { type: 'string', default: '', description: 'The location payments are taken for' },
    gateway_c_signature_key: { type: 'string', default: '', secret: true, description: 'Signature key of the webhook subscription' },
    gateway_c_notification_url: {
      type: 'string',
      anyOf: [{ const: '' }, { format: 'uri' }],
      default: '',
      description: 'The notification URL exactly as registered at the gateway (it is part of the signature)',
    },
    gateway_c_api_base: { type: 'string', format: 'api-base', default: 'https://connect.squareup.com', description: "The gateway's API" },
  },
  gateways: [provider],
});
