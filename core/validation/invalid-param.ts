import { BillingError } from '../errors.ts';

/** 400 `rest_invalid_param` for one parameter, in the body shape of docs/api.md. */
export function invalidParam(param: string, message: string, reason = 'invalid'): BillingError {
  return new BillingError('rest_invalid_param', message, {
    params: { [param]: message },
    details: { [param]: { code: 'rest_invalid_param', message, data: { reason } } },
  });
}
