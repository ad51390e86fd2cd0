import { allocateLargestRemainder } from './allocation.ts';
import { type CurrencyCode, isCurrency } from './currencies.ts';
import { Decimal, type DecimalInput } from './decimal.ts';
import { CurrencyMismatchError, DiscountExceedsSubtotalError, InvalidAmountError } from './errors.ts';
import { Money } from './money.ts';
import { RECEIVED_PAYMENT_STATUSES } from '../payments/statuses.ts';

/** Most decimals in an item's quantity or price, and in a percentage (docs/api.md). */
export const LINE_DECIMALS = 4;

// Beyond 2^53 − 1 minor units an amount has no exact JSON number.
const MAX_SAFE_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

/** One item of a document. `quantity` > 0 and `price` ≥ 0, each with at most 4 decimals. */
export interface LineInput {
  quantity: DecimalInput;
  price: DecimalInput;
  taxable: boolean;
  /**
   * Percent this taxable line is taxed at, overriding the document's `taxRate` (0–100, at most 4
   * decimals). Absent or null: the document's rate. Refused on a line that is not taxable.
   */
  taxRate?: DecimalInput | null;
}

/** The document's `discount` field: a percentage of the subtotal, or a fixed amount. */
export interface DiscountInput {
  type: 'percent' | 'fixed';
  value: DecimalInput;
}

/**
 * A payment as recorded (docs/documents.md). Its `amount` counts towards `paid` when its status is
 * `completed` or `refunded`; `refunded` (the amount refunded so far) is taken off again.
 */
export interface PaymentInput {
  amount: DecimalInput;
  status: string;
  refunded?: DecimalInput | null;
  currency?: string;
}

export interface CreditNoteInput {
  amount: DecimalInput;
  currency?: string;
}

export interface TotalsInput {
  currency: CurrencyCode;
  items: readonly LineInput[];
  discount?: DiscountInput | null;
  /** Percent applied to the taxable lines (the tax treatment's rate); default 0. */
  taxRate?: DecimalInput;
  payments?: readonly PaymentInput[];
  creditNotes?: readonly CreditNoteInput[];
}

export interface LineTotals {
  quantity: Decimal;
  price: Decimal;
  /** quantity × price, rounded half away from zero to the minor unit. */
  amount: Money;
  /** This line's share of the document discount. */
  discount: Money;
  taxable: boolean;
  /** The percentage this line is taxed at: its own rate or the document's; 0 when not taxable. */
  taxRate: Decimal;
}

/**
 * The lines taxed alike: every taxable line at one rate, or all the non-taxable lines. Each group's tax
 * is its basis × its rate, rounded once for the group (EN 16931 BR-CO-17's "VAT category tax amount").
 */
export interface TaxGroup {
  taxable: boolean;
  /** The group's percentage; 0 for the non-taxable group. */
  rate: Decimal;
  /** Σ line amounts of the group, before discount. */
  amount: Money;
  /** Σ the group's lines' discount shares. */
  discount: Money;
  /** amount − discount: what the rate applies to. */
  basis: Money;
  /** basis × rate, rounded half away from zero to the minor unit, once. */
  tax: Money;
  /** Indices of the group's lines, in input order. */
  lines: number[];
}

/** The `totals` object of the REST representation, and each item's `amount`, as JSON numbers. */
export interface TotalsJson {
  totals: {
    subtotal: number;
    discount: number;
    tax: number;
    total: number;
    paid: number;
    credited: number;
    due: number;
  };
  items: { amount: number }[];
}

export interface DocumentTotals {
  currency: CurrencyCode;
  /** In the order of the input items. */
  lines: LineTotals[];
  subtotal: Money;
  discount: Money;
  /** Σ (amount − discount share) over the taxable lines: what the rates apply to. */
  taxableAmount: Money;
  /** The document's percentage (lines without their own rate). */
  taxRate: Decimal;
  /**
   * One group per rate of the taxable lines (highest rate first), then the non-taxable lines' group;
   * groups without lines are left out. Σ group tax = `tax`.
   */
  taxGroups: TaxGroup[];
  /** Σ group taxes. */
  tax: Money;
  total: Money;
  paid: Money;
  credited: Money;
  due: Money;
  /** The same values ready for a representation, rounded to the minor unit. */
  json: TotalsJson;
}

