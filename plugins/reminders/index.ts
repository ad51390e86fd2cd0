import { definePlugin, filter, type BillingDocument } from '../../core/plugin-api.ts';
// Payment reminders and late fees (docs/reminders.md): the daily job, its mails through the outbox, and
// the once-per-invoice late fee. docs/reminders.md is the user's page.
import { runReminders, sendReminder, SEND_TOPIC } from './run.ts';
import { DEFAULT_STEPS, type ReminderStep } from './steps.ts';
import { REMINDER_TEXTS } from './texts.ts';

declare module 'billing-service' {
  interface OptionMap {
    reminder_steps: ReminderStep[];
    late_fee_enabled: boolean;
    late_fee_type: 'percent' | 'flat';
    late_fee_amount: string;
    late_fee_after_days: number;
  }
}

declare module 'billing-service' {
  interface ActionMap {
    billing_reminder_sent: [invoiceId: number, invoice: BillingDocument, step: ReminderStep];
    billing_late_fee_applied: [invoiceId: number, invoice: BillingDocument, amount: string];
  }
}

export default definePlugin({
  name: 'reminders',
  version: '1.0.0',
  compatibility: '^0.1.0',
  title: 'Payment reminders and late fees',
  description: 'Reminder e-mails before and after the due date, and a late fee once per overdue invoice.',
  translations: REMINDER_TEXTS,
  settings: {
    reminder_steps: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['offset_days', 'subject', 'body'],
        additionalProperties: false,
        properties: {
          offset_days: { type: 'integer', minimum: -365, maximum: 365 },
          subject: { type: 'string', minLength: 1, maxLength: 300 },
          body: { type: 'string', minLength: 1, maxLength: 20000 },
        },
      },
      default: DEFAULT_STEPS,
      description:
        'Reminder steps: offset_days relative to the due date (negative: before), subject and body with the tags ' +
        '{{invoice_number}} {{client_name}} {{total_amount}} {{amount_due}} {{due_date}} {{invoice_url}} {{company_name}}',
    },
    late_fee_enabled: { type: 'boolean', default: false, description: 'Add a late fee once to overdue invoices' },
    late_fee_type: {
      type: 'string',
      enum: ['percent', 'flat'],
      default: 'percent',
      description: 'percent: a percentage of the invoice total; flat: an amount in the invoice currency',
    },
    late_fee_amount: {
      type: 'string',
      pattern: '^\\d{1,12}(\\.\\d{1,4})?$',
      default: '0',
      description: 'The percentage or the flat amount, as an exact decimal (e.g. 2.5)',
    },
    late_fee_after_days: {
      type: 'integer',
      minimum: 0,
      maximum: 365,
      default: 7,
      description: 'Days after the due date before the late fee is added',
    },
  },
  migrations: [
    {
      name: '0001_reminders',
      up: `
        -- one row per (invoice, step) ever due: the primary key is what keeps a step to one mail,
        -- whatever runs at once; skipped steps are recorded so they are never sent later
        create table billing_reminders (
          invoice_id bigint not null references billing_documents (id),
          offset_days int not null,
          status text not null check (status in ('queued', 'sent', 'skipped', 'failed', 'cancelled')),
          subject text not null,
          body text not null,
          delivery_id bigint,
          created_at timestamptz not null default now(),
          sent_at timestamptz,
          primary key (invoice_id, offset_days)
        );
        -- one late fee per invoice, ever
        create table billing_late_fees (
          invoice_id bigint primary key references billing_documents (id),
          amount numeric not null,
          applied_at timestamptz not null default now()
        );
        -- the invoices that can be due: open ones, by due date; a run reads a range of this, never
        -- the paid, draft or trashed invoices
        create index billing_reminders_open_invoices on billing_documents (due_date)
          where kind = 'invoice' and trashed_at is null and status in ('available', 'partial', 'unpaid');
      `,
    },
    {
      name: '0002_prefixed_tables',
      up: `
          -- a plugin's tables carry its name (docs/plugins.md, the read model)
          alter table billing_reminders rename to reminders_sent;
          alter table billing_late_fees rename to reminders_late_fees;
        `,
    },
    {
      name: '0003_instalments',
      up: `
          -- a series of steps per instalment owed (docs/payments.md, Instalments): 0 is the first, and the
          -- only one of an invoice without a schedule; a later instalment that falls late has its own steps
          alter table reminders_sent add column instalment int not null default 0;
          alter table reminders_sent drop constraint billing_reminders_pkey;
          alter table reminders_sent add primary key (invoice_id, instalment, offset_days);
        `,
    },
  ],
  hooks: {
    actions: [
      { name: 'billing_reminder_sent', args: ['invoiceId', 'invoice', 'step'] },
      { name: 'billing_late_fee_applied', args: ['invoiceId', 'invoice', 'amount'] },
    ],
  },
  listeners: [
    // in an export: the reminders sent and the fees applied (so a restore sends and charges none twice)
    filter('billing_export_sections', () => async (sections) => [
      ...sections,
      { name: 'reminders/sent', table: 'reminders_sent', key: ['invoice_id', 'instalment', 'offset_days'] },
      { name: 'reminders/late_fees', table: 'reminders_late_fees', key: ['invoice_id'] },
    ]),
  ],
  jobs: [
    {
      hook: 'billing_send_payment_reminders',
      schedule: '0 8 * * *',
      description: 'Sends the payment reminders that are due and applies late fees',
      run: (_run, ctx) => runReminders(ctx),
    },
  ],
  queues: [
    {
      topic: SEND_TOPIC,
      description: 'One payment reminder to the customer of an invoice',
      lanes: { by: 'to' },
      handle: (item, ctx) => sendReminder(item, ctx),
    },
  ],
});
