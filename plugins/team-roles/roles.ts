// The three roles of docs/team-roles.md and what an edit of a role's billing capabilities is.
import { BILL_CAPABILITIES } from '../../core/plugin-api.ts';

export const MANAGE_TEAM = 'bill_manage_team';
export const SALES = 'billing_sales';
export const ADMINISTRATOR = 'administrator';

export const TEAM_ROLES = [
  {
    name: 'billing_manager',
    label: 'Billing manager',
    capabilities: ['read', ...BILL_CAPABILITIES.filter((c) => c !== 'bill_manage_settings')],
  },
  {
    name: 'billing_accountant',
    label: 'Billing accountant',
    capabilities: ['read', ...BILL_CAPABILITIES.filter((c) => c.startsWith('bill_view_')), 'bill_record_payment', 'bill_refund_payment'],
  },
  {
    name: SALES,
    label: 'Billing sales',
    capabilities: [
      'read',
      'bill_view_invoices',
      'bill_create_invoice',
      'bill_edit_invoice',
      'bill_send_invoice',
      'bill_view_quotes',
      'bill_create_quote',
      'bill_edit_quote',
      'bill_send_quote',
      'bill_view_clients',
      'bill_edit_clients',
    ],
  },
] as const;

/** A stored edit: the capability is added to (`true`) or taken from (`false`) the role as declared. */
export type Edits = Map<string, boolean>;

/** A role's capabilities after its edits: what `billing role list` shows and `billing_user_has_cap` applies. */
export function applyEdits(declared: Readonly<Record<string, boolean>>, edits: Edits | undefined): Record<string, boolean> {
  const out: Record<string, boolean> = { ...declared };
  for (const [cap, granted] of edits ?? []) {
    if (granted) out[cap] = true;
    else delete out[cap];
  }
  return out;
}

/**
 * The edits that make a role hold exactly `wanted` of the billing capabilities (a `PUT /roles/{role}`):
 * only differences from the declaration are stored, so a later release that changes a role's
 * defaults still reaches every capability nobody edited.
 */
export function editsFor(declared: Readonly<Record<string, boolean>>, wanted: ReadonlySet<string>, billing: readonly string[]): Edits {
  const edits: Edits = new Map();
  for (const cap of billing) {
    const has = declared[cap] === true;
    if (wanted.has(cap) && !has) edits.set(cap, true);
    if (!wanted.has(cap) && has) edits.set(cap, false);
  }
  return edits;
}