/**
 * The totals of a document exactly as docs/documents.md defines them:
 * - line `amount` = quantity × price, rounded half away from zero to the minor unit;
 * - `subtotal` = Σ amounts;
 * - `discount` = percent of the subtotal (rounded likewise) or a fixed amount never above the subtotal,
 *   spread over the lines in proportion to their amounts by largest remainder, so the shares sum
 *   exactly to the discount (equal remainders go to taxable lines first, so nothing depends on the
 *   order of the items);
 * - tax per rate group: each taxable line is taxed at its own `taxRate` or the document's; the lines of
 *   one rate form a group whose tax = rate × Σ (amount − discount share), rounded once for the group;
 *   `tax` = Σ group taxes. With one rate (no line rates) this is the contract's "rounded once at
 *   document level";
 * - `total` = subtotal − discount + tax;
 * - `paid` = Σ completed payments − Σ refunds; `credited` = Σ credit notes;
 * - `due` = max(0, total − paid − credited).
 *
 * Pure. Throws `InvalidAmountError` (400 `rest_invalid_param`) for an unusable item, discount or rate,
 * `DiscountExceedsSubtotalError` (the same 400, on `discount`) for a fixed discount above the subtotal,
 * and `CurrencyMismatchError` for a payment or credit note in another currency.
 */
export function computeTotals(input: TotalsInput): DocumentTotals {
  const { currency } = input;
  if (!isCurrency(currency)) {
    throw new InvalidAmountError('currency', 'unknown_currency', `${JSON.stringify(currency)} is not an ISO 4217 currency code.`);
  }

  const taxRate = parseRate(input.taxRate ?? 0, 'tax_rate', 'tax_rate');
  const parsed = input.items.map((item, i) => {
    const quantity = parseLineNumber(item.quantity, `items[${i}].quantity`);
    const price = parseLineNumber(item.price, `items[${i}].price`);
    if (quantity.sign() <= 0) throw new InvalidAmountError('items', 'not_positive', `items[${i}].quantity must be greater than 0.`);
    if (price.sign() < 0) throw new InvalidAmountError('items', 'negative', `items[${i}].price must not be negative.`);
    const taxable = item.taxable === true;
    const own = item.taxRate === undefined || item.taxRate === null ? null : parseRate(item.taxRate, 'items', `items[${i}].tax_rate`);
    if (own !== null && !taxable) {
      throw new InvalidAmountError('items', 'not_taxable', `items[${i}].tax_rate is set on an item that is not taxable.`);
    }
    const lineRate = taxable ? (own ?? taxRate) : Decimal.ZERO;
    return { quantity, price, amount: lineAmount(quantity, price, currency), taxable, taxRate: lineRate };
  });

  const subtotal = Money.sum(
    parsed.map((l) => l.amount),
    currency,
  );
  const discount = discountAmount(input.discount ?? null, subtotal);

  const taxableFirst = (a: number, b: number) => Number(parsed[b]!.taxable) - Number(parsed[a]!.taxable);
  const shares = allocateLargestRemainder(
    discount.minor,
    parsed.map((l) => l.amount.minor),
    taxableFirst,
  ).map((minor) => Money.fromMinor(minor, currency));
  const lines: LineTotals[] = parsed.map((l, i) => ({ ...l, discount: shares[i]! }));

  const taxGroups = groupLines(lines, currency);
  const taxableAmount = Money.sum(
    taxGroups.filter((g) => g.taxable).map((g) => g.basis),
    currency,
  );
  const tax = Money.sum(
    taxGroups.map((g) => g.tax),
    currency,
  );
  const total = subtotal.minus(discount).plus(tax);
  if (subtotal.minor > MAX_SAFE_MINOR || total.minor > MAX_SAFE_MINOR) {
    throw new InvalidAmountError('items', 'too_large', 'The document total is too large.');
  }

  const paid = paidAmount(input.payments ?? [], currency);
  const credited = Money.sum(
    (input.creditNotes ?? []).map((c, i) => amountOf(c, currency, `credit_notes[${i}].amount`)),
    currency,
  );
  const due = Money.max(Money.zero(currency), total.minus(paid).minus(credited));

  return {
    currency,
    lines,
    subtotal,
    discount,
    taxableAmount,
    taxRate,
    taxGroups,
    tax,
    total,
    paid,
    credited,
    due,
    json: {
      totals: {
        subtotal: subtotal.toNumber(),
        discount: discount.toNumber(),
        tax: tax.toNumber(),
        total: total.toNumber(),
        paid: paid.toNumber(),
        credited: credited.toNumber(),
        due: due.toNumber(),
      },
      items: lines.map((l) => ({ amount: l.amount.toNumber() })),
    },
  };
}

/** quantity × price, rounded half away from zero to the currency's minor unit. */
export function lineAmount(quantity: DecimalInput, price: DecimalInput, currency: CurrencyCode): Money {
  return Money.fromDecimal(Decimal.from(quantity, 'quantity').times(Decimal.from(price, 'price')), currency);
}

/**
 * The discount of a document with this subtotal: a percentage (0–100, at most 4 decimals) of it rounded
 * half away from zero, or a fixed amount (≥ 0, in the currency's minor units) that must not exceed it.
 * `null` is no discount. Throws `InvalidAmountError` / `DiscountExceedsSubtotalError` on `discount`.
 */
