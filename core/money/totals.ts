import { allocateLargestRemainder } from './allocation.ts';
import { type CurrencyCode, isCurrency } from './currencies.ts';
import { Decimal, type DecimalInput } from './decimal.ts';
import { CurrencyMismatchError, DiscountExceedsSubtotalError, InvalidAmountError } from './errors.ts';
import { Money } from './money.ts';

/** Most decimals in an item's quantity or price, and in a percentage (contract §4). */
export const LINE_DECIMALS = 4;

// Beyond 2^53 − 1 minor units an amount has no exact JSON number.
const MAX_SAFE_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

/** Payment statuses whose money was received: `refunded` is a completed payment refunded in full. */
export const RECEIVED_PAYMENT_STATUSES: readonly string[] = Object.freeze(['completed', 'refunded']);

/** One item of a document. `quantity` > 0 and `price` ≥ 0, each with at most 4 decimals. */
export interface LineInput {
  quantity: DecimalInput;
  price: DecimalInput;
  taxable: boolean;
}

/** The document's `discount` field: a percentage of the subtotal, or a fixed amount. */
export interface DiscountInput {
  type: 'percent' | 'fixed';
  value: DecimalInput;
}

/**
 * A payment as recorded (contract §5). Its `amount` counts towards `paid` when its status is
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
  /** Σ (amount − discount share) over the taxable lines: what the rate applies to. */
  taxableAmount: Money;
  /** The percentage applied. */
  taxRate: Decimal;
  tax: Money;
  total: Money;
  paid: Money;
  credited: Money;
  due: Money;
  /** The same values ready for a representation, rounded to the minor unit. */
  json: TotalsJson;
}

/**
 * The totals of a document exactly as contract §5 defines them:
 * - line `amount` = quantity × price, rounded half away from zero to the minor unit;
 * - `subtotal` = Σ amounts;
 * - `discount` = percent of the subtotal (rounded likewise) or a fixed amount never above the subtotal,
 *   spread over the lines in proportion to their amounts by largest remainder, so the shares sum
 *   exactly to the discount (equal remainders go to taxable lines first, so nothing depends on the
 *   order of the items);
 * - `tax` = rate × Σ (taxable amount − its discount share), rounded once for the document;
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

  const parsed = input.items.map((item, i) => {
    const quantity = parseLineNumber(item.quantity, `items[${i}].quantity`);
    const price = parseLineNumber(item.price, `items[${i}].price`);
    if (quantity.sign() <= 0) throw new InvalidAmountError('items', 'not_positive', `items[${i}].quantity must be greater than 0.`);
    if (price.sign() < 0) throw new InvalidAmountError('items', 'negative', `items[${i}].price must not be negative.`);
    return { quantity, price, amount: lineAmount(quantity, price, currency), taxable: item.taxable === true };
  });

  const subtotal = Money.sum(parsed.map((l) => l.amount), currency);
  const discount = discountAmount(input.discount ?? null, subtotal);

  const taxableFirst = (a: number, b: number) => Number(parsed[b]!.taxable) - Number(parsed[a]!.taxable);
  const shares = allocateLargestRemainder(discount.minor, parsed.map((l) => l.amount.minor), taxableFirst)
    .map((minor) => Money.fromMinor(minor, currency));
  const lines: LineTotals[] = parsed.map((l, i) => ({ ...l, discount: shares[i]! }));

  const taxRate = parseRate(input.taxRate ?? 0);
  const taxableAmount = Money.sum(lines.filter((l) => l.taxable).map((l) => l.amount.minus(l.discount)), currency);
  const tax = taxableAmount.percent(taxRate);
  const total = subtotal.minus(discount).plus(tax);
  if (subtotal.minor > MAX_SAFE_MINOR || total.minor > MAX_SAFE_MINOR) {
    throw new InvalidAmountError('items', 'too_large', 'The document total is too large.');
  }

  const paid = paidAmount(input.payments ?? [], currency);
  const credited = Money.sum((input.creditNotes ?? []).map((c, i) => amountOf(c, currency, `credit_notes[${i}].amount`)), currency);
  const due = Money.max(Money.zero(currency), total.minus(paid).minus(credited));

  return {
    currency, lines, subtotal, discount, taxableAmount, taxRate, tax, total, paid, credited, due,
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
      `The fixed discount (${fixed} ${fixed.currency}) is above the subtotal (${subtotal} ${subtotal.currency}).`);
  }
  return fixed;
}

/** Σ received payments − Σ refunds (contract §5). */
export function paidAmount(payments: readonly PaymentInput[], currency: CurrencyCode): Money {
  let paid = Money.zero(currency);
  payments.forEach((p, i) => {
    if (!RECEIVED_PAYMENT_STATUSES.includes(p.status)) return;
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

function parseRate(value: DecimalInput): Decimal {
  const rate = Decimal.parse(value, { maxDecimals: LINE_DECIMALS, param: 'tax_rate' });
  if (rate.sign() < 0) throw new InvalidAmountError('tax_rate', 'negative', 'tax_rate must not be negative.');
  if (rate.compare(Decimal.HUNDRED) > 0) throw new InvalidAmountError('tax_rate', 'above_maximum', 'tax_rate must be at most 100.');
  return rate;
}
