// The Recurring screen, declared as data: the profiles with their next run, pause / resume / delete,
// and a profile made from an existing invoice. The core's resource screen draws it (docs/admin.md).
import { resourceScreen, type ArgSchema } from '../../core/plugin-api.ts';
import { PROFILE_ARGS } from './profiles.ts';

/**
 * `POST /recurring/from-invoice`: the schedule of PROFILE_ARGS, the template taken from an invoice,
 * named by its number (what a person knows it by) or by its id; one of the two is required. Without a
 * start date the schedule continues from the invoice's own date (ProfileStore.createFrom).
 */
export const FROM_INVOICE_ARGS: Record<string, ArgSchema> = {
  invoice_number: {
    type: 'string',
    minLength: 1,
    maxLength: 100,
    title: 'Invoice number',
    description: 'The invoice to repeat, as printed on it (INV-0042).',
  },
  invoice_id: {
    type: 'integer',
    minimum: 1,
    title: 'Invoice id',
    description: 'Or the invoice by its id.',
  },
  frequency: { ...PROFILE_ARGS.frequency!, required: true },
  start_date: {
    ...PROFILE_ARGS.start_date!,
    title: 'First invoice on',
    description: "Y-m-d, site timezone. Empty: one period after the invoice's date (the first such date not past).",
  },
  auto_send: { ...PROFILE_ARGS.auto_send!, title: 'E-mail each invoice to the customer', description: 'Sending issues it.' },
  auto_charge: {
    ...PROFILE_ARGS.auto_charge!,
    title: "Charge the client's saved card or mandate",
    description: 'Autopay: declined charges are tried again after 1, 3 and 7 days.',
  },
  end: PROFILE_ARGS.end!,
};

const CHANGE = 'bill_create_invoice';

export const recurringScreen = resourceScreen({
  slug: 'recurring.php',
  title: 'Recurring',
  capability: 'bill_view_invoices',
  order: 15,
  description: 'Invoices generated on a schedule, one per period; the job runs every hour.',
  list: {
    route: '/recurring',
    rowLabel: 'profile {id}',
    empty: 'No recurring invoices yet. Make one from an invoice with "Repeat an invoice".',
    columns: [
      { key: 'id', label: 'Profile' },
      { key: 'template.customer_name', label: 'Customer' },
      { key: 'template.title', label: 'Title' },
      { key: 'frequency', label: 'Every' },
      { key: 'next_date', label: 'Next invoice' },
      { key: 'generated_count', label: 'Generated' },
      { key: 'last_invoice_id', label: 'Last invoice', link: '/wp-admin/invoice.php?id={last_invoice_id}' },
      { key: 'status', label: 'Status', format: 'status' },
      { key: 'last_autopay.status', label: 'Last autopay' },
      { key: 'last_error.message', label: 'Last error' },
    ],
  },
  actions: [
    {
      label: 'Pause',
      method: 'POST',
      route: '/recurring/{id}/pause',
      capability: CHANGE,
      when: { status: ['active'] },
      done: 'Profile {id} is paused.',
    },
    {
      label: 'Resume',
      method: 'POST',
      route: '/recurring/{id}/resume',
      capability: CHANGE,
      when: { status: ['paused'] },
      done: 'Profile {id} is active again; next invoice on {next_date}.',
    },
    {
      label: 'Delete',
      method: 'DELETE',
      route: '/recurring/{id}',
      capability: CHANGE,
      confirm: 'Delete profile {id}? Its invoices stay.',
      done: 'Profile {id} is deleted.',
    },
  ],
  create: {
    label: 'Repeat an invoice',
    route: '/recurring/from-invoice',
    capability: CHANGE,
    // the invoice by its number, required here; `end` stays "never": a JSON rule is not a form field
    // (PUT /recurring/{id} changes it)
    fields: (({ end: _end, invoice_id: _id, invoice_number, ...f }) => ({ invoice_number: { ...invoice_number!, required: true }, ...f }))(
      FROM_INVOICE_ARGS,
    ),
    // found as the Record payment form finds one: by number or customer, within the user's own list
    suggest: { invoice_number: { action: 'billing_search_invoices', value: '{number}', label: '{number} · {customer}' } },
    submit: 'Create recurring profile',
    done: 'Profile {id} created; first invoice on {next_date}.',
  },
});
