import type { BillingDocument } from '../../documents/document.ts';
import {
  invoiceRepresentation,
  quoteRepresentation,
  representationContext,
  type RepresentationSource,
} from '../../documents/representation.ts';
import { creditNoteRepresentation, paymentRepresentation } from '../../payments/payment-representation.ts';
import type { Payment } from '../../payments/payment.ts';

/**
 * Documents and payments as a REST `GET` answers them (filters applied, no request), for code that
 * hands them on outside a request: the outbound webhooks' `data` must be exactly what the API shows.
 */
export interface RestRepresentations {
  invoice(doc: BillingDocument): Promise<Record<string, unknown>>;
  quote(doc: BillingDocument): Promise<Record<string, unknown>>;
  payment(payment: Payment): Promise<Record<string, unknown>>;
  creditNote(creditNote: BillingDocument): Promise<Record<string, unknown>>;
}

export function restRepresentations(s: RepresentationSource): RestRepresentations {
  return {
    invoice: async (doc) => invoiceRepresentation(doc, await representationContext(s)),
    quote: async (doc) => quoteRepresentation(doc, await representationContext(s)),
    payment: async (payment) => paymentRepresentation(payment, await s.options.get('timezone')),
    creditNote: async (c) => creditNoteRepresentation(c, await representationContext(s)),
  };
}
