import type { Request, Response } from 'express';
import { isBillingError } from '../errors.ts';
import { formatMoney } from '../display/format.ts';
import { html } from '../http/html.ts';
import { isOpenInvoiceStatus } from '../documents/statuses.ts';
import { Money, type CurrencyCode } from '../money/index.ts';
import { PAYMENT_COLUMNS, paymentFromRow } from '../payments/payment.ts';
import { PUBLIC_HEADERS, publicPage } from './public-layout.ts';
import type { PublicPagesDeps } from './types.ts';
import { unlock } from './unlock.ts';
import { message, notFound } from './public-templates.ts';

const RETURN_LINK = 'payment-return';

/**
 * `POST /billing/invoice/{id}/pay?key=…` (docs/gateways.md): form field `gateway`, and `amount` when
 * `allow_partial_payments` is on. The gateway runtime makes the pending payment and the gateway-side
 * object; the customer is sent to the gateway's page with a 303. Every refusal is a page in words.
 */
export async function pay(d: PublicPagesDeps, req: Request, res: Response): Promise<void> {
  try {
    const doc = await unlock(d.db, 'invoice', String(req.params.id), req.query.key);
    if (!doc) return notFound(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const method = typeof body.gateway === 'string' ? body.gateway : '';
    const back = `/billing/invoice/${doc.id}?key=${encodeURIComponent(String(req.query.key))}`;
    const currency = doc.currency as CurrencyCode;
    const due = Money.parse(doc.totals.due, currency);
    if (!isOpenInvoiceStatus(doc.status) || !due.isPositive()) {
      return message(res, 409, 'Nothing to pay', `Invoice ${doc.number} has nothing left to pay.`, back);
    }
    let amount = due;
    const asked = typeof body.amount === 'string' ? body.amount.trim() : '';
    if (asked && (await d.options.get('allow_partial_payments'))) {
      try {
        amount = Money.parse(asked, currency);
      } catch {
        return message(res, 400, 'Amount not understood', `Please enter an amount such as ${due.toString()}.`, back);
      }
      if (!amount.isPositive() || amount.greaterThan(due)) {
        return message(
          res,
          400,
          'Amount not accepted',
          `Please enter an amount above zero and at most ${formatMoney(due.toString(), currency)}.`,
          back,
        );
      }
    }
    // the box, or an autopay invoice (which always saves): what is saved comes later, from the gateway's verified answer
    const saveMethod = body.save_method === '1' || (await d.hooks.applyFilters('billing_invoice_autopay', false, doc));
    const { redirectUrl, form } = await d.gateways.checkout(
      doc,
      method,
      amount,
      { returnUrl: (reference) => returnLink(d, reference, false), cancelUrl: (reference) => returnLink(d, reference, true) },
      { saveMethod },
    );
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    if (form) return continueByPost(res, redirectUrl, form, await d.gateways.origins());
    res.redirect(303, redirectUrl);
  } catch (err) {
    if (isBillingError(err) && err.code === 'billing_gateway_not_configured') {
      return message(res, 400, 'Payment method not available', 'This payment method is not available. Please choose another one.', null);
    }
    // the invoice was paid (or its amount due lowered) by someone else while this request waited for its lock
    if (isBillingError(err) && (err.code === 'billing_rest_invalid_state' || err.code === 'billing_rest_amount_exceeds')) {
      const back = `/billing/invoice/${String(req.params.id)}?key=${encodeURIComponent(String(req.query.key))}`;
      return message(res, 409, 'Nothing to pay', 'The amount due of this invoice has just changed. Please look at it again.', back);
    }
    if (isBillingError(err) && err.code === 'billing_gateway_unreachable') {
      return message(
        res,
        503,
        'Payment service unavailable',
        'The payment service cannot be reached right now. Nothing was charged. Please try again in a few minutes.',
        null,
      );
    }
    d.log.error({ err }, 'pay route failed');
    if (!res.headersSent) message(res, 500, 'Something went wrong', 'Nothing was charged. Please try again later.', null);
  }
}

/** Where a gateway sends the customer back: the payment's state, opened by a signed link that carries no access key. */
function returnLink(d: PublicPagesDeps, reference: string, cancelled: boolean): string {
  const sig = d.links.signLink(RETURN_LINK, reference);
  return `${d.config.baseUrl}/billing/payment/${encodeURIComponent(reference)}/return?sig=${sig}${cancelled ? '&cancelled=1' : ''}`;
}

/** `GET /billing/payment/{reference}/return?sig=…`: where the customer lands after the gateway's page. */
export async function paymentReturn(d: PublicPagesDeps, req: Request, res: Response): Promise<void> {
  try {
    const reference = String(req.params.reference);
    if (!d.links.checkLink(RETURN_LINK, reference, req.query.sig)) return notFound(res);
    const rows = await d.db.query(`select ${PAYMENT_COLUMNS} from billing_payments where reference = $1`, [reference]);
    if (!rows.length) return notFound(res);
    const payment = paymentFromRow(rows[0]!);
    const amount = formatMoney(payment.amount, payment.currency);
    const what = `Your payment of ${amount} for invoice ${payment.invoiceNumber} (reference ${payment.reference})`;
    const text =
      payment.status === 'completed' || payment.status === 'refunded'
        ? `${what} has been received. Thank you.`
        : payment.status === 'pending'
          ? `${what} is being confirmed by the payment service. You will receive an e-mail once it is.`
          : `${what} did not go through. Nothing was charged; you can try again from the invoice.`;
    message(res, 200, payment.status === 'completed' ? 'Thank you' : 'Payment status', text, null);
  } catch (err) {
    d.log.error({ err }, 'payment return page failed');
    if (!res.headersSent) message(res, 500, 'Something went wrong', 'Please try again later.', null);
  }
}

/** A hosted page that takes its fields by POST (a 303 cannot carry them): one button sends them there. */
function continueByPost(res: Response, url: string, fields: Readonly<Record<string, string>>, origins: string[]): void {
  res
    .status(200)
    .set({ ...PUBLIC_HEADERS, 'Content-Security-Policy': payingPolicy(origins) })
    .end(
      publicPage(
        'Continue to payment',
        html`<h1>Continue to payment</h1><p>You will enter your payment details on the payment service's page.</p>
          <form method="post" action="${url}">
            ${Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`)}
            <button type="submit">Continue to payment</button>
          </form>`,
      ),
    );
}

/**
 * The invoice page's policy while it has pay buttons: its forms post here and are answered with a 303
 * to the gateway's page, which browsers hold to `form-action` too — so that allows https pages and the
 * gateways' configured API origins (a gateway on plain http in a test or on a private network).
 */
export function payingPolicy(origins: string[]): string {
  return PUBLIC_HEADERS['Content-Security-Policy']!.replace("form-action 'self'", `form-action 'self' https: ${origins.join(' ')}`.trim());
}
