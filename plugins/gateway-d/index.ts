// Gateway D (Authorize.Net-shaped): a hosted payment page whose order carries our reference as its
// `invoiceNumber`, webhooks signed `sha512=<hex HMAC-SHA512(signature key, body)>`, and the legacy relay
// response `billing_gateway_d_response`, which is believed only as far as the gateway's API confirms it.
import { createHash, createHmac } from 'node:crypto';
import {
  constantTimeEqual,
  definePlugin,
  unreachable,
  unreadable,
  type GatewayContext,
  type GatewayDelivery,
  type GatewayEvent,
  type GatewayProvider,
} from '../../core/plugin-api.ts';

/** The gateway's settings: options (declared below as data) and the keys its provider reads. */
interface GatewayDSettings {
  gateway_d_api_login_id: string;
  gateway_d_transaction_key: string;
  gateway_d_signature_key: string;
  gateway_d_md5_hash: string;
  gateway_d_api_base: string;
}
type Setting = keyof GatewayDSettings;

declare module 'billing-service' {
  interface OptionMap extends GatewayDSettings {}
}

/** Transaction states that mean the money was captured (reconciliation reads these). */
const CAPTURED = new Set(['capturedPendingSettlement', 'settledSuccessfully']);
const DECLINED = new Set(['declined', 'voided', 'expired', 'generalError', 'failedReview']);

const auth = (ctx: GatewayContext<Setting>) => ({
  name: ctx.settings.gateway_d_api_login_id,
  transactionKey: ctx.settings.gateway_d_transaction_key,
});

/**
 * One call of the gateway's JSON API (every call is a POST to one address; answers may start with a BOM).
 * With `missing`, a "record not found" (E00040) answers null instead of failing (a retry would not help).
 */
async function call(ctx: GatewayContext<Setting>, request: Record<string, unknown>, missing = false): Promise<any> {
  const res = await ctx.api('/xml/v1/request.api', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  const body = JSON.parse((await res.text()).replace(/^\uFEFF/, '') || '{}');
  if (missing && body?.messages?.message?.[0]?.code === 'E00040') return null;
  if (!res.ok || body?.messages?.resultCode !== 'Ok') {
    ctx.log.warn({ request: Object.keys(request)[0], status: res.status, code: body?.messages?.message?.[0]?.code }, 'gateway D refused');
    throw unreachable();
  }
  return body;
}

/** The hosted form of the API's environment: production, sandbox, or (a test's fake) the API itself. */
function hostedPage(base: string): string {
  const url = new URL(base);
  if (url.hostname === 'api.authorize.net' || url.hostname === 'api2.authorize.net') return 'https://accept.authorize.net/payment/payment';
  if (url.hostname === 'apitest.authorize.net') return 'https://test.authorize.net/payment/payment';
  return new URL('/payment/payment', base).toString();
}

/** A captured transaction and a declined one; keyed by the transaction, as the webhook, relay and look-up all name it. */
function transaction(id: string, reference: string, approved: boolean, amount: string): GatewayEvent {
  if (!approved)
    return { key: `transaction:${id}:declined`, command: { action: 'fail', payment: { reference }, reason: 'declined at gateway D' } };
  return { key: `transaction:${id}`, command: { action: 'complete', payment: { reference }, amount, transactionId: id } };
}

function form(delivery: GatewayDelivery): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(delivery.raw.toString('utf8')));
}

/** The relay's transaction id: the one field of its post that is used. */
function transId(delivery: GatewayDelivery): string {
  const id = form(delivery).x_trans_id;
  if (!id || !/^\d{1,20}$/.test(id)) throw unreadable('A relay response carries x_trans_id.');
  return id;
}

/**
 * The legacy relay. Its MD5 (when `gateway_d_md5_hash` is set) covers the login, the transaction id and
 * the amount — neither the response code nor the invoice number — so a captured decline replayed as
 * an approval, or with another invoice number, would still verify. Only the transaction id is taken
 * from the post: its status, amount and invoice number are read from the gateway's API.
 */
const relay = {
  action: 'billing_gateway_d_response',
  verify(delivery: GatewayDelivery, ctx: GatewayContext<Setting>) {
    const hash = ctx.settings.gateway_d_md5_hash;
    if (!hash) return true; // nothing in the post is believed anyway: parse reads the transaction from the API
    const f = form(delivery);
    const expected = createHash('md5')
      .update(`${hash}${ctx.settings.gateway_d_api_login_id}${f.x_trans_id ?? ''}${f.x_amount ?? ''}`)
      .digest('hex')
      .toUpperCase();
    return constantTimeEqual(String(f.x_MD5_Hash ?? '').toUpperCase(), expected);
  },
  // which payment of ours the post claims: the core asks the API nothing for a post that names none
  names(delivery: GatewayDelivery) {
    transId(delivery);
    const reference = form(delivery).x_invoice_num;
    return reference ? { reference } : null;
  },
  async parse(delivery: GatewayDelivery, ctx: GatewayContext<Setting>): Promise<GatewayEvent[]> {
    const id = transId(delivery);
    const found = await call(ctx, { getTransactionDetailsRequest: { merchantAuthentication: auth(ctx), transId: id } }, true);
    const t = found?.transaction;
    if (!t?.order?.invoiceNumber) return [{ key: `transaction:${id}:unknown`, command: { action: 'ignore', reason: 'not ours' } }];
    if (!CAPTURED.has(t.transactionStatus) && !DECLINED.has(t.transactionStatus))
      return [
        {
          key: `transaction:${t.transId}:${t.transactionStatus}`,
          command: { action: 'ignore', reason: `transaction ${t.transactionStatus}` },
        },
      ];
    return [
      transaction(String(t.transId), t.order.invoiceNumber, CAPTURED.has(t.transactionStatus), String(t.settleAmount ?? t.authAmount)),
    ];
  },
};