export function discountAmount(discount: DiscountInput | null, subtotal: Money): Money {
  if (discount === null) return Money.zero(subtotal.currency);
  if (typeof discount !== 'object' || (discount.type !== 'percent' && discount.type !== 'fixed')) {
    throw new InvalidAmountError('discount', 'invalid_discount', 'discount must be {"type": "percent" or "fixed", "value": number}.');
  }
  if (discount.type === 'percent') {
    const percent = Decimal.parse(discount.value, { maxDecimals: LINE_DECIMALS, param: 'discount' });
    if (percent.sign() < 0) throw new InvalidAmountError('discount', 'negative', 'discount must not be negative.');
    if (percent.compare(Decimal.HUNDRED) > 0) {
      throw new InvalidAmountError('discount', 'above_maximum', 'A percent discount must be at most 100.');
    }
    return subtotal.percent(percent);
  }
  const fixed = Money.parse(discount.value, subtotal.currency, 'discount');
  if (fixed.isNegative()) throw new InvalidAmountError('discount', 'negative', 'discount must not be negative.');
  if (fixed.greaterThan(subtotal)) {
    throw new DiscountExceedsSubtotalError(
      `The fixed discount (${fixed} ${fixed.currency}) is above the subtotal (${subtotal} ${subtotal.currency}).`,
    );
  }
  return fixed;
}

/** Σ received payments − Σ refunds (docs/documents.md). */
export function paidAmount(payments: readonly PaymentInput[], currency: CurrencyCode): Money {
  let paid = Money.zero(currency);
  payments.forEach((p, i) => {
    if (!(RECEIVED_PAYMENT_STATUSES as readonly string[]).includes(p.status)) return;
    const amount = amountOf(p, currency, `payments[${i}].amount`);
    const refunded = p.refunded == null ? Money.zero(currency) : Money.parse(p.refunded, currency, `payments[${i}].refunded`);
    if (amount.isNegative() || refunded.isNegative() || refunded.greaterThan(amount)) {
      throw new RangeError(`Payment ${i} has amount ${amount} and refunded ${refunded}: refunds must lie between 0 and the amount.`);
    }
    paid = paid.plus(amount).minus(refunded);
  });
  return paid;
}

function amountOf(record: { amount: DecimalInput; currency?: string }, currency: CurrencyCode, param: string): Money {
  if (record.currency !== undefined && record.currency !== currency) throw new CurrencyMismatchError(currency, record.currency);
  return Money.parse(record.amount, currency, param);
}

function parseLineNumber(value: DecimalInput, name: string): Decimal {
  try {
    return Decimal.parse(value, { maxDecimals: LINE_DECIMALS, param: name });
  } catch (e) {
    // Report under the top-level parameter, naming the item in the message.
    if (e instanceof InvalidAmountError) throw new InvalidAmountError('items', e.problem, e.message);
    throw e;
  }
}

/** A percentage 0–100 with at most 4 decimals; errors on `param`, naming `name` in the message. */
function parseRate(value: DecimalInput, param: string, name: string): Decimal {
  let rate: Decimal;
  try {
    rate = Decimal.parse(value, { maxDecimals: LINE_DECIMALS, param: name });
  } catch (e) {
    if (e instanceof InvalidAmountError && param !== name) throw new InvalidAmountError(param, e.problem, e.message);
    throw e;
  }
  if (rate.sign() < 0) throw new InvalidAmountError(param, 'negative', `${name} must not be negative.`);
  if (rate.compare(Decimal.HUNDRED) > 0) throw new InvalidAmountError(param, 'above_maximum', `${name} must be at most 100.`);
  return rate;
}

/**
 * The lines grouped by how they are taxed: taxable lines by rate (highest first), then the non-taxable
 * ones. Each group's tax is rounded once. The grouping depends on the lines' rates only, never on their
 * order.
 */
function groupLines(lines: readonly LineTotals[], currency: CurrencyCode): TaxGroup[] {
  const byKey = new Map<string, { taxable: boolean; rate: Decimal; lines: number[] }>();
  lines.forEach((l, i) => {
    const key = l.taxable ? `t${l.taxRate}` : 'x';
    const group = byKey.get(key) ?? { taxable: l.taxable, rate: l.taxRate, lines: [] };
    group.lines.push(i);
    byKey.set(key, group);
  });
  const groups = [...byKey.values()].map((g): TaxGroup => {
    const amount = Money.sum(
      g.lines.map((i) => lines[i]!.amount),
      currency,
    );
    const discount = Money.sum(
      g.lines.map((i) => lines[i]!.discount),
      currency,
    );
    const basis = amount.minus(discount);
    return { ...g, amount, discount, basis, tax: g.taxable ? basis.percent(g.rate) : Money.zero(currency) };
  });
  return groups.sort((a, b) => (a.taxable !== b.taxable ? (a.taxable ? -1 : 1) : b.rate.compare(a.rate)));
}
