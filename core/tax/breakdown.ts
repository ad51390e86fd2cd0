import { Decimal } from '../money/decimal.ts';
import { Money } from '../money/money.ts';
import type { TaxGroup } from '../money/totals.ts';
import type { TaxCategory } from './treatment.ts';

/**
 * EN 16931 VAT category codes (UNTDID 5305, BT-118 / BT-151) that a document of this service can carry:
 * `S` standard rate, `Z` zero rated (a taxable line at 0 %), `E` exempt, `AE` reverse charge, `G` export
 * outside the EU (free export item, tax not charged).
 */
export type VatCategoryCode = 'S' | 'Z' | 'E' | 'AE' | 'G';

/** One line of a document's tax breakdown: the lines taxed alike, and what they come to. */
export interface TaxBreakdownEntry {
  category: VatCategoryCode;
  /** Percent, exact decimal text (`"19"`, `"5.5"`); `"0"` for every category but `S`. */
  rate: string;
  /** Σ the lines' amounts, before the discount; exact decimal text in the document's currency. */
  amount: string;
  /** Σ the lines' discount shares. */
  discount: string;
  /** amount − discount: what the rate applies to (BT-116). */
  basis: string;
  /** basis × rate, rounded once for the group (BT-117). */
  tax: string;
  /** Why no tax is charged (BT-120): the treatment's statement for `E`, `AE`, `G`; empty for `S` and `Z`. */
  statement: string;
}

/** What decides the categories: the document's tax treatment, and the reason given for non-taxable items. */
export interface BreakdownInput {
  treatment: { category: string; statement: string };
  /** The rate groups of `computeTotals`. */
  groups: readonly TaxGroup[];
  /**
   * Option `tax_exempt_items_statement`: the reason non-taxable items of a taxed document carry no tax
   * (they form the `E` group). May be empty; an e-invoice then lacks the reason and is refused.
   */
  exemptItemsStatement: string;
}

/**
 * The category of a line: a document that is not taxed as `standard` puts every line in its treatment's
 * category (reverse charge `AE`, export `G`, exempt `E`); a standard document puts taxable lines in `S`
 * (or `Z` at 0 %) and the others in `E`.
 */
export function vatCategory(treatment: string, taxable: boolean, rate: Decimal): VatCategoryCode {
  const fixed = TREATMENT_CATEGORY[treatment as TaxCategory];
  if (fixed) return fixed;
  if (!taxable) return 'E';
  return rate.isZero() ? 'Z' : 'S';
}

const TREATMENT_CATEGORY: Partial<Record<TaxCategory, VatCategoryCode>> = { reverse_charge: 'AE', export: 'G', exempt: 'E' };

/**
 * The breakdown per category and rate (EN 16931 BG-23): the rate groups of the totals, named by their
 * category, with groups of one category and rate merged (a reverse-charged document's taxable and
 * non-taxable lines are one `AE` group). Taxed categories first, highest rate first, in a fixed order.
 */
export function taxBreakdown(input: BreakdownInput): TaxBreakdownEntry[] {
  const { treatment } = input;
  const merged = new Map<string, { category: VatCategoryCode; rate: Decimal; amount: Money; discount: Money; tax: Money }>();
  for (const g of input.groups) {
    const category = vatCategory(treatment.category, g.taxable, g.rate);
    const rate = category === 'S' ? g.rate : Decimal.ZERO;
    const key = `${category}|${rate}`;
    const was = merged.get(key);
    merged.set(
      key,
      was
        ? { ...was, amount: was.amount.plus(g.amount), discount: was.discount.plus(g.discount), tax: was.tax.plus(g.tax) }
        : { category, rate, amount: g.amount, discount: g.discount, tax: g.tax },
    );
  }
  const order: VatCategoryCode[] = ['S', 'Z', 'AE', 'G', 'E'];
  return [...merged.values()]
    .sort((a, b) => order.indexOf(a.category) - order.indexOf(b.category) || b.rate.compare(a.rate))
    .map((e) => ({
      category: e.category,
      rate: e.rate.toString(),
      amount: e.amount.toString(),
      discount: e.discount.toString(),
      basis: e.amount.minus(e.discount).toString(),
      tax: e.tax.toString(),
      statement: statementFor(e.category, treatment, input.exemptItemsStatement),
    }));
}

