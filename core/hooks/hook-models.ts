import type { BillingDocument } from '../documents/types.ts';
import type { Payment } from '../payments/types.ts';

/**
 * The model types that hooks carry. Type-only imports: the hook map needs the shapes, not the
 * modules, so there is no import cycle at run time.
 */
export interface HookModels {
  invoice: BillingDocument;
  quote: BillingDocument;
  payment: Payment;
  creditNote: BillingDocument;
  client: { id: number; [field: string]: unknown };
  /** The user a capability is checked for (`billing_user_has_cap`): id, login and roles. */
  user: { id: number; login: string; roles: string[]; [field: string]: unknown };
}
