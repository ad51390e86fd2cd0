import type { PaymentStatus } from './statuses.ts';

/** A payment method: an offline method or a gateway's (`gateway_a`, …). */
export type PaymentMethod = string;
export type GatewayMethod = string;

/**
 * A payment record (docs/documents.md). It belongs to one invoice; amounts are exact decimal text in its
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
