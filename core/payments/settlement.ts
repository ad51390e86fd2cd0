import type { Actor } from '../audit/audit.ts';
import { statement, type Tx } from '../db/database.ts';
import { DOCUMENT_COLUMNS, documentFromRow, type BillingDocument } from '../documents/document.ts';
import type { InvoiceService } from '../documents/invoice-service.ts';
import { BillingError } from '../errors.ts';
import { Money, isCurrency } from '../money/index.ts';
import { invoiceStatusAfter } from './invoice-status.ts';
import { sqlLiterals } from '../db/sql-literals.ts';
import { RECEIVED_PAYMENT_STATUSES } from './statuses.ts';

/** Payments whose money was received, as SQL literals. */
const RECEIVED = sqlLiterals(RECEIVED_PAYMENT_STATUSES);

// Two statements rather than one general one: one runs for every payment, and each is planned for its
// own shape (and prepared once per connection).
const PAID = `(select coalesce(sum(amount - refunded), 0) as sum_paid from billing_payments
               where invoice_id = $1 and status in (${RECEIVED}) and currency = $2) p`;
const SETTLE_WITH_CREDITS = statement(
  'invoice_settle_with_credits',
  `update billing_documents d
      set paid = round(p.sum_paid, scale(d.total)), credited = round(c.sum_credited, scale(d.total)),
          due = round(greatest(0, d.total - p.sum_paid - c.sum_credited), scale(d.total)), updated_at = now()
     from ${PAID},
          (select coalesce(sum(total), 0) as sum_credited from billing_documents
            where kind = 'credit_note' and parent_id = $1 and trashed_at is null) c
    where d.id = $1 returning ${DOCUMENT_COLUMNS}`,
);
// amounts at the scale of the total (the currency's minor unit): they read back as "0.00", not "0"
const SETTLE = statement(
  'invoice_settle',
  `update billing_documents d
      set paid = round(p.sum_paid, scale(d.total)), due = round(greatest(0, d.total - p.sum_paid - d.credited), scale(d.total)),
          updated_at = now()
     from ${PAID}
    where d.id = $1 returning ${DOCUMENT_COLUMNS}`,
);

const LOCK_INVOICE = statement(
  'invoice_lock',
  `select ${DOCUMENT_COLUMNS} from billing_documents where id = $1 and kind = 'invoice' for update`,
);

/**
 * Locks an invoice's row for the rest of the transaction (`SELECT … FOR UPDATE`) and reads it, trashed
 * or not; null when no invoice has this id. Every change of an invoice's money starts here, so changes
 * of one invoice queue one behind the other, on any number of instances.
 */
export async function lockInvoice(tx: Tx, id: number): Promise<BillingDocument | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const rows = await tx.query(LOCK_INVOICE, [id]);
  return rows.length ? documentFromRow(rows[0]!) : null;
}

/**
 * Recomputes a locked invoice's `paid` and `due` from its payment rows (never by adding to the stored
 * figures, so they cannot drift) — and `credited` from its credit notes when `credits` is set (the
 * credit-note path; payments do not change it) — then moves its status where the money says
 * (`invoiceStatusAfter`), through `InvoiceService.setStatus` so `billing_invoice_status_changed` fires
 * after commit. Answers the invoice as stored now.
 */
export async function settleInvoice(
  tx: Tx,
  invoices: InvoiceService,
  invoice: BillingDocument,
  actor: Actor,
  opts: { credits?: boolean } = {},
): Promise<BillingDocument> {
  const rows = await tx.query(opts.credits ? SETTLE_WITH_CREDITS : SETTLE, [invoice.id, invoice.currency]);
  const settled = documentFromRow(rows[0]!);
  if (!isCurrency(settled.currency)) throw new BillingError('billing_internal', `Invoice ${settled.id} has an unknown currency.`);
  const money = (v: string) => Money.parse(v, settled.currency as never, 'amount');
  const m = { paid: money(settled.totals.paid), credited: money(settled.totals.credited), due: money(settled.totals.due), received: true };
  // whether money was ever received matters only for an unpaid balance with nothing paid now
  if (m.paid.isZero() && !m.due.isZero()) {
    m.received =
      (await tx.query(`select 1 from billing_payments where invoice_id = $1 and status in (${RECEIVED}) limit 1`, [invoice.id])).length > 0;
  }
  return invoices.setStatus(tx, settled, invoiceStatusAfter(settled.status, m), actor);
}
