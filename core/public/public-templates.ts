import type { Response } from 'express';
import type { BillingDocument } from '../documents/document.ts';
import { isOverdue, quoteStatus } from '../documents/representation.ts';
import { formatMoney } from '../display/format.ts';
import { SERVICE_PERIOD_LABEL, servicePeriodText } from '../display/service-period.ts';
import { totalsRows } from '../display/totals-rows.ts';
import { html, type Html } from '../http/html.ts';
import { breakdownLabel, countryName, taxStatements } from '../tax/index.ts';
import { PUBLIC_HEADERS, publicPage } from './public-layout.ts';
import { quantityLabel } from '../units/units.ts';
import { saveMethodField } from './save-method-field.ts';

export type Kind = 'invoice' | 'quote';

export const label = (kind: Kind) => (kind === 'invoice' ? 'Invoice' : 'Quote');

export interface PageContext {
  company_name: string;
  company_logo_url: string;
  company_address: string;
  company_email: string;
  today: string;
  key: string;
  token: string | null;
  allow_partial_payments: boolean;
  /** The pay buttons: active, configured gateways (none when the invoice takes no payment). */
  gateways: Array<{ method: string; title: string; canSave: boolean }>;
  /** The invoice is charged automatically from its client's saved method (`billing_invoice_autopay`). */
  autopay: boolean;
  /** From `billing_public_document_blocks`: shown after the notes and terms. */
  blocks: Html[];
  /** From `billing_public_accept_fields`: inside the Accept form, before its button. */
  acceptFields: Html[];
}

/** A document as its customer sees it: parties, items, totals, statements, and the forms it takes. */
export function page(doc: BillingDocument, c: PageContext): Html {
  const kind = doc.kind as Kind;
  const money = (amount: string) => formatMoney(amount, doc.currency);
  const status = kind === 'quote' ? quoteStatus(doc, c.today) : isOverdue(doc, c.today) ? 'overdue' : doc.status;
  const base = `/billing/${kind}/${doc.id}`;
  const keyQuery = `?key=${encodeURIComponent(c.key)}`;
  const period = kind === 'invoice' ? servicePeriodText(doc.period) : null;
  const totalRows = totalsRows(
    { currency: doc.currency, totals: doc.totals, taxLines: doc.taxBreakdown.map((e) => ({ ...e, label: breakdownLabel(e) })) },
    { settlement: kind === 'invoice' },
  );
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
  <div>Issued ${doc.issueDate}${doc.dueDate ? `\nDue ${doc.dueDate}` : ''}${doc.expiryDate ? `\nValid until ${doc.expiryDate}` : ''}${period ? `\n${SERVICE_PERIOD_LABEL} ${period}` : ''}</div>
</section>
<table>
  <thead><tr><th>Item</th><th class="num">Qty</th><th class="num">Price</th><th class="num">Amount</th></tr></thead>
  <tbody>${doc.items.map(
    (i) => html`<tr><td>${i.name}${i.description ? html`<div class="muted">${i.description}</div>` : ''}</td>
    <td class="num">${quantityLabel(i.quantity, i.unit)}</td><td class="num">${money(i.price)}</td><td class="num">${money(i.amount)}</td></tr>`,
  )}</tbody>
</table>
<table class="totals">${totalRows.map((r) => html`<tr class="${r.grand ? 'grand' : ''}"><td>${r.label}</td><td class="num">${money(r.key === 'discount' ? `-${r.amount}` : r.amount)}</td></tr>`)}</table>
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
        ${saveMethodField(g.method, doc.clientId && g.canSave ? { autopay: c.autopay } : null)}
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

/** A page that says one thing in words (a refusal, a payment's state), with a way back to the invoice. */
export function message(res: Response, status: number, title: string, text: string, back: string | null): void {
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

/** What a missing document, a wrong key and a bad link all get: the same page. */
export function notFound(res: Response): void {
  res
    .status(404)
    .set(PUBLIC_HEADERS)
    .end(publicPage('Not found', html`<h1>Not found</h1><p class="muted">This document does not exist, or the link is incomplete.</p>`));
}
