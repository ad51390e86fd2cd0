import type { InvoiceStatus } from './types.ts';

/**
 * Invoices still waiting for money: issued, not paid in full, not cancelled. Reminders, the overdue
 * filter, the pay link and the open-invoice counts all mean this set. In SQL, write it with
 * `sqlLiterals(OPEN_INVOICE_STATUSES)` (or bind it as a `text[]`); the migrations' partial indexes and
 * triggers spell the same list, and a change here needs a migration there.
 */
export const OPEN_INVOICE_STATUSES: readonly InvoiceStatus[] = Object.freeze(['available', 'partial', 'unpaid']);

/** Statuses an invoice is in once issued; it never goes back to draft. */
export const ISSUED_INVOICE_STATUSES: readonly InvoiceStatus[] = Object.freeze(['available', 'partial', 'paid', 'unpaid', 'cancelled']);

/** Whether an invoice in `status` is open (see OPEN_INVOICE_STATUSES). */
export function isOpenInvoiceStatus(status: string): boolean {
  return (OPEN_INVOICE_STATUSES as readonly string[]).includes(status);
}
