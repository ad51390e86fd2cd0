import { allocateLargestRemainder } from './allocation.ts';
import { type CurrencyCode, isCurrency, minorUnits } from './currencies.ts';
import { Decimal, type DecimalInput, divideRounded, formatUnits, pow10 } from './decimal.ts';
import { CurrencyMismatchError, InvalidAmountError } from './errors.ts';

/** A weight for `Money.allocate`: an amount of the same currency, or any non-negative decimal. */
export type AllocationWeight = Money | DecimalInput;

/**
 * An amount of money: an integer count of the currency's minor units (cents for USD, yen for JPY, fils
 * for KWD) held as a bigint, so arithmetic is exact and never touches binary floating point. Immutable;
 * every operation returns a new Money. Operations between two currencies throw `CurrencyMismatchError`.
 *
 * Rounding to the minor unit happens only where a value is made from a finer decimal (`fromDecimal`,
 * `times`, `percent`), always half away from zero (docs/documents.md).
 */
export class Money {
  /** The amount in minor units: `1234n` with USD is 12.34. */
  readonly minor: bigint;
  readonly currency: CurrencyCode;

  private constructor(minor: bigint, currency: CurrencyCode) {
    this.minor = minor;
    this.currency = currency;
  }

  /** Zero in `currency`. */
  static zero(currency: CurrencyCode): Money {
    return new Money(0n, checkedCurrency(currency));
  }

  /** From a count of minor units (a bigint, or a safe integer number). */
  static fromMinor(minor: bigint | number, currency: CurrencyCode): Money {
    if (typeof minor === 'number' && !Number.isSafeInteger(minor)) {
      throw new RangeError(`Minor units must be a safe integer, got ${minor}.`);
    }
    return new Money(BigInt(minor), checkedCurrency(currency));
  }

  /**
   * Reads an amount exactly — a JSON number, or a decimal string such as PostgreSQL returns for
   * `numeric` — refusing more decimals than the currency has (`12.345` USD, `10.5` JPY) with
   * `InvalidAmountError` (400 `rest_invalid_param` on `param`). Trailing zeros are fine (`'12.3000'`).
   */
  static parse(input: unknown, currency: CurrencyCode, param = 'amount'): Money {
    const digits = minorUnits(checkedCurrency(currency));
    let value: Decimal;
    try {
      // 15 significant digits in all keeps every amount exactly representable as a JSON number.
      value = Decimal.parse(input, { maxDecimals: digits, maxIntegerDigits: 15 - digits, param });
    } catch (e) {
      if (e instanceof InvalidAmountError && e.problem === 'too_many_decimals') {
        throw new InvalidAmountError(
          param,
          e.problem,
          digits === 0
            ? `${param} must be a whole number in ${currency}.`
            : `${param} must have at most ${digits} decimals in ${currency}.`,
        );
      }
      throw e;
    }
    return new Money(value.unitsAt(digits), currency);
  }

  /** An exact decimal rounded half away from zero to the currency's minor unit. */
  static fromDecimal(value: DecimalInput, currency: CurrencyCode): Money {
    const digits = minorUnits(checkedCurrency(currency));
    const d = Decimal.from(value);
    const minor = d.scale <= digits ? d.unitsAt(digits) : divideRounded(d.coefficient, pow10(d.scale - digits));
    return new Money(minor, currency);
  }

  /** Σ amounts; zero for an empty list. */
  static sum(amounts: Iterable<Money>, currency: CurrencyCode): Money {
    let total = Money.zero(currency);
    for (const a of amounts) total = total.plus(a);
    return total;
  }

  static max(a: Money, b: Money): Money {
    return a.compare(b) >= 0 ? a : b;
  }

  static min(a: Money, b: Money): Money {
    return a.compare(b) <= 0 ? a : b;
  }

  /** Decimals of this currency's minor unit. */
  get decimals(): number {
    return minorUnits(this.currency);
  }

  plus(other: Money): Money {
    return new Money(this.minor + this.same(other).minor, this.currency);
  }

  minus(other: Money): Money {
    return new Money(this.minor - this.same(other).minor, this.currency);
  }

  /** This amount times an exact decimal factor (a quantity, a ratio), rounded half away from zero. */
  times(factor: DecimalInput): Money {
    const f = Decimal.from(factor, 'factor');
    return new Money(divideRounded(this.minor * f.coefficient, pow10(f.scale)), this.currency);
  }

  /** `percent` % of this amount (`percent` = 12.5 means 12.5 %), rounded half away from zero. */
  percent(percent: DecimalInput): Money {
    const p = Decimal.from(percent, 'percent');
    return new Money(divideRounded(this.minor * p.coefficient, 100n * pow10(p.scale)), this.currency);
  }

  negate(): Money {
    return new Money(-this.minor, this.currency);
  }

  abs(): Money {
    return this.minor < 0n ? this.negate() : this;
  }

  isZero(): boolean {
    return this.minor === 0n;
  }

  isNegative(): boolean {
    return this.minor < 0n;
  }

  isPositive(): boolean {
    return this.minor > 0n;
  }

  /** −1, 0 or 1 as this is below, equal to or above `other` (same currency). */
  compare(other: Money): -1 | 0 | 1 {
    const o = this.same(other).minor;
    return this.minor === o ? 0 : this.minor < o ? -1 : 1;
  }

  /** Same currency and same amount (never throws). */
  equals(other: Money): boolean {
    return this.currency === other.currency && this.minor === other.minor;
  }

  lessThan(other: Money): boolean {
    return this.compare(other) < 0;
  }

  lessThanOrEqual(other: Money): boolean {
    return this.compare(other) <= 0;
  }

  greaterThan(other: Money): boolean {
    return this.compare(other) > 0;
  }

  greaterThanOrEqual(other: Money): boolean {
    return this.compare(other) >= 0;
  }

  /**
   * Splits this amount over `weights` in proportion, by the largest-remainder method: the shares are
   * whole minor units and sum exactly to this amount (see `allocateLargestRemainder` for the tie rule).
   */
  allocate(weights: readonly AllocationWeight[]): Money[] {
    const decimals = weights.map((w) => (w instanceof Money ? this.same(w).toDecimal() : Decimal.from(w, 'weight')));
    const scale = Math.max(0, ...decimals.map((d) => d.scale));
    const shares = allocateLargestRemainder(
      this.minor,
      decimals.map((d) => d.unitsAt(scale)),
    );
    return shares.map((minor) => new Money(minor, this.currency));
  }

  /** The exact decimal value (`12.34`). */
  toDecimal(): Decimal {
    return Decimal.of(this.minor, this.decimals);
  }

  /** Fixed notation with the currency's decimals: `'12.30'`, `'1000'` (JPY), `'0.125'` (KWD). */
  toString(): string {
    return formatUnits(this.minor, this.decimals);
  }

  /**
   * The amount as a JSON number, at the minor unit (12.3 for 12.30 USD). Exact for any amount below
   * 2^53 minor units, far beyond any invoice.
   */
  toNumber(): number {
    return Number(this.toString());
  }

  toJSON(): number {
    return this.toNumber();
  }

  private same(other: Money): Money {
    if (other.currency !== this.currency) throw new CurrencyMismatchError(this.currency, other.currency);
    return other;
  }
}

function checkedCurrency(currency: string): CurrencyCode {
  if (!isCurrency(currency)) {
    throw new InvalidAmountError('currency', 'unknown_currency', `${JSON.stringify(currency)} is not an ISO 4217 currency code.`);
  }
  return currency;
}
