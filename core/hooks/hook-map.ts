/**
 * Every hook the core raises, with its arguments in order (contract §2). This is the one place hook
 * names are declared: `addAction('billing_invoice_craeted', …)` does not compile.
 *
 * A plugin that raises hooks of its own declares them twice, once for the compiler and once for the
 * runtime (hook names are checked at run time too, so a JavaScript plugin cannot tap a typo):
 *
 *   declare module '../../core/hooks/hook-map.ts' {
 *     interface ActionMap { my_plugin_thing_happened: [thingId: number] }
 *   }
 *   definePlugin({ …, hooks: { actions: ['my_plugin_thing_happened'] } })
 */
import type { HookModels } from './hook-models.ts';

type Invoice = HookModels['invoice'];
type Quote = HookModels['quote'];
type Payment = HookModels['payment'];
type CreditNote = HookModels['creditNote'];
type Client = HookModels['client'];
type User = HookModels['user'];
type Json = Record<string, unknown>;

export type CreationSource = 'rest' | 'ajax' | 'cli' | 'recurring' | 'quote' | 'api';

/** Actions: listeners return nothing; they run after the change they report has committed. */
export interface ActionMap {
  billing_invoice_created: [invoiceId: number, invoice: Invoice, context: { source: CreationSource }];
  billing_invoice_updated: [invoiceId: number, invoice: Invoice];
  billing_invoice_sent: [invoiceId: number, invoice: Invoice];
  billing_invoice_trashed: [invoiceId: number, invoice: Invoice];
  billing_invoice_restored: [invoiceId: number, invoice: Invoice];
  billing_invoice_status_changed: [invoiceId: number, invoice: Invoice, oldStatus: string, newStatus: string];
  billing_invoice_viewed: [invoiceId: number, invoice: Invoice];
  billing_quote_created: [quoteId: number, quote: Quote];
  billing_quote_sent: [quoteId: number, quote: Quote];
  billing_quote_accepted: [quoteId: number, quote: Quote, invoice: Invoice | null];
  billing_quote_declined: [quoteId: number, quote: Quote];
  billing_payment_completed: [invoiceId: number, invoice: Invoice, payment: Payment];
  billing_payment_received: [invoiceId: number, invoice: Invoice, payment: Payment];
  billing_payment_failed: [invoiceId: number, invoice: Invoice, payment: Payment];
  billing_payment_refunded: [invoiceId: number, invoice: Invoice, payment: Payment];
  billing_credit_note_created: [invoiceId: number, invoice: Invoice, creditNote: CreditNote];
  billing_plugin_activated: [name: string];
  billing_plugin_deactivated: [name: string];
  billing_option_updated: [key: string, oldValue: unknown, newValue: unknown];
}

/** Filters: the first argument is the value being filtered; every listener returns its new value. */
export interface FilterMap {
  billing_rest_invoice: [data: Json, invoice: Invoice, request: unknown];
  billing_rest_quote: [data: Json, quote: Quote, request: unknown];
  billing_rest_client: [data: Json, client: Client, request: unknown];
  billing_model_to_array: [data: Json, model: unknown];
  billing_user_has_cap: [allcaps: Record<string, boolean>, caps: string[], args: [string, number, ...number[]], user: User];
  billing_pdf_document: [definition: Json, document: unknown];
  billing_email: [message: { to: string; subject: string; html: string; text: string; attachments: unknown[] }, template: string, document: unknown];
  billing_tax_treatment: [treatment: { category: string; statement: string; rate: string }, document: unknown];
}

export type ActionName = keyof ActionMap;
export type FilterName = keyof FilterMap;

/** The same names for the runtime, which cannot read interfaces; `satisfies` keeps each one spelt as declared. */
export const CORE_ACTIONS = Object.freeze([
  'billing_invoice_created', 'billing_invoice_updated', 'billing_invoice_sent', 'billing_invoice_trashed',
  'billing_invoice_restored', 'billing_invoice_status_changed', 'billing_invoice_viewed',
  'billing_quote_created', 'billing_quote_sent', 'billing_quote_accepted', 'billing_quote_declined',
  'billing_payment_completed', 'billing_payment_received', 'billing_payment_failed', 'billing_payment_refunded',
  'billing_credit_note_created', 'billing_plugin_activated', 'billing_plugin_deactivated', 'billing_option_updated',
] as const satisfies readonly ActionName[]);

export const CORE_FILTERS = Object.freeze([
  'billing_rest_invoice', 'billing_rest_quote', 'billing_rest_client', 'billing_model_to_array',
  'billing_user_has_cap', 'billing_pdf_document', 'billing_email', 'billing_tax_treatment',
] as const satisfies readonly FilterName[]);
