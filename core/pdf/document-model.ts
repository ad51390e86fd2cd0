/**
 * What a PDF shows, as plain data: the document engine maps an invoice, a quote or a credit note onto
 * this shape and the builder (`document-definition.ts`) turns it into a pdfmake definition. Amounts are
 * exact decimal strings that the money module has already computed and rounded; the PDF only prints them.
 */

export type PdfDocumentKind = 'invoice' | 'quote' | 'credit_note';

/**
 * Stored statuses of invoices (`draft`, `available`, `partial`, `paid`, `unpaid`, `cancelled`) and quotes
 * (adding `accepted`, `declined`, `expired`), plus `issued` for credit notes, which have no workflow.
 * `draft`, `paid` and `cancelled` put a large mark across the page.
 */
export type PdfDocumentStatus =
  'draft' | 'available' | 'partial' | 'paid' | 'unpaid' | 'cancelled' | 'accepted' | 'declined' | 'expired' | 'issued';

export type TaxCategory = 'standard' | 'reverse_charge' | 'export' | 'exempt';

export interface PdfCompany {
  name: string;
  /** Postal address, one line per line. */
  address: string;
  email: string;
  /** The seller's VAT number, printed under the address when set. */
  vat?: string;
  /**
   * A `data:image/png;base64,…` or `data:image/jpeg;base64,…` URL. Renderers fetch no files and no URLs
   * (an SSRF and file-read guard), so a logo has to travel inside the document.
   */
  logo?: string;
}

export interface PdfCustomer {
  name: string;
  email: string;
  /** ISO 3166-1 alpha-2; printed as the country's English name. Empty when unknown. */
  country: string;
  /** May be empty. */
  vat: string;
  /** Postal address, one line per line. */
  address?: string;
}

export interface PdfLineItem {
  name: string;
  /** May be empty. */
  description: string;
  /** Exact decimal strings, e.g. `"1.5"`, `"120.00"`. */
  quantity: string;
  /** The unit's name as printed after the quantity ("hr", "Std."); absent or empty: none. */
  unit?: string;
  price: string;
  amount: string;
}

/** Exact decimal strings in the document's currency, e.g. `"1234.50"` (`"1235"` for JPY). */
export interface PdfTotals {
  subtotal: string;
  discount: string;
  tax: string;
  total: string;
  paid: string;
  credited: string;
  due: string;
}

/** One line of the tax breakdown; exact decimal strings like the totals. */
export interface PdfTaxLine {
  /** e.g. `Tax 19 %`, `Exempt`. */
  label: string;
  /** What the rate applies to. */
  basis: string;
  tax: string;
}

export interface PdfTaxTreatment {
  category: TaxCategory;
  /** The sentence the law asks for (reverse charge, export, exemption); may be empty for `standard`. */
  statement: string;
}

export interface PdfDocumentModel {
  kind: PdfDocumentKind;
  /** e.g. `INV-0042`. */
  number: string;
  /** May be empty. */
  title: string;
  status: PdfDocumentStatus;
  /** `Y-m-d` (a longer `Y-m-d H:i:s` is cut to its date). */
  issueDate: string;
  /** Invoices: `Y-m-d`. */
  dueDate?: string | null;
  /** Quotes: `Y-m-d`. */
  expiryDate?: string | null;
  /** Invoices and credit notes: the service period billed (`Y-m-d`, either end may be null). */
  servicePeriod?: { start: string | null; end: string | null } | null;
  /** Invoices paid in instalments: each one's date and exact amounts (decimal text), paid and outstanding as when rendered. */
  schedule?: Array<{ dueDate: string; amount: string; paid: string; due: string }> | null;
  company: PdfCompany;
  customer: PdfCustomer;
  items: PdfLineItem[];
  totals: PdfTotals;
  /** ISO 4217 code, e.g. `EUR`. */
  currency: string;
  taxTreatment: PdfTaxTreatment;
  /** Tax per category and rate; shown line by line when there is more than one. */
  taxBreakdown?: PdfTaxLine[];
  /** May be empty. */
  notes: string;
  /** May be empty. */
  terms: string;
  /** Credit notes only: the invoice credited and why. */
  creditNote?: { invoiceNumber: string; reason: string };
}
