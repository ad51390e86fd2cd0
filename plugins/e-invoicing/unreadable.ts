import { BillingError } from '../../core/plugin-api.ts';

/** 400 `billing_einvoice_unreadable`: what every refusal of a file given to the reader answers. */
export function unreadable(message: string): BillingError {
  return new BillingError('billing_einvoice_unreadable', message);
}
