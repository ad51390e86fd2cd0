import type { Instalment } from './instalments.ts';
import type { TaxBreakdownEntry, TaxCategory } from '../tax/index.ts';

/**
 * The document model: the shapes invoices, quotes and credit notes have wherever they travel (hooks,
 * plugins, representations). Types only, so the hook layer and plugins can name them without importing
 * the document engine.
 */
export type DocumentKind = 'invoice' | 'quote' | 'credit_note';

export type InvoiceStatus = 'draft' | 'available' | 'partial' | 'paid' | 'unpaid' | 'cancelled';
export type QuoteStatus = 'draft' | 'available' | 'accepted' | 'declined' | 'cancelled';

export interface DocumentItem {
  name: string;
  description: string;
  /** Exact decimals as text: quantity and price up to 4 places, amount at the currency's minor unit. */
  quantity: string;
  price: string;
  amount: string;
  /** A UN/ECE Recommendation 20 code (HUR, DAY, …); absent when the line names none (then counted as C62). */
  unit?: string;
  taxable: boolean;
  /** The item's own rate (percent, exact text) when it overrides the document's; absent otherwise. */
  tax_rate?: string;
}

export interface Customer {
  name: string;
  email: string;
  country: string;
  vat: string;
  company: string;
  address: string;
}

/** A period of service, `Y-m-d` to `Y-m-d` inclusive; an open end is null (both null: none). */
export interface ServicePeriod {
  start: string | null;
  end: string | null;
}

/** Money of a document, exact decimal text in its currency (e.g. "1234.50"). */
export interface StoredTotals {
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  paid: string;
  credited: string;
  due: string;
}

/**
 * A document as the service works with it. The access key is deliberately not a field: it is read
 * only where a public link is built (`DocumentStore.accessKey`), so no representation can carry it.
 */
export interface BillingDocument {
  id: number;
  kind: DocumentKind;
  number: string;
  status: string;
  trashed: boolean;
  title: string;
  currency: string;
  issueDate: string;
  dueDate: string | null;
  expiryDate: string | null;
  clientId: number | null;
  customer: Customer;
  items: DocumentItem[];
  discount: { type: 'percent' | 'fixed'; value: string } | null;
  tax: { category: TaxCategory; statement: string; rate: string };
  /** Tax per category and rate; Σ tax = totals.tax. */
  taxBreakdown: TaxBreakdownEntry[];
  totals: StoredTotals;
  notes: string;
  terms: string;
  viewed: { count: number; first: Date | null; last: Date | null };
  sentAt: Date | null;
  accepted: { at: string; by: string; reason?: string } | null;
  declined: { at: string; by: string; reason?: string } | null;
  invoiceId: number | null;
  parentId: number | null;
  reason: string | null;
  /** The service period billed (invoices and credit notes; EN 16931 BG-14): `Y-m-d` dates, either may be null. */
  period: ServicePeriod;
  /** Invoices paid in instalments: the dates and exact amounts, summing to the total (core/documents/instalments.ts); null: one due date. */
  schedule: Instalment[] | null;
  /** The BCP 47 tag it prints in (its client's when it was made), or null: the option `site_locale`. */
  locale: string | null;
  /** The recurring profile that generated it (invoices of the recurring addon). */
  recurringId?: number | null;
  createdAt: Date;
  updatedAt: Date;
}
