import type { Migration } from '../db/migrations.ts';

/** Payments, refunds and credit notes' schema (owner `payments`). */
export const PAYMENT_MIGRATIONS: Migration[] = [];
