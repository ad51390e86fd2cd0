import { BillingError } from '../errors.ts';

/** Why an amount was refused; carried in `data.details[param].data.reason`. */
export type AmountProblem =
  | 'not_a_number'
  | 'too_many_decimals'
  | 'too_large'
  | 'negative'
  | 'not_positive'
  | 'above_maximum'
  | 'unknown_currency'
  | 'invalid_discount'
  | 'not_taxable'
  | 'exceeds_subtotal';

/**
 * An amount, quantity, price, rate or discount the caller supplied that cannot be used. It is a
 * `BillingError` with code `rest_invalid_param` (400) and the body docs/api.md describes
 * (`data.params: {name: message}`, `data.details`), so REST can let it through as it is; other surfaces
 * read `param`, `problem` and `message`.
 */
export class InvalidAmountError extends BillingError {
  /** The top-level request parameter at fault (`items`, `discount`, `amount`, …). */
  readonly param: string;
  readonly problem: AmountProblem;

  constructor(param: string, problem: AmountProblem, message: string) {
    super('rest_invalid_param', message, {
      params: { [param]: message },
      details: { [param]: { code: 'rest_invalid_param', message, data: { reason: problem } } },
    });
    this.name = 'InvalidAmountError';
    this.param = param;
    this.problem = problem;
  }
}

/** A fixed discount above the document's subtotal (docs/documents.md): 400 `rest_invalid_param` on `discount`. */
export class DiscountExceedsSubtotalError extends InvalidAmountError {
  constructor(message: string) {
    super('discount', 'exceeds_subtotal', message);
    this.name = 'DiscountExceedsSubtotalError';
  }
}

/**
 * Arithmetic between two currencies. Always a programming error (the service never converts), so it is
 * a plain `Error`, not a request error.
 */
export class CurrencyMismatchError extends Error {
  constructor(left: string, right: string) {
    super(`Cannot combine amounts in ${left} and ${right}.`);
    this.name = 'CurrencyMismatchError';
  }
}
