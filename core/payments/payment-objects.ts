import type { ObjectKind } from '../scope/object-kind.ts';

/**
 * What the money routes name (core/scope/object-kind.ts): a payment and a credit note lie where their
 * invoice lies, so whoever may not see the invoice may see neither, and lists of them are narrowed by
 * the invoice's creator.
 */
export const PAYMENT_OBJECTS: readonly ObjectKind[] = [
  { kind: 'payment', noun: 'payment', table: 'billing_payments', through: { kind: 'invoice', column: 'invoice_id' } },
  // a saved card or mandate lies where its client lies
  {
    kind: 'payment_method',
    noun: 'saved payment method',
    table: 'billing_payment_methods',
    through: { kind: 'client', column: 'client_id' },
  },
  {
    kind: 'credit_note',
    noun: 'credit note',
    table: 'billing_documents',
    where: { kind: 'credit_note' },
    through: { kind: 'invoice', column: 'parent_id' },
  },
];
