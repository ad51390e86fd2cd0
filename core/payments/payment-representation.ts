import type { BillingDocument } from '../documents/document.ts';
import { siteDateTime } from '../time/site-time.ts';
import { Money, isCurrency } from '../money/index.ts';
import type { Payment } from './payment.ts';

const amount = (value: string, currency: string) => (isCurrency(currency) ? Money.parse(value, currency).toNumber() : Number(value));

/**
 * A payment as REST and AJAX answer it (docs/documents.md): money as JSON numbers at the currency's minor
 * unit, `date` as `Y-m-d H:i:s` in the site timezone. `review` says why a gateway's confirmation waits
 * for a person, or is null.
 */
export function paymentRepresentation(p: Payment, timezone: string): Record<string, unknown> {
  return {
    id: p.id,
    invoice_id: p.invoiceId,
    invoice_number: p.invoiceNumber,
    reference: p.reference,
    amount: amount(p.amount, p.currency),
    currency: p.currency,
    method: p.method,
    status: p.status,
    transaction_id: p.transactionId,
    date: siteDateTime(p.date, timezone),
    refunded: amount(p.refunded, p.currency),
    notes: p.notes,
    review: p.review,
  };
}

/** A credit note (docs/documents.md): `{id, number, invoice_id, amount, currency, reason, date, period_start, period_end, links: {pdf}}`. */
export function creditNoteRepresentation(c: BillingDocument, ctx: { baseUrl: string; timezone: string }): Record<string, unknown> {
  return {
    id: c.id,
    number: c.number,
    invoice_id: c.parentId,
    amount: amount(c.totals.total, c.currency),
    currency: c.currency,
    reason: c.reason ?? '',
    date: siteDateTime(c.createdAt, ctx.timezone),
    period_start: c.period.start,
    period_end: c.period.end,
    links: { pdf: `${ctx.baseUrl}/wp-json/billing/v1/credit-notes/${c.id}/pdf` },
  };
}
