/** Money: exact amounts, ISO 4217 minor units, rounding and document totals (docs/documents.md). */
export { CURRENCY_CODES, CURRENCY_MINOR_UNITS, type CurrencyCode, isCurrency, minorUnits } from './currencies.ts';
export { Decimal, type DecimalInput, type DecimalParseOptions, divideRounded, formatUnits, pow10 } from './decimal.ts';
export { allocateLargestRemainder } from './allocation.ts';
export { type AllocationWeight, Money } from './money.ts';
export { type AmountProblem, CurrencyMismatchError, DiscountExceedsSubtotalError, InvalidAmountError } from './errors.ts';
export {
  computeTotals,
  type CreditNoteInput,
  discountAmount,
  type DiscountInput,
  type DocumentTotals,
  LINE_DECIMALS,
  lineAmount,
  type LineInput,
  type LineTotals,
  type TaxGroup,
  paidAmount,
  type PaymentInput,
  type TotalsInput,
  type TotalsJson,
} from './totals.ts';
