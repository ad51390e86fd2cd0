import type { Money } from '../money/index.ts';

/** An invoice's money after a change, as the status machine reads it. */
export interface InvoiceMoney {
  /** Σ received payments − Σ refunds. */
  paid: Money;
  /** Σ credit notes. */
  credited: Money;
  /** max(0, total − paid − credited). */
  due: Money;
  /** Whether any payment of the invoice ever received money (completed, or since refunded). */
  received: boolean;
}

/**
 * The stored status an invoice moves to once its money has changed (docs/documents.md, docs/statuses.md).
 * Pure. `draft` and `cancelled` do not follow the money: no payment is taken against a draft, and a
 * cancelled invoice stays cancelled (money confirmed afterwards is recorded and flagged, not hidden).
 * Otherwise: due 0 → `paid` if anything is paid, else `cancelled` (credited in full); something paid
 * with an amount still due → `partial`; nothing paid any more although money was received → `unpaid`;
 * nothing ever received → the status is kept (a partial credit note changes nothing).
 */
export function invoiceStatusAfter(current: string, m: InvoiceMoney): string {
  if (current === 'draft' || current === 'cancelled') return current;
  if (m.due.isZero()) {
    if (m.paid.isPositive()) return 'paid';
    if (m.credited.isPositive()) return 'cancelled';
    return current;
  }
  if (m.paid.isPositive()) return 'partial';
  if (m.received) return 'unpaid';
  return current;
}
