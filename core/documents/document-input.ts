import type { DocumentInput } from './document-schema.ts';
import type { BillingDocument } from './document.ts';

/**
 * A document as the input that makes another like it: what duplicating an invoice, converting an
 * accepted quote and (next) a recurring profile's template all start from — customer, lines, terms,
 * currency and discount; never its number, dates, status or money received.
 */
export function documentInput(doc: BillingDocument, overrides: Partial<DocumentInput> = {}): DocumentInput {
  return {
    items: doc.items.map(({ name, description, quantity, price, unit, taxable, tax_rate }) => ({
      name,
      description,
      quantity,
      price,
      ...(unit ? { unit } : {}),
      taxable,
      tax_rate,
    })),
    client_id: doc.clientId ?? undefined,
    customer_name: doc.customer.name,
    customer_email: doc.customer.email,
    customer_country: doc.customer.country || undefined,
    customer_vat_number: doc.customer.vat,
    title: doc.title,
    notes: doc.notes,
    terms: doc.terms,
    currency: doc.currency,
    locale: doc.locale,
    discount: doc.discount,
    ...overrides,
  };
}
