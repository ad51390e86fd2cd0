import type { components } from './rest-api.d.ts';

// The REST representations the app reads, as the OpenAPI document declares them (rest-api.d.ts is
// generated from it: npm run generate:admin-types).
type Schemas = components['schemas'];

export type Invoice = Schemas['invoice'];
export type Quote = Schemas['quote'];
export type Client = Schemas['client'];
export type Payment = Schemas['payment'];
export type PaymentMethod = Schemas['payment_method'];
export type AuditEntry = Schemas['audit-entry'];
export type Translations = Schemas['translations'];

/** What two shapes share (a field's value may be either's), and what only one of them has. */
type Shared<A, B> = { [K in keyof A & keyof B]: A[K] | B[K] };
type Own<A, B> = Omit<A, keyof B>;

/**
 * An invoice or a quote, as the screens that show both read it: the fields they share, and each kind's
 * own (`due_date`, `overdue`; `expiry_date`, `invoice_id`) as optional.
 */
export type Doc = Shared<Invoice, Quote> & Partial<Own<Invoice, Quote>> & Partial<Own<Quote, Invoice>>;

/** A CSV upload's preview (`POST /imports`) and an import's state (`GET /imports/{id}`). */
export type ImportPreview = Schemas['import-preview'];
export type ImportState = Schemas['import'];
