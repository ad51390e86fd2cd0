/**
 * The capabilities and roles the core ships (docs/identity.md). Plugins add theirs as data
 * (`definePlugin({ capabilities, roles, grants })`); `RoleRegistry` merges both.
 */
export const BILL_CAPABILITIES = [
  'bill_view_invoices',
  'bill_create_invoice',
  'bill_edit_invoice',
  'bill_delete_invoice',
  'bill_send_invoice',
  'bill_view_quotes',
  'bill_create_quote',
  'bill_edit_quote',
  'bill_delete_quote',
  'bill_send_quote',
  'bill_view_clients',
  'bill_edit_clients',
  'bill_view_payments',
  'bill_record_payment',
  'bill_refund_payment',
  'bill_view_reports',
  'bill_view_audit_log',
  'bill_manage_settings',
] as const;

/** The host platform's capabilities that matter to the service. */
export const WP_CAPABILITIES = ['manage_options', 'edit_posts', 'read', 'list_users'] as const;

export const CORE_CAPABILITIES: readonly string[] = [...WP_CAPABILITIES, ...BILL_CAPABILITIES];

export interface RoleDefinition {
  name: string;
  label: string;
  capabilities: readonly string[];
}

/** The role that holds every capability, the core's and every plugin's. */
export const ADMINISTRATOR = 'administrator';

const VIEW = BILL_CAPABILITIES.filter((c) => c.startsWith('bill_view_'));

/**
 * WordPress's roles with the capabilities of theirs that matter here, plus the service's two.
 * `read` is WordPress's "may sign in and see the dashboard" and every role has it, the viewer too.
 */
export const CORE_ROLES: readonly RoleDefinition[] = Object.freeze([
  { name: ADMINISTRATOR, label: 'Administrator', capabilities: CORE_CAPABILITIES },
  { name: 'editor', label: 'Editor', capabilities: ['edit_posts', 'read'] },
  { name: 'author', label: 'Author', capabilities: ['edit_posts', 'read'] },
  { name: 'contributor', label: 'Contributor', capabilities: ['edit_posts', 'read'] },
  { name: 'subscriber', label: 'Subscriber', capabilities: ['read'] },
  { name: 'billing_viewer', label: 'Billing viewer', capabilities: ['read', ...VIEW] },
  { name: 'billing_client', label: 'Billing client', capabilities: ['read'] },
]);

/** Capability and role names: snake_case, as WordPress writes them. */
export const CAPABILITY_NAME = /^[a-z][a-z0-9_]{0,63}$/;