function statementFor(category: VatCategoryCode, treatment: { category: string; statement: string }, exemptItems: string): string {
  if (category === 'S' || category === 'Z') return '';
  if (category === 'E' && treatment.category !== 'exempt') return exemptItems.trim();
  return treatment.statement.trim();
}

/** A breakdown entry as the REST representation shows it: amounts as JSON numbers at the minor unit. */
export function breakdownJson(entries: readonly TaxBreakdownEntry[]) {
  return entries.map((e) => ({
    category: e.category,
    rate: Number(e.rate),
    taxable_amount: Number(e.basis),
    tax: Number(e.tax),
    exemption_reason: e.statement,
  }));
}

/** One part of a credit note: the share of one category and rate of the invoice it credits. */
export interface CreditPart {
  entry: TaxBreakdownEntry;
  net: Money;
  tax: Money;
}

/**
 * Splits a credited amount over the invoice's categories and rates in proportion to what each came to
 * with its tax (largest remainder, so the parts sum exactly to the amount), then each part into net and
 * tax in the proportion of that group. A credit note thus restates the invoice's breakdown in small;
 * parts of nothing are left out. `amount` is in the invoice's currency.
 */
export function creditParts(amount: Money, invoice: readonly TaxBreakdownEntry[]): CreditPart[] {
  const c = amount.currency;
  const gross = invoice.map((e) => Money.parse(e.basis, c).plus(Money.parse(e.tax, c)));
  if (!invoice.length || gross.every((g) => g.isZero())) {
    const entry: TaxBreakdownEntry = { category: 'E', rate: '0', amount: '', discount: '', basis: '', tax: '', statement: '' };
    return [finish(entry, amount, Money.zero(c))];
  }
  const shares = amount.allocate(gross);
  const parts: CreditPart[] = [];
  invoice.forEach((e, i) => {
    const share = shares[i]!;
    if (share.isZero()) return;
    const [net, tax] = share.allocate([Money.parse(e.basis, c), Money.parse(e.tax, c)]) as [Money, Money];
    parts.push(finish(e, net, tax));
  });
  return parts;
}

function finish(e: TaxBreakdownEntry, net: Money, tax: Money): CreditPart {
  const zero = Money.zero(net.currency).toString();
  return { net, tax, entry: { ...e, amount: net.toString(), discount: zero, basis: net.toString(), tax: tax.toString() } };
}

const CATEGORY_KEY: Record<VatCategoryCode, string> = {
  S: 'tax.rate',
  Z: 'tax.rate',
  E: 'tax.line_exempt',
  AE: 'tax.reverse_charge',
  G: 'tax.export',
};

/**
 * The label of a breakdown line on pages, PDFs and mails, in the document's language: `Tax 19 %`,
 * `Tax 0 %`, `Exempt`, `Reverse charge`, `Export` (`MwSt. 19 %` in `de`). Surfaces show one line per
 * entry when a document has more than one.
 */
export function breakdownLabel(
  e: Pick<TaxBreakdownEntry, 'category' | 'rate'>,
  texts: { t(key: string, values?: Record<string, string>): string },
): string {
  const key = CATEGORY_KEY[e.category];
  return key ? texts.t(key, { rate: e.rate }) : e.category;
}

/**
 * The statements a document prints: its treatment's, and the reason its non-taxable items carry no tax
 * when it has both taxed and exempt lines (each once).
 */
export function taxStatements(doc: { tax: { statement: string }; taxBreakdown: readonly TaxBreakdownEntry[] }): string[] {
  return [...new Set([doc.tax.statement, ...doc.taxBreakdown.map((e) => e.statement)].map((t) => t.trim()).filter(Boolean))];
}
