import { InvalidAmountError } from './errors.ts';

/** Anything that denotes an exact decimal: a `Decimal`, a JSON number, a decimal string, a bigint. */
export type DecimalInput = Decimal | number | string | bigint;

export interface DecimalParseOptions {
  /** Most digits allowed after the point (trailing zeros do not count: `'1.50'` has 1). Default 20. */
  maxDecimals?: number;
  /**
   * Most digits allowed before the point. Default 15, which keeps every result exactly representable as
   * a JSON number and stops inputs such as `'1e999999'` from building huge integers.
   */
  maxIntegerDigits?: number;
  /** Request parameter named in the error (default `amount`). */
  param?: string;
}

// A plain or scientific decimal; the exponent is bounded so that checking it costs nothing.
const DECIMAL_PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,9}))?$/;

const POW10_CACHE: bigint[] = [];

/** 10^n as a bigint (n ≥ 0), cached for the small exponents money uses. */
export function pow10(n: number): bigint {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`pow10 needs a non-negative integer, got ${n}.`);
  if (n < 64) return (POW10_CACHE[n] ??= 10n ** BigInt(n));
  return 10n ** BigInt(n);
}

/**
 * `numerator / denominator` rounded to an integer, half away from zero (2.5 → 3, −2.5 → −3). This is
 * the one rounding rule (docs/documents.md); every rounding in the money code goes through it.
 */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('Division by zero.');
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const quotient = numerator / denominator; // truncates toward zero
  const remainder = numerator % denominator; // has the sign of the numerator
  const twice = remainder < 0n ? -2n * remainder : 2n * remainder;
  if (twice >= denominator) return numerator < 0n ? quotient - 1n : quotient + 1n;
  return quotient;
}

/**
 * An exact decimal number: `coefficient × 10^-scale`, kept normalised (no trailing zeros in the
 * coefficient while `scale > 0`), so equal values have equal fields. Immutable. Quantities, prices,
 * percentages and rates are Decimals; amounts of money are `Money`.
 */
export class Decimal {
  readonly coefficient: bigint;
  /** Digits after the point; never negative. */
  readonly scale: number;

  private constructor(coefficient: bigint, scale: number) {
    while (scale > 0 && coefficient % 10n === 0n) {
      coefficient /= 10n;
      scale--;
    }
    this.coefficient = coefficient;
    this.scale = coefficient === 0n ? 0 : scale;
  }

  static readonly ZERO = new Decimal(0n, 0);
  static readonly ONE = new Decimal(1n, 0);
  static readonly HUNDRED = new Decimal(100n, 0);

  /** `coefficient × 10^-scale`, e.g. `Decimal.of(1234n, 2)` is 12.34. */
  static of(coefficient: bigint, scale = 0): Decimal {
    if (!Number.isSafeInteger(scale) || scale < 0) throw new RangeError(`Invalid scale ${scale}.`);
    return new Decimal(coefficient, scale);
  }

  /**
   * Reads a JSON number or a decimal string exactly. A number is read through its shortest round-trip
   * text (`0.1` is one tenth, not the binary double nearest to it), which is the decimal the sender
   * wrote. Throws `InvalidAmountError` (400 `rest_invalid_param`) for anything else, for more than
   * `maxDecimals` decimals or more than `maxIntegerDigits` integer digits.
   */
  static parse(input: unknown, options: DecimalParseOptions = {}): Decimal {
    const { maxDecimals = 20, maxIntegerDigits = 15, param = 'amount' } = options;
    let text: string;
    if (typeof input === 'number') {
      if (!Number.isFinite(input)) throw new InvalidAmountError(param, 'not_a_number', `${param} must be a finite number.`);
      text = String(input);
    } else if (typeof input === 'string') {
      text = input;
    } else if (typeof input === 'bigint') {
      text = input.toString();
    } else if (input instanceof Decimal) {
      text = input.toString();
    } else {
      throw new InvalidAmountError(param, 'not_a_number', `${param} must be a number.`);
    }

    const m = DECIMAL_PATTERN.exec(text);
    const intPart = m?.[2] ?? '';
    const fracPart = m?.[3] ?? '';
    if (!m || (intPart === '' && fracPart === '')) {
      throw new InvalidAmountError(param, 'not_a_number', `${param} must be a number.`);
    }
    const negative = m[1] === '-';
    const exponent = m[4] === undefined ? 0 : Number(m[4]);

    // value = digits × 10^-scale; drop leading zeros (no value) and trailing zeros (no decimals).
    let digits = (intPart + fracPart).replace(/^0+/, '');
    let scale = fracPart.length - exponent;
    const trailing = /0*$/.exec(digits)![0].length;
    digits = digits.slice(0, digits.length - trailing);
    scale -= trailing;
    if (digits === '') return Decimal.ZERO;

    const decimals = Math.max(0, scale);
    if (decimals > maxDecimals) {
      throw new InvalidAmountError(
        param,
        'too_many_decimals',
        maxDecimals === 0 ? `${param} must be a whole number.` : `${param} must have at most ${maxDecimals} decimals.`,
      );
    }
    if (digits.length - scale > maxIntegerDigits) {
      throw new InvalidAmountError(param, 'too_large', `${param} is too large.`);
    }
    if (scale < 0) {
      digits += '0'.repeat(-scale);
      scale = 0;
    }
    const coefficient = BigInt(digits);
    return new Decimal(negative ? -coefficient : coefficient, scale);
  }

