import { Router, type Request, type Response } from 'express';
import { html, type Html } from '../http/html.ts';
import type { Database } from '../db/database.ts';
import { documentFromRow, DOCUMENT_COLUMNS, type BillingDocument } from '../documents/document.ts';
import { documentPdf, pdfFilename } from '../documents/document-pdf.ts';
import type { QuoteService } from '../documents/quote-service.ts';
import { isOverdue, quoteStatus } from '../documents/representation.ts';
import { siteDate } from '../documents/site-time.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { Authenticator } from '../http/auth.ts';
import { safeEqual } from '../identity/safe-equal.ts';
import type { Logger } from '../log.ts';
import type { OptionsStore } from '../options/options.ts';
import { formatMoney } from '../pdf/format.ts';
import type { PdfRenderer } from '../pdf/index.ts';
import { countryName } from '../tax/index.ts';
import { PUBLIC_HEADERS, PUBLIC_SCRIPT, PUBLIC_SCRIPT_PATH, publicPage } from './public-layout.ts';

export interface PublicPagesDeps {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
  pdf: PdfRenderer;
  quotes: QuoteService;
  auth: Authenticator;
  log: Logger;
}

type Kind = 'invoice' | 'quote';

/**
 * The customer's pages (contract §5): a document opened with its access key, its PDF, and for quotes
 * the Accept / Decline forms. A wrong or missing key gets exactly the page a missing document gets.
 */
export function publicRouter(d: PublicPagesDeps): Router {
  const router = Router();

  router.get(PUBLIC_SCRIPT_PATH, (_req, res) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' });
    res.end(PUBLIC_SCRIPT);
  });

  for (const kind of ['invoice', 'quote'] as const) {
    router.get(`/billing/${kind}/:id`, (req, res) => serve(d, kind, req, res, false));
    router.get(`/billing/${kind}/:id/pdf`, (req, res) => serve(d, kind, req, res, true));
  }
  return router;
}

async function serve(d: PublicPagesDeps, kind: Kind, req: Request, res: Response, asPdf: boolean): Promise<void> {
  try {
    const doc = await unlock(d.db, kind, String(req.params.id), req.query.key);
    if (!doc) return notFound(res);
    if (asPdf) {
      const pdf = await documentPdf(doc, d);
      res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'Content-Type': 'application/pdf', ETag: pdf.etag,
        'Content-Disposition': `inline; filename="${pdfFilename(doc)}"` });
      res.end(pdf.bytes);
      return;
    }
    const viewed = kind === 'invoice' ? await countView(d, doc, req) : doc;
    const key = String(req.query.key);
    const o = await d.options.getMany(['company_name', 'company_address', 'company_email', 'company_logo_url', 'timezone']);
    const today = siteDate(new Date(), o.timezone);
    const token = kind === 'quote' && quoteStatus(doc, today) === 'available' ? await d.quotes.mintToken(doc.id) : null;
    res.status(200).set(PUBLIC_HEADERS).end(publicPage(`${label(kind)} ${doc.number}`, page(viewed, { ...o, today, key, token })));
  } catch (err) {
    d.log.error({ err, kind }, 'public page failed');
    if (!res.headersSent) res.status(500).set(PUBLIC_HEADERS).end(publicPage('Error', html`<h1>Something went wrong</h1><p>Please try again later.</p>`));
  }
}

/** The document when `key` is its access key (compared in constant time); null in every other case. */
async function unlock(db: Database, kind: Kind, id: string, key: unknown): Promise<BillingDocument | null> {
  if (!/^\d{1,15}$/.test(id) || typeof key !== 'string' || key.length < 16 || key.length > 200) return null;
  const rows = await db.query(`select ${DOCUMENT_COLUMNS}, access_key from billing_documents where id = $1 and kind = $2 and trashed_at is null`, [Number(id), kind]);
  if (!rows.length || !safeEqual(rows[0]!.access_key, key)) return null;
  return documentFromRow(rows[0]!);
}

