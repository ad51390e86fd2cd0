import { timestamp } from '../db/database.ts';
import { derivedBreakdown } from './tax-breakdown.ts';
import type { BillingDocument } from './types.ts';

export type { BillingDocument, Customer, DocumentItem, InvoiceStatus, QuoteStatus, ServicePeriod, StoredTotals } from './types.ts';

/** Every column but the access key: what list and get queries select. */
export const DOCUMENT_COLUMNS = `id, kind, number, status, trashed_at, title, currency, issue_date::text, due_date::text,
  expiry_date::text, client_id, customer_name, customer_email, customer_country, customer_vat, customer_company,
  customer_address, items, discount_type, discount_value::text, tax_category, tax_statement, tax_rate::text, tax_breakdown,
  subtotal::text, discount::text, tax::text, total::text, paid::text, credited::text, due::text, notes, terms,
  viewed_count, viewed_first, viewed_last, sent_at, accepted, declined, invoice_id, parent_id, reason, created_at, updated_at, recurring_id,
  period_start::text, period_end::text, locale, schedule`;

export function documentFromRow(r: Record<string, any>): BillingDocument {
  const discount = r.discount_type ? { type: r.discount_type, value: r.discount_value } : null;
  const tax = { category: r.tax_category, statement: r.tax_statement, rate: r.tax_rate };
  return {
    id: Number(r.id),
    kind: r.kind,
    number: r.number,
    status: r.status,
    trashed: r.trashed_at !== null,
    title: r.title,
    currency: r.currency,
    issueDate: r.issue_date,
    dueDate: r.due_date,
    expiryDate: r.expiry_date,
    clientId: r.client_id,
    customer: {
      name: r.customer_name,
      email: r.customer_email,
      country: r.customer_country,
      vat: r.customer_vat,
      company: r.customer_company,
      address: r.customer_address,
    },
    items: r.items,
    discount,
    tax,
    taxBreakdown: r.tax_breakdown ?? derivedBreakdown({ currency: r.currency, items: r.items, discount, tax }),
    totals: { subtotal: r.subtotal, discount: r.discount, tax: r.tax, total: r.total, paid: r.paid, credited: r.credited, due: r.due },
    notes: r.notes,
    terms: r.terms,
    viewed: { count: r.viewed_count, first: timestamp(r.viewed_first), last: timestamp(r.viewed_last) },
    sentAt: timestamp(r.sent_at),
    accepted: r.accepted,
    declined: r.declined,
    invoiceId: r.invoice_id === null ? null : Number(r.invoice_id),
    parentId: r.parent_id === null ? null : Number(r.parent_id),
    reason: r.reason,
    locale: r.locale ?? null,
    recurringId: r.recurring_id == null ? null : Number(r.recurring_id),
    period: { start: r.period_start ?? null, end: r.period_end ?? null },
    schedule: r.schedule ?? null,
    createdAt: timestamp(r.created_at)!,
    updatedAt: timestamp(r.updated_at)!,
  };
}
