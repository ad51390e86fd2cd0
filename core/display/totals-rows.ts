import { isZero } from './format.ts';

/** What the rows are worded and printed with: a document's translator (core/i18n/translator.ts). */
export interface TotalsTexts {
  t(key: string, values?: Record<string, string>): string;
  money(amount: string, currency: string): string;
}

/** Which amount a totals row shows. */
export type TotalsRowKey = 'subtotal' | 'discount' | 'tax' | 'total' | 'paid' | 'credited' | 'due';

/** One row of a document's totals, as data: each renderer (PDF, public page, mail) draws it its own way. */
export interface TotalsRow {
  key: TotalsRowKey;
  /** What the row reads, final text (`Subtotal`, `Tax 19 % on €100.00`, `Amount due`). */
  label: string;
  /** Exact decimal text as stored, never negative; format it with `formatMoney` in the document's currency. */
  amount: string;
  /** Taken off what comes before it (discount, paid, credited): a renderer may print it with a minus. */
  deducted: boolean;
  /** The total and the amount due: the rows a renderer makes stand out. */
  grand: boolean;
}

/** What the rows are made from: a document's stored totals and its tax per rate, labelled. */
export interface TotalsSource {
  currency: string;
  totals: { subtotal: string; discount: string; tax: string; total: string; paid: string; credited: string; due: string };
  /** Tax per category and rate (`label` as `breakdownLabel` writes it); more than one line shows a row each. */
  taxLines: readonly { label: string; basis: string; tax: string }[];
}

export interface TotalsRowsOptions {
  /** The paid, credited and due rows: an invoice's (paid and credited only when not zero). */
  settlement: boolean;
  /** The single tax row's label; `Tax` in the document's language unless given. */
  taxLabel?: string;
  /** The total row's label; `Total` unless given (a credit note's PDF reads `Credit total`). */
  totalLabel?: string;
  /** The document's language. */
  texts: TotalsTexts;
  /** Leave out a single tax row that is zero (the mails do; a document shows it). */
  hideZeroTax?: boolean;
}

/**
 * The totals of an invoice, quote or credit note, in order: subtotal, discount (when not zero), tax (per
 * rate when there are several rates), total, then for an invoice paid and credited (when not zero) and
 * the amount due. The one place that decides the labels and which rows show.
 */
export function totalsRows(doc: TotalsSource, o: TotalsRowsOptions): TotalsRow[] {
  const t = doc.totals;
  const row = (key: TotalsRowKey, label: string, amount: string): TotalsRow => ({
    key,
    label,
    amount,
    deducted: key === 'discount' || key === 'paid' || key === 'credited',
    grand: key === 'total' || key === 'due',
  });
  const x = o.texts;
  const rows = [row('subtotal', x.t('totals.subtotal'), t.subtotal)];
  if (!isZero(t.discount)) rows.push(row('discount', x.t('totals.discount'), t.discount));
  if (doc.taxLines.length > 1) {
    for (const line of doc.taxLines)
      rows.push(row('tax', x.t('totals.tax_on', { label: line.label, basis: x.money(line.basis, doc.currency) }), line.tax));
  } else if (!(o.hideZeroTax && isZero(t.tax))) {
    rows.push(row('tax', o.taxLabel ?? x.t('totals.tax'), t.tax));
  }
  rows.push(row('total', o.totalLabel ?? x.t('totals.total'), t.total));
  if (o.settlement) {
    if (!isZero(t.paid)) rows.push(row('paid', x.t('totals.paid'), t.paid));
    if (!isZero(t.credited)) rows.push(row('credited', x.t('totals.credited'), t.credited));
    rows.push(row('due', x.t('document.amount_due'), t.due));
  }
  return rows;
}
