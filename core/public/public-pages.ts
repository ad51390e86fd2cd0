import express, { Router, type Request, type Response } from 'express';
import type { Config } from '../config.ts';
import { isBillingError } from '../errors.ts';
import { BODY_LIMIT } from '../http/app.ts';
import type { Identity } from '../identity/identity.ts';
import { Money, type CurrencyCode } from '../money/index.ts';
import type { GatewayRuntime } from '../payments/gateways/gateway-runtime.ts';
import { PAYMENT_COLUMNS, paymentFromRow } from '../payments/payment.ts';
import { html, type Html } from '../http/html.ts';
import type { Database } from '../db/database.ts';
import { documentFromRow, DOCUMENT_COLUMNS, type BillingDocument } from '../documents/document.ts';
import { documentPdf } from '../documents/document-pdf.ts';
import { pdfFilename } from '../pdf/file-name.ts';
import type { QuoteService } from '../documents/quote-service.ts';
import { isOverdue, quoteStatus } from '../documents/representation.ts';
import { siteDate } from '../time/site-time.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { Authenticator } from '../http/auth.ts';
import { safeEqual } from '../identity/safe-equal.ts';
import type { Logger } from '../log.ts';
import type { OptionsStore } from '../options/options.ts';
import { formatMoney } from '../display/format.ts';
import type { PdfRenderer } from '../pdf/index.ts';
import { breakdownLabel, countryName, taxStatements } from '../tax/index.ts';
import { PUBLIC_HEADERS, PUBLIC_SCRIPT, PUBLIC_SCRIPT_PATH, publicPage } from './public-layout.ts';

export interface PublicPagesDeps {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
  config: Config;
  pdf: PdfRenderer;
  quotes: QuoteService;
  auth: Authenticator;
  /** Signs the links a gateway sends the customer back to (they carry no access key). */
  links: Pick<Identity, 'signLink' | 'checkLink'>;
  gateways: GatewayRuntime;
  log: Logger;
}

/** Issued invoices that still take money. */
const PAYABLE = ['available', 'partial', 'unpaid'];
const RETURN_LINK = 'payment-return';

type Kind = 'invoice' | 'quote';

/**
 * The customer's pages (contract §5): a document opened with its access key, its PDF, and for quotes
 * the Accept / Decline forms. A wrong or missing key gets exactly the page a missing document gets.
 */
