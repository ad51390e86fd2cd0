import type { Response } from 'express';
import type { BillingDocument } from '../documents/document.ts';
import { amountDueNowOf, isOverdue, quoteStatus, scheduleStates } from '../documents/representation.ts';
import { servicePeriodText } from '../display/service-period.ts';
import { totalsRows } from '../display/totals-rows.ts';
import { html, type Html } from '../http/html.ts';
import type { Translator } from '../i18n/translator.ts';
import { breakdownLabel, taxStatements } from '../tax/index.ts';
import { PUBLIC_HEADERS, publicPage } from './public-layout.ts';
import { saveMethodField } from './save-method-field.ts';

export type Kind = 'invoice' | 'quote';

/** `Invoice INV-0001`, `Rechnung INV-0001`: a page's title. */
export const label = (kind: Kind, number: string, tr: Translator) => tr.t(`document.${kind}_number`, { number });

export interface PageContext {
  /** The document's language. */
  tr: Translator;
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
  /** The files attached to the document, each downloaded with the page's key. */
  attachments: ReadonlyArray<{ id: number; filename: string; size: number }>;
}

/** A document as its customer sees it: parties, items, totals, statements, and the forms it takes. */
export function page(doc: BillingDocument, c: PageContext): Html {
  const kind = doc.kind as Kind;
  const tr = c.tr;
  const money = (amount: string) => tr.money(amount, doc.currency);
  const status = kind === 'quote' ? quoteStatus(doc, c.today) : isOverdue(doc, c.today) ? 'overdue' : doc.status;
  const base = `/billing/${kind}/${doc.id}`;
  const keyQuery = `?key=${encodeURIComponent(c.key)}`;
  const period = kind === 'invoice' ? servicePeriodText(doc.period, tr) : null;
  const totalRows = totalsRows(
    { currency: doc.currency, totals: doc.totals, taxLines: doc.taxBreakdown.map((e) => ({ ...e, label: breakdownLabel(e, tr) })) },
    { texts: tr, settlement: kind === 'invoice' },
  );
  const customer = [
    doc.customer.name,
    doc.customer.company,
    doc.customer.email,
    doc.customer.address,
    doc.customer.country ? tr.country(doc.customer.country) : '',
    doc.customer.vat ? tr.t('document.vat_number', { vat: doc.customer.vat }) : '',
  ].filter(Boolean);
  const dates = [
    tr.t('page.issued', { date: tr.date(doc.issueDate) }),
    doc.dueDate ? tr.t('page.due', { date: tr.date(doc.dueDate) }) : '',
    doc.expiryDate ? tr.t('page.valid_until', { date: tr.date(doc.expiryDate) }) : '',
    period ? `${tr.t('document.service_period')} ${period}` : '',
  ].filter(Boolean);
  return html`
<header>
  <div><h1>${label(kind, doc.number, tr)}</h1>${doc.title ? html`<div class="muted">${doc.title}</div>` : ''}</div>
  <div><span class="status status-${status}">${tr.t(`page.status.${status}`)}</span></div>
</header>
<section class="parties">
  <div>${/^(data:image\/|https:\/\/)/.test(c.company_logo_url) ? html`<img class="logo" src="${c.company_logo_url}" alt="${c.company_name}">` : ''}<strong>${c.company_name}</strong>
${c.company_address}${c.company_email ? `\n${c.company_email}` : ''}</div>
  <div><strong>${tr.t(kind === 'quote' ? 'document.prepared_for' : 'document.bill_to')}</strong>
${customer.join('\n')}</div>
  <div>${dates.join('\n')}</div>
</section>
<table>
  <thead><tr><th>${tr.t('document.item')}</th><th class="num">${tr.t('document.quantity')}</th><th class="num">${tr.t('document.price')}</th><th class="num">${tr.t('document.amount')}</th></tr></thead>
  <tbody>${doc.items.map(
    (i) => html`<tr><td>${i.name}${i.description ? html`<div class="muted">${i.description}</div>` : ''}</td>
    <td class="num">${tr.quantity(i.quantity, i.unit)}</td><td class="num">${money(i.price)}</td><td class="num">${money(i.amount)}</td></tr>`,
  )}</tbody>
</table>
<table class="totals">${totalRows.map((r) => html`<tr class="${r.grand ? 'grand' : ''}"><td>${r.label}</td><td class="num">${money(r.key === 'discount' ? `-${r.amount}` : r.amount)}</td></tr>`)}</table>
${kind === 'invoice' ? scheduleTable(doc, c) : ''}
${taxStatements(doc).map((statement) => html`<p class="statement">${statement}</p>`)}
${doc.notes ? html`<h3>${tr.t('document.notes')}</h3><p>${doc.notes}</p>` : ''}
${doc.terms ? html`<h3>${tr.t('document.terms')}</h3><p>${doc.terms}</p>` : ''}
${c.blocks}
${c.attachments.length ? attachmentList(base, keyQuery, c) : ''}
<div class="actions">
  <a class="button secondary" href="${base}/pdf${keyQuery}">${tr.t('page.download_pdf')}</a>
  ${kind === 'quote' && c.token ? answerForms(doc.id, c.token, c.acceptFields, tr) : ''}
</div>
<div id="quote-answer" hidden role="status" data-accepted="${tr.t('page.quote_accepted')}" data-declined="${tr.t('page.quote_declined')}"
  data-expired="${tr.t('page.link_expired')}" data-failed="${tr.t('page.answer_failed')}"
  data-accepted-status="${tr.t('page.status.accepted')}" data-declined-status="${tr.t('page.status.declined')}"></div>
${kind === 'invoice' && c.gateways.length ? payForms(doc, c) : ''}`;
}

