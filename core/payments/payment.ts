import { timestamp } from '../db/database.ts';
import type { Payment } from './types.ts';

export type { GatewayMethod, Payment, PaymentMethod } from './types.ts';
export { PAYMENT_STATUSES, RECEIVED_PAYMENT_STATUSES, type PaymentStatus } from './statuses.ts';

/**
 * Methods without a webhook, owned by the core: they reach `completed` only by an administrator's
 * action. Every other method is a gateway's, open to plugins: the methods that exist are these plus
 * the gateways of the active plugins (`GatewayRuntime.isMethod`), checked by the payment core.
 */
export const OFFLINE_METHODS = ['bank_transfer', 'cheque', 'cash', 'manual'] as const;
export type OfflineMethod = (typeof OFFLINE_METHODS)[number];
/** What a method name looks like (a gateway's is also its webhook action's middle: `billing_<method>_webhook`). */
export const METHOD_NAME = /^[a-z][a-z0-9_]{1,39}$/;

export function isOffline(method: string): method is OfflineMethod {
  return (OFFLINE_METHODS as readonly string[]).includes(method);
}

/**
 * Every read of a payment row, `returning` clauses included (`from billing_payments`, unaliased): the
 * invoice's number comes along by its primary key, so each payment answer names the invoice as people do.
 */
export const PAYMENT_COLUMNS = `id, invoice_id, reference, amount::text, currency, method, status, transaction_id, date,
  refunded::text, notes, review, created_at, updated_at,
  (select d.number from billing_documents d where d.id = billing_payments.invoice_id) as invoice_number`;

export function paymentFromRow(r: Record<string, any>): Payment {
  return {
    id: Number(r.id),
    invoiceId: Number(r.invoice_id),
    invoiceNumber: r.invoice_number,
    reference: r.reference,
    amount: r.amount,
    currency: r.currency,
    method: r.method,
    status: r.status,
    transactionId: r.transaction_id,
    date: timestamp(r.date)!,
    refunded: r.refunded,
    notes: r.notes,
    review: r.review,
    createdAt: timestamp(r.created_at)!,
    updatedAt: timestamp(r.updated_at)!,
  };
}
