export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'refunded', 'cancelled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * Statuses whose money was received (`refunded` is a completed payment refunded in full): what an
 * invoice's paid amount and the reports count.
 */
export const RECEIVED_PAYMENT_STATUSES: readonly PaymentStatus[] = Object.freeze(['completed', 'refunded']);