/** The document's files, as downloads under its key. */
function attachmentList(base: string, keyQuery: string, c: PageContext): Html {
  return html`<section class="attachments"><h3>${c.tr.t('page.attachments')}</h3>
<ul>${c.attachments.map((a) => html`<li><a href="${base}/attachments/${String(a.id)}${keyQuery}" download>${a.filename}</a> <span class="muted">(${String(Math.max(1, Math.round(a.size / 1024)))} KB)</span></li>`)}</ul></section>`;
}

/** An invoice's instalments: date, amount, what is paid and outstanding of each, and its status. */
function scheduleTable(doc: BillingDocument, c: PageContext): Html | '' {
  const states = scheduleStates(doc, c.today);
  if (!states) return '';
  const tr = c.tr;
  const money = (amount: string) => tr.money(amount, doc.currency);
  return html`<h3>${tr.t('document.payment_schedule')}</h3>
<table class="schedule">
  <thead><tr><th>${tr.t('document.instalment_due_date')}</th><th class="num">${tr.t('document.instalment_amount')}</th><th class="num">${tr.t('document.instalment_paid')}</th><th class="num">${tr.t('document.instalment_outstanding')}</th><th>${tr.t('document.instalment_status')}</th></tr></thead>
  <tbody>${states.map(
    (s) =>
      html`<tr><td>${tr.date(s.due_date)}</td><td class="num">${money(s.amount)}</td><td class="num">${money(s.paid)}</td><td class="num">${money(s.due)}</td><td>${tr.t(`document.instalment.${s.status}`)}</td></tr>`,
  )}</tbody>
</table>`;
}

/**
 * One form per gateway: the amount due now (with instalments, those due so far or the next one; or, with
 * partial payments, an amount the customer chooses) and its button.
 */
function payForms(doc: BillingDocument, c: PageContext): Html {
  const action = `/billing/invoice/${doc.id}/pay?key=${encodeURIComponent(c.key)}`;
  const tr = c.tr;
  const now = amountDueNowOf(doc, c.today);
  const due = tr.money(now, doc.currency);
  return html`<section class="pay" aria-labelledby="pay-title">
    <h2 id="pay-title">${tr.t('page.pay_title')}</h2>
    ${doc.schedule ? html`<p class="due-now">${tr.t('page.amount_due_now', { amount: due })}</p>` : ''}
    ${c.gateways.map(
      (g) => html`<form method="post" action="${action}">
        <input type="hidden" name="gateway" value="${g.method}" />
        ${
          c.allow_partial_payments
            ? html`<label for="amount-${g.method}">${tr.t('page.amount_to_pay', { currency: doc.currency })}</label>
              <input id="amount-${g.method}" name="amount" inputmode="decimal" value="${now}" />`
            : ''
        }
        ${saveMethodField(g.method, doc.clientId && g.canSave ? { autopay: c.autopay } : null, tr)}
        <button type="submit">${c.allow_partial_payments ? tr.t('page.pay_with', { gateway: g.title }) : tr.t('page.pay_amount_with', { amount: due, gateway: g.title })}</button>
      </form>`,
    )}
  </section>`;
}

function answerForms(quoteId: number, token: string, extra: Html[], tr: Translator): Html {
  const hidden = (action: string) => html`<input type="hidden" name="action" value="${action}">
    <input type="hidden" name="quote_id" value="${quoteId}"><input type="hidden" name="token" value="${token}">`;
  return html`
  <form method="post" action="/wp-admin/admin-ajax.php" data-billing-answer="accept">${hidden('billing_accept_quote')}
    ${extra}
    <button type="submit" name="answer" value="accept">${tr.t('page.accept_quote')}</button></form>
  <form method="post" action="/wp-admin/admin-ajax.php" data-billing-answer="decline">${hidden('billing_decline_quote')}
    <label class="muted" for="decline-reason">${tr.t('page.decline_reason')}</label>
    <textarea id="decline-reason" name="reason" maxlength="2000"></textarea>
    <button type="submit" class="secondary" name="answer" value="decline">${tr.t('page.decline_quote')}</button></form>`;
}

/** A page that says one thing in words (a refusal, a payment's state), with a way back to the invoice. */
export function message(res: Response, status: number, title: string, text: string, back: string | null, tr: Translator): void {
  res
    .status(status)
    .set(PUBLIC_HEADERS)
    .end(
      publicPage(
        title,
        html`<h1>${title}</h1><p>${text}</p>${back ? html`<p><a class="button secondary" href="${back}">${tr.t('page.back_to_invoice')}</a></p>` : ''}`,
        tr.locale,
      ),
    );
}

/** What a missing document, a wrong key and a bad link all get: the same page (in the site's language). */
export function notFound(res: Response, tr: Translator): void {
  res
    .status(404)
    .set(PUBLIC_HEADERS)
    .end(
      publicPage(
        tr.t('page.not_found'),
        html`<h1>${tr.t('page.not_found')}</h1><p class="muted">${tr.t('page.not_found_text')}</p>`,
        tr.locale,
      ),
    );
}