export function publicRouter(d: PublicPagesDeps): Router {
  const router = Router();

  router.get(PUBLIC_SCRIPT_PATH, (_req, res) => {
    res.set({
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(PUBLIC_SCRIPT);
  });

  for (const kind of ['invoice', 'quote'] as const) {
    router.get(`/billing/${kind}/:id`, (req, res) => serve(d, kind, req, res, false));
    router.get(`/billing/${kind}/:id/pdf`, (req, res) => serve(d, kind, req, res, true));
  }
  router.post('/billing/invoice/:id/pay', express.urlencoded({ limit: BODY_LIMIT, extended: false }), (req, res) => pay(d, req, res));
  router.get('/billing/payment/:reference/return', (req, res) => paymentReturn(d, req, res));
  return router;
}

/**
 * `POST /billing/invoice/{id}/pay?key=…` (contract §7): form field `gateway`, and `amount` when
 * `allow_partial_payments` is on. The gateway runtime makes the pending payment and the gateway-side
 * object; the customer is sent to the gateway's page with a 303. Every refusal is a page in words.
 */
async function pay(d: PublicPagesDeps, req: Request, res: Response): Promise<void> {
  try {
    const doc = await unlock(d.db, 'invoice', String(req.params.id), req.query.key);
    if (!doc) return notFound(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const method = typeof body.gateway === 'string' ? body.gateway : '';
    const back = `/billing/invoice/${doc.id}?key=${encodeURIComponent(String(req.query.key))}`;
    const currency = doc.currency as CurrencyCode;
    const due = Money.parse(doc.totals.due, currency);
    if (!PAYABLE.includes(doc.status) || !due.isPositive()) {
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
    const { redirectUrl, form } = await d.gateways.checkout(doc, method, amount, {
      returnUrl: (reference) => returnLink(d, reference, false),
      cancelUrl: (reference) => returnLink(d, reference, true),
    });
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

async function paymentReturn(d: PublicPagesDeps, req: Request, res: Response): Promise<void> {
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

function message(res: Response, status: number, title: string, text: string, back: string | null): void {
  res
    .status(status)
    .set(PUBLIC_HEADERS)
    .end(
      publicPage(
        title,
        html`<h1>${title}</h1><p>${text}</p>${back ? html`<p><a class="button secondary" href="${back}">Back to the invoice</a></p>` : ''}`,
      ),
    );
}

async function serve(d: PublicPagesDeps, kind: Kind, req: Request, res: Response, asPdf: boolean): Promise<void> {
  try {
    const doc = await unlock(d.db, kind, String(req.params.id), req.query.key);
    if (!doc) return notFound(res);
    if (asPdf) {
      const pdf = await documentPdf(doc, d);
      res.set({
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
        'Content-Type': 'application/pdf',
        ETag: pdf.etag,
        'Content-Disposition': `inline; filename="${pdfFilename(doc)}"`,
      });
      res.end(pdf.bytes);
      return;
    }
    const viewed = kind === 'invoice' ? await countView(d, doc, req) : doc;
    const key = String(req.query.key);
    const o = await d.options.getMany([
      'company_name',
      'company_address',
      'company_email',
      'company_logo_url',
      'timezone',
      'allow_partial_payments',
    ]);
    const today = siteDate(new Date(), o.timezone);
    const token = kind === 'quote' && quoteStatus(doc, today) === 'available' ? await d.quotes.mintToken(doc.id) : null;
    const payable = kind === 'invoice' && PAYABLE.includes(viewed.status) && Number(viewed.totals.due) > 0;
    const gateways = payable ? await d.gateways.available() : [];
    const policy = gateways.length ? { 'Content-Security-Policy': payingPolicy(await d.gateways.origins()) } : {};
    // what active plugins add to the page (the e-signature addon's "Signed by" and its pad), inside the same policy
    const where = { kind, today };
    const blocks = await d.hooks.applyFilters('billing_public_document_blocks', [], viewed, where);
    const acceptFields = token ? await d.hooks.applyFilters('billing_public_accept_fields', [], viewed, where) : [];
    res
      .status(200)
      .set({ ...PUBLIC_HEADERS, ...policy })
      .end(publicPage(`${label(kind)} ${doc.number}`, page(viewed, { ...o, today, key, token, gateways, blocks, acceptFields })));
  } catch (err) {
    d.log.error({ err, kind }, 'public page failed');
    if (!res.headersSent)
      res
        .status(500)
        .set(PUBLIC_HEADERS)
        .end(publicPage('Error', html`<h1>Something went wrong</h1><p>Please try again later.</p>`));
  }
}

/** The document when `key` is its access key (compared in constant time); null in every other case. */
async function unlock(db: Database, kind: Kind, id: string, key: unknown): Promise<BillingDocument | null> {
  if (!/^\d{1,15}$/.test(id) || typeof key !== 'string' || key.length < 16 || key.length > 200) return null;
  const rows = await db.query(
    `select ${DOCUMENT_COLUMNS}, access_key from billing_documents where id = $1 and kind = $2 and trashed_at is null`,
    [Number(id), kind],
  );
  if (!rows.length || !safeEqual(rows[0]!.access_key, key)) return null;
  return documentFromRow(rows[0]!);
}

/** Counts a customer's view (staff who are signed in do not count); the first one fires `billing_invoice_viewed`. */
async function countView(d: PublicPagesDeps, doc: BillingDocument, req: Request): Promise<BillingDocument> {
  const { user } = await d.auth.ajaxUser(req, undefined);
  if (user && (await d.auth.can(user, 'bill_view_invoices'))) return doc;
  return d.db.transaction(async (tx) => {
    const rows = await tx.query(
      `update billing_documents set viewed_count = viewed_count + 1, viewed_first = coalesce(viewed_first, now()), viewed_last = now()
        where id = $1 returning ${DOCUMENT_COLUMNS}`,
      [doc.id],
    );
    const viewed = documentFromRow(rows[0]!);
    if (viewed.viewed.count === 1) await d.hooks.fire(tx, 'billing_invoice_viewed', doc.id, viewed);
    return viewed;
  });
}

function notFound(res: Response): void {
  res
    .status(404)
    .set(PUBLIC_HEADERS)
    .end(publicPage('Not found', html`<h1>Not found</h1><p class="muted">This document does not exist, or the link is incomplete.</p>`));
}

const label = (kind: Kind) => (kind === 'invoice' ? 'Invoice' : 'Quote');

interface PageContext {
  company_name: string;
  company_logo_url: string;
  company_address: string;
  company_email: string;
  today: string;
  key: string;
  token: string | null;
  allow_partial_payments: boolean;
  /** The pay buttons: active, configured gateways (none when the invoice takes no payment). */
  gateways: Array<{ method: string; title: string }>;
  /** From `billing_public_document_blocks`: shown after the notes and terms. */
  blocks: Html[];
  /** From `billing_public_accept_fields`: inside the Accept form, before its button. */
  acceptFields: Html[];
}

/**
 * The invoice page's policy while it has pay buttons: its forms post here and are answered with a 303
 * to the gateway's page, which browsers hold to `form-action` too — so that allows https pages and the
 * gateways' configured API origins (a gateway on plain http in a test or on a private network).
 */
function payingPolicy(origins: string[]): string {
  return PUBLIC_HEADERS['Content-Security-Policy']!.replace("form-action 'self'", `form-action 'self' https: ${origins.join(' ')}`.trim());
}

function page(doc: BillingDocument, c: PageContext): Html {
  const kind = doc.kind as Kind;
  const money = (amount: string) => formatMoney(amount, doc.currency);
  const status = kind === 'quote' ? quoteStatus(doc, c.today) : isOverdue(doc, c.today) ? 'overdue' : doc.status;
  const base = `/billing/${kind}/${doc.id}`;
  const keyQuery = `?key=${encodeURIComponent(c.key)}`;
  const t = doc.totals;
  const totalRows: Array<[string, string, boolean?]> = [
    ['Subtotal', t.subtotal],
    ...(Number(t.discount) ? [['Discount', `-${t.discount}`] as [string, string]] : []),
    ...(doc.taxBreakdown.length > 1
      ? doc.taxBreakdown.map((e) => [`${breakdownLabel(e)} on ${money(e.basis)}`, e.tax] as [string, string])
      : [['Tax', t.tax] as [string, string]]),
    ['Total', t.total, true],
    ...(kind === 'invoice' && Number(t.paid) ? [['Paid', t.paid] as [string, string]] : []),
    ...(kind === 'invoice' && Number(t.credited) ? [['Credited', t.credited] as [string, string]] : []),
    ...(kind === 'invoice' ? [['Amount due', t.due, true] as [string, string, boolean]] : []),
  ];
  return html`
<header>
  <div><h1>${label(kind)} ${doc.number}</h1>${doc.title ? html`<div class="muted">${doc.title}</div>` : ''}</div>
  <div><span class="status status-${status}">${status}</span></div>
</header>
<section class="parties">
  <div>${/^(data:image\/|https:\/\/)/.test(c.company_logo_url) ? html`<img class="logo" src="${c.company_logo_url}" alt="${c.company_name}">` : ''}<strong>${c.company_name}</strong>
${c.company_address}${c.company_email ? `\n${c.company_email}` : ''}</div>
  <div><strong>Bill to</strong>
${doc.customer.name}${doc.customer.company ? `\n${doc.customer.company}` : ''}${doc.customer.email ? `\n${doc.customer.email}` : ''}${doc.customer.address ? `\n${doc.customer.address}` : ''}${doc.customer.country ? `\n${countryName(doc.customer.country)}` : ''}${doc.customer.vat ? `\nVAT ${doc.customer.vat}` : ''}</div>
  <div>Issued ${doc.issueDate}${doc.dueDate ? `\nDue ${doc.dueDate}` : ''}${doc.expiryDate ? `\nValid until ${doc.expiryDate}` : ''}</div>
</section>
<table>
  <thead><tr><th>Item</th><th class="num">Qty</th><th class="num">Price</th><th class="num">Amount</th></tr></thead>
  <tbody>${doc.items.map(
    (i) => html`<tr><td>${i.name}${i.description ? html`<div class="muted">${i.description}</div>` : ''}</td>
    <td class="num">${i.quantity}</td><td class="num">${money(i.price)}</td><td class="num">${money(i.amount)}</td></tr>`,
  )}</tbody>
</table>
<table class="totals">${totalRows.map(([name, amount, strong]) => html`<tr class="${strong ? 'grand' : ''}"><td>${name}</td><td class="num">${money(amount)}</td></tr>`)}</table>
${taxStatements(doc).map((statement) => html`<p class="statement">${statement}</p>`)}
${doc.notes ? html`<h3>Notes</h3><p>${doc.notes}</p>` : ''}
${doc.terms ? html`<h3>Terms</h3><p>${doc.terms}</p>` : ''}
${c.blocks}
<div class="actions">
  <a class="button secondary" href="${base}/pdf${keyQuery}">Download PDF</a>
  ${kind === 'quote' && c.token ? answerForms(doc.id, c.token, c.acceptFields) : ''}
</div>
<div id="quote-answer" hidden role="status"></div>
${kind === 'invoice' && c.gateways.length ? payForms(doc, c) : ''}`;
}

/** One form per gateway: the amount due (or, with partial payments, an amount the customer chooses) and its button. */
function payForms(doc: BillingDocument, c: PageContext): Html {
  const action = `/billing/invoice/${doc.id}/pay?key=${encodeURIComponent(c.key)}`;
  const due = formatMoney(doc.totals.due, doc.currency);
  return html`<section class="pay" aria-labelledby="pay-title">
    <h2 id="pay-title">Pay this invoice</h2>
    ${c.gateways.map(
      (g) => html`<form method="post" action="${action}">
        <input type="hidden" name="gateway" value="${g.method}" />
        ${
          c.allow_partial_payments
            ? html`<label for="amount-${g.method}">Amount to pay (${doc.currency})</label>
              <input id="amount-${g.method}" name="amount" inputmode="decimal" value="${doc.totals.due}" />`
            : ''
        }
        <button type="submit">Pay ${c.allow_partial_payments ? '' : `${due} `}with ${g.title}</button>
      </form>`,
    )}
  </section>`;
}

function answerForms(quoteId: number, token: string, extra: Html[]): Html {
  const hidden = (action: string) => html`<input type="hidden" name="action" value="${action}">
    <input type="hidden" name="quote_id" value="${quoteId}"><input type="hidden" name="token" value="${token}">`;
  return html`
  <form method="post" action="/wp-admin/admin-ajax.php" data-billing-answer="accept">${hidden('billing_accept_quote')}
    ${extra}
    <button type="submit" name="answer" value="accept">Accept quote</button></form>
  <form method="post" action="/wp-admin/admin-ajax.php" data-billing-answer="decline">${hidden('billing_decline_quote')}
    <label class="muted" for="decline-reason">Reason (optional)</label>
    <textarea id="decline-reason" name="reason" maxlength="2000"></textarea>
    <button type="submit" class="secondary" name="answer" value="decline">Decline</button></form>`;
}
