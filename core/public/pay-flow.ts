import type { Request, Response } from 'express';
import { isBillingError } from '../errors.ts';
import { shippedTranslator, type Translator } from '../i18n/translator.ts';
import { html } from '../http/html.ts';
import { isOpenInvoiceStatus } from '../documents/statuses.ts';
import { amountDueNowOf } from '../documents/representation.ts';
import { siteDate } from '../time/site-time.ts';
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
  // refusals before the invoice is known speak the site's language; the rest, the invoice's
  let tr: Translator = shippedTranslator();
  try {
    tr = await d.translations.translator();
    const doc = await unlock(d.db, 'invoice', String(req.params.id), req.query.key);
    if (!doc) return notFound(res, tr);
    tr = await d.translations.translator(doc.locale);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const method = typeof body.gateway === 'string' ? body.gateway : '';
    const back = `/billing/invoice/${doc.id}?key=${encodeURIComponent(String(req.query.key))}`;
    const currency = doc.currency as CurrencyCode;
    const due = Money.parse(doc.totals.due, currency);
    if (!isOpenInvoiceStatus(doc.status) || !due.isPositive()) {
      return message(res, 409, tr.t('pay.nothing_to_pay'), tr.t('pay.nothing_left', { number: doc.number }), back, tr);
    }
    // with instalments, what is due now (the instalments due so far, or the next); any amount up to the
    // whole rest with partial payments
    let amount = Money.parse(amountDueNowOf(doc, siteDate(new Date(), await d.options.get('timezone'))), currency);
    const asked = typeof body.amount === 'string' ? body.amount.trim() : '';
    if (asked && (await d.options.get('allow_partial_payments'))) {
      try {
        amount = Money.parse(asked, currency);
      } catch {
        return message(
          res,
          400,
          tr.t('pay.amount_not_understood'),
          tr.t('pay.enter_amount_such_as', { example: due.toString() }),
          back,
          tr,
        );
      }
      if (!amount.isPositive() || amount.greaterThan(due)) {
        return message(
          res,
          400,
          tr.t('pay.amount_not_accepted'),
          tr.t('pay.amount_range', { due: tr.money(due.toString(), currency) }),
          back,
          tr,
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
    if (form) return continueByPost(res, redirectUrl, form, await d.gateways.origins(), tr);
    res.redirect(303, redirectUrl);
  } catch (err) {
    if (isBillingError(err) && err.code === 'billing_gateway_not_configured') {
      return message(res, 400, tr.t('pay.method_unavailable'), tr.t('pay.method_unavailable_text'), null, tr);
    }
    // the invoice was paid (or its amount due lowered) by someone else while this request waited for its lock
    if (isBillingError(err) && (err.code === 'billing_rest_invalid_state' || err.code === 'billing_rest_amount_exceeds')) {
      const back = `/billing/invoice/${String(req.params.id)}?key=${encodeURIComponent(String(req.query.key))}`;
      return message(res, 409, tr.t('pay.nothing_to_pay'), tr.t('pay.amount_changed'), back, tr);
    }
    if (isBillingError(err) && err.code === 'billing_gateway_unreachable') {
      return message(res, 503, tr.t('pay.service_unavailable'), tr.t('pay.service_unavailable_text'), null, tr);
    }
    d.log.error({ err }, 'pay route failed');
    if (!res.headersSent) message(res, 500, tr.t('page.error'), tr.t('pay.nothing_charged'), null, tr);
  }
}

/** Where a gateway sends the customer back: the payment's state, opened by a signed link that carries no access key. */
function returnLink(d: PublicPagesDeps, reference: string, cancelled: boolean): string {
  const sig = d.links.signLink(RETURN_LINK, reference);
  return `${d.config.baseUrl}/billing/payment/${encodeURIComponent(reference)}/return?sig=${sig}${cancelled ? '&cancelled=1' : ''}`;
}

/** `GET /billing/payment/{reference}/return?sig=…`: where the customer lands after the gateway's page. */
export async function paymentReturn(d: PublicPagesDeps, req: Request, res: Response): Promise<void> {
  let tr: Translator = shippedTranslator();
  try {
    tr = await d.translations.translator();
    const reference = String(req.params.reference);
    if (!d.links.checkLink(RETURN_LINK, reference, req.query.sig)) return notFound(res, tr);
    const rows = await d.db.query(
      `select ${PAYMENT_COLUMNS}, (select i.locale from billing_documents i where i.id = billing_payments.invoice_id) as invoice_locale
         from billing_payments where reference = $1`,
      [reference],
    );
    if (!rows.length) return notFound(res, tr);
    const payment = paymentFromRow(rows[0]!);
    tr = await d.translations.translator(rows[0]!.invoice_locale);
    const values = { amount: tr.money(payment.amount, payment.currency), number: payment.invoiceNumber, reference: payment.reference };
    const text =
      payment.status === 'completed' || payment.status === 'refunded'
        ? tr.t('pay.received', values)
        : payment.status === 'pending'
          ? tr.t('pay.pending', values)
          : tr.t('pay.failed', values);
    message(res, 200, tr.t(payment.status === 'completed' ? 'pay.thank_you' : 'pay.status'), text, null, tr);
  } catch (err) {
    d.log.error({ err }, 'payment return page failed');
    if (!res.headersSent) message(res, 500, tr.t('page.error'), tr.t('page.error_text'), null, tr);
  }
}

/** A hosted page that takes its fields by POST (a 303 cannot carry them): one button sends them there. */
function continueByPost(res: Response, url: string, fields: Readonly<Record<string, string>>, origins: string[], tr: Translator): void {
  res
    .status(200)
    .set({ ...PUBLIC_HEADERS, 'Content-Security-Policy': payingPolicy(origins) })
    .end(
      publicPage(
        tr.t('pay.continue'),
        html`<h1>${tr.t('pay.continue')}</h1><p>${tr.t('pay.continue_text')}</p>
          <form method="post" action="${url}">
            ${Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}" />`)}
            <button type="submit">${tr.t('pay.continue')}</button>
          </form>`,
        tr.locale,
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
