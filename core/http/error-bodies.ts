import { BillingError, isBillingError } from '../errors.ts';

/**
 * The one place errors become HTTP bodies. REST gets WordPress's `{code, message, data: {status}}`;
 * AJAX and webhook URLs get `{success: false, data: {code, message}}`. Anything that is not a
 * BillingError is a bug: it becomes a 500 with a generic message (the caller logs the real one).
 */
export interface ErrorAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

function asBillingError(err: unknown): BillingError {
  return isBillingError(err) ? err : new BillingError('billing_internal', 'The service could not complete the request.');
}

export function restErrorBody(err: unknown): ErrorAnswer {
  const e = asBillingError(err);
  const headers: Record<string, string> = {};
  if (e.code === 'billing_rest_unauthenticated') headers['WWW-Authenticate'] = 'Basic realm="billing"';
  retryAfter(e, headers);
  return { status: e.status, body: { code: e.code, message: e.message, data: { status: e.status, ...e.data } }, headers };
}

export function ajaxErrorBody(err: unknown): ErrorAnswer {
  const e = asBillingError(err);
  const headers: Record<string, string> = {};
  retryAfter(e, headers);
  return { status: e.status, body: { success: false, data: { code: e.code, message: e.message, ...e.data } }, headers };
}

/** An error that says when to come back (`data.retry_after`, seconds) says it in `Retry-After` too. */
function retryAfter(e: BillingError, headers: Record<string, string>): void {
  const s = e.data.retry_after;
  if (typeof s === 'number' && Number.isFinite(s) && s > 0) headers['Retry-After'] = String(Math.ceil(s));
}
