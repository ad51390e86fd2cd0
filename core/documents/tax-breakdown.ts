import { computeTotals, isCurrency } from '../money/index.ts';
import { taxBreakdown, type TaxBreakdownEntry } from '../tax/index.ts';
import type { DocumentItem } from './types.ts';

/** What a document's breakdown is computed from. */
export interface BreakdownSource {
  currency: string;
  items: readonly DocumentItem[];
  discount: { type: 'percent' | 'fixed'; value: string } | null;
  tax: { category: string; statement: string; rate: string };
}

/**
 * The breakdown of a document stored before breakdowns were (`tax_breakdown` null): recomputed from its
 * items, discount and single rate exactly as its totals were computed then. Non-taxable items of such a
 * document had no stated reason, so their group has none.
 */
export function derivedBreakdown(doc: BreakdownSource): TaxBreakdownEntry[] {
  // rows selected without their items (a dashboard's short list) have no breakdown to derive
  if (!isCurrency(doc.currency) || !Array.isArray(doc.items)) return [];
  const totals = computeTotals({
    currency: doc.currency,
    items: doc.items.map((i) => ({ quantity: i.quantity, price: i.price, taxable: i.taxable, taxRate: i.tax_rate ?? null })),
    discount: doc.discount,
    taxRate: doc.tax.rate,
  });
  return taxBreakdown({ treatment: doc.tax, groups: totals.taxGroups, exemptItemsStatement: '' });
}
