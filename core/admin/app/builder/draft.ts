import { ApiError } from '../api.ts';
import { customerEmail, customerName, type Doc, type Kind } from '../documents.ts';

/** One item row as typed: numbers stay text until the server reads them. */
export interface Item {
  key: number;
  name: string;
  description: string;
  quantity: string;
  price: string;
  /** A UN/ECE Recommendation 20 code, or empty for none. */
  unit: string;
  taxable: boolean;
  /** The item's own tax rate (percent), or empty for the document's. */
  tax_rate: string;
}

/** One instalment as typed: an amount, or a percent written with `%` (`30%`). */
export interface Instalment {
  key: number;
  due_date: string;
  amount: string;
}

/** The builder's draft: what the form shows, before the server has read it. */
export interface State {
  client_id: number | null;
  client_label: string;
  customer_name: string;
  customer_email: string;
  title: string;
  issue_date: string;
  due_date: string;
  /** Invoices: the service period billed, `Y-m-d` or empty. */
  period_start: string;
  period_end: string;
  /** Invoices: the instalments, none for one due date. */
  schedule: Instalment[];
  currency: string;
  items: Item[];
  discount_type: '' | 'percent' | 'fixed';
  discount_value: string;
  notes: string;
  terms: string;
}

let nextKey = 1;
export const blankInstalment = (): Instalment => ({ key: nextKey++, due_date: '', amount: '' });
export const blankItem = (): Item => ({
  key: nextKey++,
  name: '',
  description: '',
  quantity: '1',
  price: '',
  unit: '',
  taxable: true,
  tax_rate: '',
});

/** A new document's draft, in the site's currency. */
export const blankState = (currency: string): State => ({
  client_id: null,
  client_label: '',
  customer_name: '',
  customer_email: '',
  title: '',
  issue_date: '',
  due_date: '',
  period_start: '',
  period_end: '',
  schedule: [],
  currency,
  items: [blankItem()],
  discount_type: '',
  discount_value: '',
  notes: '',
  terms: '',
});

export function fromDoc(d: Doc, kind: Kind): State {
  return {
    client_id: d.client_id,
    client_label: '',
    customer_name: customerName(d),
    customer_email: customerEmail(d),
    title: d.title,
    issue_date: d.issue_date,
    due_date: (kind === 'invoice' ? d.due_date : d.expiry_date) ?? '',
    period_start: (kind === 'invoice' ? d.period_start : null) ?? '',
    period_end: (kind === 'invoice' ? d.period_end : null) ?? '',
    schedule:
      kind === 'invoice' && d.schedule
        ? d.schedule.map((i: { due_date: string; amount: number }) => ({ key: nextKey++, due_date: i.due_date, amount: String(i.amount) }))
        : [],
    currency: d.currency,
    items: d.items.map((i: any) => ({
      key: nextKey++,
      name: i.name,
      description: i.description ?? '',
      quantity: String(i.quantity),
      price: String(i.price),
      unit: i.unit ?? '',
      taxable: i.taxable,
      tax_rate: i.tax_rate === null || i.tax_rate === undefined ? '' : String(i.tax_rate),
    })),
    discount_type: d.discount?.type ?? '',
    discount_value: d.discount ? String(d.discount.value) : '',
    notes: d.notes ?? '',
    terms: d.terms ?? '',
  };
}

/** The builder's state as the body of POST /invoices (the shape billing_save_invoice takes). */
export function toInput(s: State, kind: Kind, forPreview = false): Record<string, unknown> {
  const items = s.items
    .filter((i) => !forPreview || (i.quantity.trim() !== '' && i.price.trim() !== ''))
    .map((i) => ({
      name: forPreview && !i.name.trim() ? '—' : i.name,
      description: i.description,
      quantity: i.quantity.trim(),
      price: i.price.trim(),
      // a unit changes no total: a half-typed code must not stop the live totals
      ...(!forPreview && i.unit.trim() ? { unit: i.unit.trim().toUpperCase() } : {}),
      taxable: i.taxable,
      ...(i.tax_rate.trim() ? { tax_rate: i.tax_rate.trim() } : {}),
    }));
  const out: Record<string, unknown> = { items, title: s.title, notes: s.notes, terms: s.terms, currency: s.currency.trim().toUpperCase() };
  if (s.client_id) out.client_id = s.client_id;
  // name and e-mail change no total: a half-typed address must not stop the live totals
  if (!forPreview && s.customer_name.trim()) out.customer_name = s.customer_name.trim();
  if (!forPreview && s.customer_email.trim()) out.customer_email = s.customer_email.trim();
  if (s.issue_date) out.issue_date = s.issue_date;
  if (s.due_date) out[kind === 'invoice' ? 'due_date' : 'expiry_date'] = s.due_date;
  // the period changes no total: a half-entered one must not stop the live totals
  if (kind === 'invoice' && !forPreview && s.period_start) out.period_start = s.period_start;
  if (kind === 'invoice' && !forPreview && s.period_end) out.period_end = s.period_end;
  // a schedule sums to the total: while it is being typed it must not stop the live totals
  if (kind === 'invoice' && !forPreview && s.schedule.length) {
    out.schedule = s.schedule.map((i) => {
      const typed = i.amount.trim();
      return typed.endsWith('%') ? { due_date: i.due_date, percent: typed.slice(0, -1).trim() } : { due_date: i.due_date, amount: typed };
    });
  }
  if (s.discount_type && s.discount_value.trim()) out.discount = { type: s.discount_type, value: s.discount_value.trim() };
  return out;
}

/** Field errors of `rest_invalid_param` (`items[0].price`, `customer_email`, …) under the builder's field ids. */
export function fieldErrors(e: unknown): Record<string, string> {
  if (!(e instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(e.params)) out[k.replace(/\[(\d+)\]\.?/g, '-$1-').replace(/-$/, '')] = v;
  return out;
}
