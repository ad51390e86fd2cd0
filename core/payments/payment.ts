import { timestamp } from '../db/database.ts';

/**
 * Methods without a webhook, owned by the core: they reach `completed` only by an administrator's
 * action. Every other method is a gateway's, open to plugins: the methods that exist are these plus
 * the gateways of the active plugins (`GatewayRuntime.isMethod`), checked by the payment core.
 */
export const OFFLINE_METHODS = ['bank_transfer', 'cheque', 'cash', 'manual'] as const;
export type OfflineMethod = (typeof OFFLINE_METHODS)[number];
/** A payment method: an offline method or a gateway's (`gateway_a`, …). */
export type PaymentMethod = string;
export type GatewayMethod = string;
/** What a method name looks like (a gateway's is also its webhook action's middle: `billing_<method>_webhook`). */
export const METHOD_NAME = /^[a-z][a-z0-9_]{1,39}$/;

export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'refunded', 'cancelled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Statuses whose money was received (`refunded` is a completed payment refunded in full). */
export const RECEIVED_STATUSES: readonly PaymentStatus[] = ['completed', 'refunded'];

export function isOffline(method: string): method is OfflineMethod {
  return (OFFLINE_METHODS as readonly string[]).includes(method);
}

/**
 * A payment record (contract §5). It belongs to one invoice; amounts are exact decimal text in its
 * currency. `refunded` is the amount refunded so far: a partial refund leaves the payment `completed`,
 * a full one makes it `refunded`.
 */
export interface Payment {
  id: number;
  invoiceId: number;
  /** The number of the invoice paid (what a person knows the invoice by), read with the payment. */
  invoiceNumber: string;
  /** Unique, at most 20 characters (`P000042`), made at creation: the merchant reference sent to gateways. */
  reference: string;
  amount: string;
  currency: string;
  method: PaymentMethod;
  status: PaymentStatus;
  transactionId: string | null;
  /** When the money was received (completed), else when the payment was recorded. */
  date: Date;
  refunded: string;
  notes: string;
  /**
   * Why the payment waits for a person (a gateway confirmed another amount or currency than the
   * pending payment's), or null. Such a payment stays as it was and counts for nothing until resolved.
   */
  review: string | null;
  createdAt: Date;
  updatedAt: Date;
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
