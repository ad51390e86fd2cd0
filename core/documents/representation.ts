import type { HookRegistry } from '../hooks/registry.ts';
import type { OptionsStore } from '../options/options.ts';
import { breakdownJson } from '../tax/index.ts';
import type { BillingDocument, StoredTotals } from './document.ts';
import { isOpenInvoiceStatus } from './statuses.ts';
import { amountDueNow, earliestUnpaidDate, instalmentStates, type InstalmentState } from './instalments.ts';
import { Money, type CurrencyCode } from '../money/index.ts';
import { siteDate, siteDateTime } from '../time/site-time.ts';

/** Where a representation's context comes from: every module's context carries these. */
export interface RepresentationSource {
  options: OptionsStore;
  hooks: HookRegistry;
  config: { baseUrl: string };
}

/** The context of one request's representations: the site timezone read once for all of them. */
export async function representationContext(s: RepresentationSource, request?: unknown): Promise<RepresentationContext> {
  return { baseUrl: s.config.baseUrl, timezone: await s.options.get('timezone'), hooks: s.hooks, request };
}

export interface RepresentationContext {
  baseUrl: string;
  timezone: string;
  hooks: HookRegistry;
  /** The REST request, passed to the `billing_rest_*` filters. */
  request?: unknown;
}

/**
 * Stored amounts are already exact decimal text at the currency's minor unit (written by
 * Money.toString), and quantities and prices at most 4 decimals, all within 15 significant digits: the
 * JSON number of that text is exactly what Money.toNumber() gives, without parsing it into a Money again.
 * This runs for every field of every document of a list page.
 */
const money = (value: string) => Number(value);

function totalsJson(t: StoredTotals) {
  return {
    subtotal: money(t.subtotal),
    discount: money(t.discount),
    tax: money(t.tax),
    total: money(t.total),
    paid: money(t.paid),
    credited: money(t.credited),
    due: money(t.due),
  };
}

/** An invoice's instalments with what is paid of each (payments and credits fill them oldest first), or null without a schedule. */
export function scheduleStates(doc: BillingDocument, today: string): InstalmentState[] | null {
  if (!doc.schedule) return null;
  const currency = doc.currency as CurrencyCode;
  const settled = Money.parse(doc.totals.paid, currency).plus(Money.parse(doc.totals.credited, currency));
  return instalmentStates(doc.schedule, settled.toString(), doc.currency as CurrencyCode, today);
}

/**
 * The date an invoice's money is owed from: its earliest unpaid instalment, or its due date without a
 * schedule. Overdue and the reminders count from it.
 */
export function owedSince(doc: BillingDocument, today: string): string | null {
  const states = scheduleStates(doc, today);
  return states ? (earliestUnpaidDate(states) ?? doc.dueDate) : doc.dueDate;
}

/** Derived, never stored: past its due date — with a schedule, an instalment past its date unpaid — with an amount still due. */
export function isOverdue(doc: BillingDocument, today: string): boolean {
  if (doc.kind !== 'invoice' || !isOpenInvoiceStatus(doc.status) || Number(doc.totals.due) <= 0) return false;
  const since = owedSince(doc, today);
  return since !== null && since < today;
}

/** What the pay route asks for now: the instalments due so far (or the next one), or the whole amount due without a schedule. */
export function amountDueNowOf(doc: BillingDocument, today: string): string {
  const states = scheduleStates(doc, today);
  if (!states) return doc.totals.due;
  const now = amountDueNow(states, doc.currency as CurrencyCode, today);
  return Money.min(now, Money.parse(doc.totals.due, doc.currency as CurrencyCode)).toString();
}

/** A quote past its expiry date shows as `expired` while it is still open. */
export function quoteStatus(doc: BillingDocument, today: string): string {
  const open = doc.status === 'draft' || doc.status === 'available';
  return open && doc.expiryDate !== null && doc.expiryDate < today ? 'expired' : doc.status;
}

/** The fields invoices and quotes share, in the interface's shape. Money as numbers in minor units' precision. */
function common(doc: BillingDocument, ctx: RepresentationContext, route: string) {
  const at = (d: Date | null) => (d ? siteDateTime(d, ctx.timezone) : null);
  return {
    id: doc.id,
    number: doc.number,
    title: doc.title,
    status: doc.status,
    viewed: { count: doc.viewed.count, first: at(doc.viewed.first), last: at(doc.viewed.last) },
    issue_date: doc.issueDate,
    customer: { name: doc.customer.name, email: doc.customer.email, country: doc.customer.country, vat: doc.customer.vat },
    client_id: doc.clientId,
    currency: doc.currency,
    totals: totalsJson(doc.totals),
    items: doc.items.map((i) => ({
      name: i.name,
      description: i.description,
      quantity: money(i.quantity),
      price: money(i.price),
      amount: money(i.amount),
      unit: i.unit ?? null,
      taxable: i.taxable,
      tax_rate: i.tax_rate === undefined ? null : money(i.tax_rate),
    })),
    discount: doc.discount ? { type: doc.discount.type, value: money(doc.discount.value) } : null,
    tax_treatment: { category: doc.tax.category, statement: doc.tax.statement },
    tax_breakdown: breakdownJson(doc.taxBreakdown),
    notes: doc.notes,
    terms: doc.terms,
    locale: doc.locale,
    date_created: at(doc.createdAt),
    date_modified: at(doc.updatedAt),
    links: { pdf: `${ctx.baseUrl}/wp-json/billing/v1/${route}/${doc.id}/pdf` },
  };
}

/** `billing_model_to_array` then `billing_rest_invoice` (docs/plugins.md). */
export async function invoiceRepresentation(doc: BillingDocument, ctx: RepresentationContext): Promise<Record<string, unknown>> {
  const today = siteDate(new Date(), ctx.timezone);
  const data = {
    ...common(doc, ctx, 'invoices'),
    due_date: doc.dueDate,
    overdue: isOverdue(doc, today),
    period_start: doc.period.start,
    period_end: doc.period.end,
    schedule:
      scheduleStates(doc, today)?.map((s) => ({
        due_date: s.due_date,
        amount: money(s.amount),
        paid: money(s.paid),
        due: money(s.due),
        status: s.status,
      })) ?? null,
    recurring_id: doc.recurringId ?? null,
  };
  const arrayed = await ctx.hooks.applyFilters('billing_model_to_array', data, doc);
  return ctx.hooks.applyFilters('billing_rest_invoice', arrayed, doc, ctx.request);
}

export async function quoteRepresentation(doc: BillingDocument, ctx: RepresentationContext): Promise<Record<string, unknown>> {
  const today = siteDate(new Date(), ctx.timezone);
  const data = {
    ...common(doc, ctx, 'quotes'),
    status: quoteStatus(doc, today),
    expiry_date: doc.expiryDate,
    accepted: doc.accepted,
    declined: doc.declined,
    invoice_id: doc.invoiceId,
  };
  const arrayed = await ctx.hooks.applyFilters('billing_model_to_array', data, doc);
  return ctx.hooks.applyFilters('billing_rest_quote', arrayed, doc, ctx.request);
}