const provider: GatewayProvider<Setting> = {
  method: 'gateway_d',
  title: 'Gateway D',
  settings: ['gateway_d_api_login_id', 'gateway_d_transaction_key', 'gateway_d_signature_key', 'gateway_d_md5_hash', 'gateway_d_api_base'],
  required: ['gateway_d_api_login_id', 'gateway_d_transaction_key', 'gateway_d_signature_key'],
  apiBase: 'gateway_d_api_base',
  reconcile: { hook: 'billing_check_pending_gateway_d_payments' },
  relays: [relay],

  verify(delivery, ctx) {
    const header = delivery.headers['x-gateway-d-signature'];
    if (typeof header !== 'string' || !header.toLowerCase().startsWith('sha512=')) return false;
    const expected = createHmac('sha512', ctx.settings.gateway_d_signature_key).update(delivery.raw).digest('hex');
    return constantTimeEqual(header.slice(7).toLowerCase(), expected);
  },

  async parse(delivery) {
    let n: { notificationId?: string; eventType?: string; payload?: any };
    try {
      n = JSON.parse(delivery.raw.toString('utf8'));
    } catch {
      throw unreadable();
    }
    const p = n?.payload;
    if (typeof n?.notificationId !== 'string' || typeof p !== 'object' || p === null) throw unreadable('Not a gateway D notification.');
    const id = String(p.id ?? '');
    const reference = typeof p.invoiceNumber === 'string' ? p.invoiceNumber : '';
    const known = reference && id;
    switch (n.eventType) {
      case 'net.authorize.payment.authcapture.created':
      case 'net.authorize.payment.capture.created':
        if (!known) break;
        return [transaction(id, reference, Number(p.responseCode) === 1, String(p.authAmount))];
      case 'net.authorize.payment.refund.created':
        if (!known) break;
        return [{ key: `refund:${id}`, command: { action: 'refund', payment: { reference }, amount: String(p.authAmount) } }];
    }
    return [{ key: n.notificationId, command: { action: 'ignore', reason: `event type ${n.eventType}` } }];
  },

  async checkout({ payment, invoice, returnUrl, cancelUrl }, ctx) {
    const settings = [
      { settingName: 'hostedPaymentReturnOptions', settingValue: JSON.stringify({ showReceipt: false, url: returnUrl, cancelUrl }) },
      { settingName: 'hostedPaymentOrderOptions', settingValue: JSON.stringify({ show: true }) },
    ];
    const body = await call(ctx, {
      getHostedPaymentPageRequest: {
        merchantAuthentication: auth(ctx),
        transactionRequest: {
          transactionType: 'authCaptureTransaction',
          amount: payment.amount,
          order: { invoiceNumber: payment.reference, description: `Invoice ${invoice.number}` },
          customer: { email: invoice.customer.email },
        },
        hostedPaymentSettings: { setting: settings },
      },
    });
    if (typeof body.token !== 'string') throw new Error('gateway D answered no token');
    // the hosted form takes its token by POST only
    return { redirectUrl: hostedPage(ctx.settings.gateway_d_api_base), form: { token: body.token } };
  },

  async lookup(payment, ctx) {
    // the gateway has no search by invoice number; its recent unsettled transactions carry it
    const body = await call(ctx, {
      getUnsettledTransactionListRequest: {
        merchantAuthentication: auth(ctx),
        sorting: { orderBy: 'submitTimeUTC', orderDescending: true },
      },
    });
    const mine = (body.transactions ?? []).filter((t: any) => t.invoiceNumber === payment.reference && CAPTURED.has(t.transactionStatus));
    return mine.map((t: any) => transaction(String(t.transId), payment.reference, true, String(t.settleAmount)));
  },
};

export default definePlugin({
  name: 'gateway-d',
  version: '1.0.0',
  title: 'Gateway D',
  compatibility: '>=0.1.0',
  settings: {
    gateway_d_api_login_id: { type: 'string', default: '', description: 'API Login ID' },
    gateway_d_transaction_key: { type: 'string', default: '', secret: true, description: 'Transaction Key' },
    gateway_d_signature_key: { type: 'string', default: '', secret: true, description: 'Signature Key: webhooks are refused while unset' },
    gateway_d_md5_hash: { type: 'string', default: '', secret: true, description: 'MD5 Hash of the legacy relay response (optional)' },
    gateway_d_api_base: { type: 'string', format: 'api-base', default: 'https://api.authorize.net', description: "The gateway's API" },
  },
  gateways: [provider],
});