  /** Any `DecimalInput` as a Decimal (lenient limits: 30 decimals, 30 integer digits). */
  static from(value: DecimalInput, param?: string): Decimal {
    if (value instanceof Decimal) return value;
    return Decimal.parse(value, { maxDecimals: 30, maxIntegerDigits: 30, ...(param ? { param } : {}) });
  }

  /** The coefficient brought to `scale` decimals (`scale` ≥ this.scale: exact). */
  unitsAt(scale: number): bigint {
    if (scale < this.scale) throw new RangeError(`Cannot express ${this} with ${scale} decimals exactly.`);
    return this.coefficient * pow10(scale - this.scale);
  }

  plus(other: DecimalInput): Decimal {
    const o = Decimal.from(other);
    const scale = Math.max(this.scale, o.scale);
    return new Decimal(this.unitsAt(scale) + o.unitsAt(scale), scale);
  }

  minus(other: DecimalInput): Decimal {
    return this.plus(Decimal.from(other).negate());
  }

  /** Exact product (the scales add up). */
  times(other: DecimalInput): Decimal {
    const o = Decimal.from(other);
    return new Decimal(this.coefficient * o.coefficient, this.scale + o.scale);
  }

  negate(): Decimal {
    return new Decimal(-this.coefficient, this.scale);
  }

  abs(): Decimal {
    return this.coefficient < 0n ? this.negate() : this;
  }

  sign(): -1 | 0 | 1 {
    return this.coefficient === 0n ? 0 : this.coefficient < 0n ? -1 : 1;
  }

  isZero(): boolean {
    return this.coefficient === 0n;
  }

  compare(other: DecimalInput): -1 | 0 | 1 {
    const o = Decimal.from(other);
    const scale = Math.max(this.scale, o.scale);
    const a = this.unitsAt(scale);
    const b = o.unitsAt(scale);
    return a === b ? 0 : a < b ? -1 : 1;
  }

  equals(other: DecimalInput): boolean {
    return this.compare(other) === 0;
  }

  /** Rounded to `places` decimals, half away from zero. */
  roundTo(places: number): Decimal {
    if (this.scale <= places) return this;
    return new Decimal(divideRounded(this.coefficient, pow10(this.scale - places)), places);
  }

  /** Rounded (half away from zero) and written with exactly `places` decimals: `'12.30'`. */
  toFixed(places: number): string {
    return formatUnits(this.roundTo(places).unitsAt(places), places);
  }

  /** Plain notation without exponent or trailing zeros: `'12.3'`, `'-0.0001'`, `'1000'`. */
  toString(): string {
    return formatUnits(this.coefficient, this.scale);
  }

  /** The nearest JSON number (exact whenever the value has at most 15 significant digits). */
  toNumber(): number {
    return Number(this.toString());
  }

  toJSON(): number {
    return this.toNumber();
  }
}

/** `units × 10^-places` written out with exactly `places` decimals. */
export function formatUnits(units: bigint, places: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const text = places > 0 ? `${whole}.${digits.slice(digits.length - places)}` : whole;
  return negative ? `-${text}` : text;
}
