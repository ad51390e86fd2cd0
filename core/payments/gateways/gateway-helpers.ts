import { BillingError } from '../../errors.ts';
import { safeEqual } from '../../identity/safe-equal.ts';

/** For a provider's `parse`: the body cannot be read (the webhook answers 400 `billing_bad_request`). */
export function unreadable(message = 'The notification could not be read.'): BillingError {
  return new BillingError('billing_bad_request', message);
}

/**
 * For a provider: the gateway's API cannot be asked now (down, or refusing our credentials), so the
 * delivery cannot be judged; the webhook answers 503 and the gateway retries.
 */
export function unreachable(): BillingError {
  return new BillingError(
    'billing_gateway_unreachable',
    'The payment gateway cannot be reached right now. Please try again in a few minutes.',
  );
}

/** Compares a signature a delivery carries with the one computed, in constant time. */
export function constantTimeEqual(a: string, b: string): boolean {
  return safeEqual(a, b);
}
