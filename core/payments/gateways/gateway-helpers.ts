import { BillingError } from '../../errors.ts';
import { safeEqual } from '../../identity/safe-equal.ts';

/** For a provider's `parse`: the body cannot be read (the webhook answers 400 `billing_bad_request`). */
export function unreadable(message = 'The notification could not be read.'): BillingError {
  return new BillingError('billing_bad_request', message);
}

/** Compares a signature a delivery carries with the one computed, in constant time. */
export function constantTimeEqual(a: string, b: string): boolean {
  return safeEqual(a, b);
}