/** Counts a customer's view (staff who are signed in do not count); the first one fires `billing_invoice_viewed`. */
async function countView(d: PublicPagesDeps, doc: BillingDocument, req: Request): Promise<BillingDocument> {
  const { user } = await d.auth.ajaxUser(req, undefined);
  if (user && await d.auth.can(user, 'bill_view_invoices')) return doc;
  const rows = await d.db.query(
    `update billing_documents set viewed_count = viewed_count + 1, viewed_first = coalesce(viewed_first, now()), viewed_last = now()
      where id = $1 returning ${DOCUMENT_COLUMNS}`, [doc.id]);
  const viewed = documentFromRow(rows[0]!);
  if (viewed.viewed.count === 1) await d.hooks.doAction('billing_invoice_viewed', doc.id, viewed);
  return viewed;
}

function notFound(res: Response): void {
  res.status(404).set(PUBLIC_HEADERS).end(publicPage('Not found', html`<h1>Not found</h1><p class="muted">This document does not exist, or the link is incomplete.</p>`));
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
}

function page(doc: BillingDocument, c: PageContext): Html {
  const kind = doc.kind as Kind;
  const money = (amount: string) => formatMoney(amount, doc.currency);
  const status = kind === 'quote' ? quoteStatus(doc, c.today) : isOverdue(doc, c.today) ? 'overdue' : doc.status;
  const base = `/billing/${kind}/${doc.id}`;
  const keyQuery = `?key=${encodeURIComponent(c.key)}`;
  const t = doc.totals;
  const totalRows: Array<[string, string, boolean?]> = [
    ['Subtotal', t.subtotal], ...(Number(t.discount) ? [['Discount', `-${t.discount}`] as [string, string]] : []),
    ['Tax', t.tax], ['Total', t.total, true],
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
  <tbody>${doc.items.map((i) => html`<tr><td>${i.name}${i.description ? html`<div class="muted">${i.description}</div>` : ''}</td>
    <td class="num">${i.quantity}</td><td class="num">${money(i.price)}</td><td class="num">${money(i.amount)}</td></tr>`)}</tbody>
</table>
<table class="totals">${totalRows.map(([name, amount, strong]) => html`<tr class="${strong ? 'grand' : ''}"><td>${name}</td><td class="num">${money(amount)}</td></tr>`)}</table>
${doc.tax.statement ? html`<p class="statement">${doc.tax.statement}</p>` : ''}
${doc.notes ? html`<h3>Notes</h3><p>${doc.notes}</p>` : ''}
${doc.terms ? html`<h3>Terms</h3><p>${doc.terms}</p>` : ''}
<div class="actions">
  <a class="button secondary" href="${base}/pdf${keyQuery}">Download PDF</a>
  ${kind === 'quote' && c.token ? answerForms(doc.id, c.token) : ''}
</div>
<div id="quote-answer" hidden role="status"></div>
${kind === 'invoice' ? html`<section class="pay" data-slot="payment-methods"></section>` : ''}`;
}

function answerForms(quoteId: number, token: string): Html {
  const hidden = (action: string) => html`<input type="hidden" name="action" value="${action}">
    <input type="hidden" name="quote_id" value="${quoteId}"><input type="hidden" name="token" value="${token}">`;
  return html`
  <form method="post" action="/wp-admin/admin-ajax.php" data-billing-answer="accept">${hidden('billing_accept_quote')}
    <button type="submit" name="answer" value="accept">Accept quote</button></form>
  <form method="post" action="/wp-admin/admin-ajax.php" data-billing-answer="decline">${hidden('billing_decline_quote')}
    <label class="muted" for="decline-reason">Reason (optional)</label>
    <textarea id="decline-reason" name="reason" maxlength="2000"></textarea>
    <button type="submit" class="secondary" name="answer" value="decline">Decline</button></form>`;
}
