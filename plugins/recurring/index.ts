// Recurring invoices (docs/recurring.md): profiles over REST and the hourly job that generates one invoice
// per (profile, period), catching up after downtime; auto_send mails through the outbox; auto_charge
// charges the client's saved payment method, with retries (autopay.ts).
import {
  BillingError,
  COLLECTION_ARGS,
  collectionResponse,
  definePlugin,
  documentInput,
  filter,
  RestResponse,
  type AuthUser,
  type PluginContext,
} from '../../core/plugin-api.ts';
import { attemptsOf, AUTOPAY_TOPIC, chargeAttempt, DEFAULT_RETRY_DAYS, isAutopayInvoice, runRetries } from './autopay.ts';
import { generateDue, recordError, SEND_TOPIC } from './generate.ts';
import { PROFILE_ARGS, ProfileStore } from './profiles.ts';
import { FROM_INVOICE_ARGS, recurringScreen } from './screen.ts';

/** The live invoice of this number, within `viewer`'s list when one is given; null when there is none. */
async function invoiceByNumber(ctx: PluginContext, number: string, viewer?: AuthUser) {
  const { items } = await ctx.api.invoices.list({ page: 1, per_page: 1, number, viewer });
  return items[0] ?? null;
}

declare module 'billing-service' {
  interface OptionMap {
    autopay_retry_days: number[];
  }
}

/** The plugin's own services: the profiles' store. */
type Services = { profiles: ProfileStore };

const ONE = '/recurring/(?P<id>[\\d]+)';
const ID_ARGS = { id: { type: 'integer', minimum: 1, required: true, description: 'The profile id.' } };
const VIEW = 'bill_view_invoices';
const CHANGE = 'bill_create_invoice';
/** The profile a route names, through the core's scoped resolver (kind `recurring`, declared below). */
const PROFILE = { param: 'id', kind: 'recurring' };
/** The client a template bills: one outside the caller's scope answers as an unknown client. */
const TEMPLATE_CLIENT = { param: 'template.client_id', kind: 'client', missing: 'billing_rest_no_client' } as const;

export default definePlugin<Services>({
  services: (ctx) => ({ profiles: new ProfileStore(ctx) }),
  name: 'recurring',
  version: '1.0.0',
  compatibility: '^0.1.0',
  title: 'Recurring invoices',
  description: 'Invoices generated on a schedule from a template, once per period, caught up after downtime.',
  settings: {
    autopay_retry_days: {
      type: 'array',
      items: { type: 'integer', minimum: 1, maximum: 60 },
      maxItems: 10,
      default: DEFAULT_RETRY_DAYS,
      description: 'Autopay: days after the first declined charge of an invoice on which it is tried again; then the reminders take over.',
    },
  },
  migrations: [
    {
      name: '0001_profiles',
      up: `
        create table billing_recurring_profiles (
          id bigserial primary key,
          status text not null check (status in ('active', 'paused', 'finished')),
          template jsonb not null,
          frequency text not null,
          start_date date not null,
          end_rule jsonb not null,
          -- the index of the next period to generate (periods are counted from start_date)
          next_period int not null default 0,
          next_date date,
          generated_count int not null default 0,
          last_invoice_id bigint,
          auto_send boolean not null default false,
          last_error jsonb,
          created_by int,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        );
        create index billing_recurring_profiles_due on billing_recurring_profiles (next_date) where status = 'active';
        -- one invoice per (profile, period): the key refuses a second one, whatever runs at once
        create table billing_recurring_periods (
          profile_id bigint not null,
          period_date date not null,
          period int not null,
          invoice_id bigint not null unique references billing_documents (id),
          created_at timestamptz not null default now(),
          primary key (profile_id, period_date)
        );
      `,
    },
    {
      name: '0002_prefixed_tables',
      up: `
          -- a plugin's tables carry its name (docs/plugins.md, the read model)
          alter table billing_recurring_profiles rename to recurring_profiles;
          alter table billing_recurring_periods rename to recurring_periods;
        `,
    },
    {
      name: '0003_autopay',
      up: `
        alter table recurring_profiles add column auto_charge boolean not null default false;
        -- every charge of a generated invoice's client's saved method: the first (attempt 0) and its retries,
        -- one row per (invoice, attempt) whatever runs at once
        create table recurring_autopay_attempts (
          id bigserial primary key,
          profile_id bigint not null,
          invoice_id bigint not null references billing_documents (id),
          attempt int not null,
          due_at timestamptz not null,
          status text not null check (status in ('scheduled', 'submitted', 'succeeded', 'failed', 'skipped')),
          payment_reference text,
          saved_method_id bigint,
          note text,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now(),
          unique (invoice_id, attempt)
        );
        create index recurring_autopay_attempts_open on recurring_autopay_attempts (status, due_at) where status in ('scheduled', 'submitted');
        create index recurring_autopay_attempts_profile on recurring_autopay_attempts (profile_id, due_at);
      `,
    },
  ],
  // a profile is its creator's: under an own scope its routes answer 404 for another's, and the list leaves it out
  objects: [{ kind: 'recurring', noun: 'recurring profile', table: 'recurring_profiles', owner: 'created_by' }],
  rest: [
    {
      path: '/recurring',
      methods: 'GET',
      capability: VIEW,
      args: { ...COLLECTION_ARGS },
      description: 'Recurring profiles, newest first.',
      handler: async (req, ctx) => {
        const scope = await ctx.api.scope.of('recurring', req.user);
        const { items, total } = await ctx.self.profiles.list(req.params.page, req.params.per_page, scope);
        return collectionResponse(req, items, total);
      },
    },
    {
      path: '/recurring',
      methods: 'POST',
      capability: CHANGE,
      object: TEMPLATE_CLIENT,
      args: PROFILE_ARGS,
      description: 'Create a recurring profile.',
      handler: async (req, ctx) => new RestResponse(await ctx.self.profiles.create(req.params, req.actor), 201),
    },
    {
      path: '/recurring/from-invoice',
      methods: 'POST',
      capability: CHANGE,
      // reading the invoice is what the template needs (as duplicating does), by id or by number alike
      object: [
        { param: 'invoice_id', kind: 'invoice', capability: VIEW },
        { param: 'invoice_number', kind: 'invoice', by: 'number', capability: VIEW },
      ],
      args: FROM_INVOICE_ARGS,
      description:
        "Create a recurring profile whose template is an invoice's customer, items, discount, notes and terms; the invoice by its number or its id.",
      handler: async (req, ctx) => {
        const { invoice_id, invoice_number, ...schedule } = req.params;
        let source;
        if (invoice_id !== undefined) source = await ctx.api.invoices.get(invoice_id);
        else if (invoice_number !== undefined) {
          // looked up in the user's own list (billing_list_scope, as GET /invoices): a number outside it
          // answers as one that does not exist
          source = await invoiceByNumber(ctx, invoice_number, req.user);
          if (!source)
            throw new BillingError('billing_rest_not_found', 'No invoice has this number.', {
              params: { invoice_number: 'No invoice has this number.' },
            });
        } else {
          throw new BillingError('rest_missing_callback_param', 'Missing parameter(s): invoice_number', { params: ['invoice_number'] });
        }
        // a template is a POST /invoices body: what the invoice has none of (no discount) is left out, not null
        const input = documentInput(source);
        const template = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
        return new RestResponse(await ctx.self.profiles.createFrom({ ...schedule, template }, source.issueDate, req.actor), 201);
      },
    },
    {
      path: ONE,
      methods: 'GET',
      capability: VIEW,
      object: PROFILE,
      args: ID_ARGS,
      description: 'One recurring profile.',
      handler: async (req, ctx) => ctx.self.profiles.get(req.params.id),
    },
    {
      path: ONE,
      methods: 'PUT',
      capability: CHANGE,
      object: [PROFILE, TEMPLATE_CLIENT],
      args: { ...ID_ARGS, ...PROFILE_ARGS },
      description: 'Change a recurring profile (frequency and start date only before its first invoice).',
      handler: async (req, ctx) => {
        const { id, ...fields } = req.params;
        const input = Object.fromEntries(Object.entries(fields).filter(([k]) => k in PROFILE_ARGS));
        return ctx.self.profiles.update(id, input, req.actor);
      },
    },
    {
      path: ONE,
      methods: 'DELETE',
      capability: CHANGE,
      object: PROFILE,
      args: ID_ARGS,
      description: 'Delete a recurring profile; its invoices stay.',
      handler: async (req, ctx) => ({ deleted: true, previous: await ctx.self.profiles.delete(req.params.id, req.actor) }),
    },
    {
      path: `${ONE}/autopay`,
      methods: 'GET',
      capability: VIEW,
      object: PROFILE,
      args: ID_ARGS,
      description: "The profile's autopay charges, newest first: each invoice's first charge and its retries.",
      handler: async (req, ctx) => attemptsOf(ctx, req.params.id),
    },
    {
      path: `${ONE}/pause`,
      methods: 'POST',
      capability: CHANGE,
      object: PROFILE,
      args: ID_ARGS,
      description: 'Pause: no invoice is generated until resumed.',
      handler: async (req, ctx) => ctx.self.profiles.pause(req.params.id, req.actor),
    },
    {
      path: `${ONE}/resume`,
      methods: 'POST',
      capability: CHANGE,
      object: PROFILE,
      args: ID_ARGS,
      description: 'Resume from the first period on or after today (the periods of the pause are skipped).',
      handler: async (req, ctx) => ctx.self.profiles.resume(req.params.id, req.actor),
    },
  ],
  screens: [recurringScreen],
  listeners: [
    // in an export: the profiles and the periods already generated (so a restore does not generate them again)
    filter('billing_export_sections', () => async (sections) => [
      ...sections,
      { name: 'recurring/profiles', table: 'recurring_profiles', key: ['id'] },
      { name: 'recurring/periods', table: 'recurring_periods', key: ['profile_id', 'period_date'] },
      // and autopay's attempts, so a restored instance neither charges a period again nor forgets a retry
      { name: 'recurring/autopay_attempts', table: 'recurring_autopay_attempts', key: ['id'] },
    ]),
    filter('billing_invoice_autopay', (ctx: PluginContext) => async (autopay, invoice) => autopay || isAutopayInvoice(ctx, invoice)),
  ],
  jobs: [
    {
      hook: 'billing_generate_recurring_invoices',
      schedule: '5 * * * *',
      description: 'Generates the invoices of every active recurring profile whose period has come.',
      run: async (_run, ctx) => generateDue(ctx),
    },
    {
      hook: 'billing_autopay_retries',
      schedule: '35 * * * *',
      description: "Settles autopay charges the gateways answered, and hands declined invoices' retries whose day has come to the outbox.",
      run: async (_run, ctx) => runRetries(ctx),
    },
  ],
  queues: [
    {
      topic: SEND_TOPIC,
      description: 'E-mails a generated invoice to its customer (auto_send), which issues it.',
      // a lane per profile: one profile's backlog of mails goes one at a time, beside every other's
      lanes: { by: 'profile_id' },
      handle: async (item, ctx) => {
        const invoice = await ctx.api.invoices.get(item.payload.invoice_id);
        if (invoice.sentAt) return; // a retry after the mail left
        try {
          await ctx.api.mail.sendInvoice(invoice.id, ctx.actor);
        } catch (err) {
          await recordError(ctx, item.payload.profile_id, err);
          throw err;
        }
      },
    },
    {
      topic: AUTOPAY_TOPIC,
      description: "Charges a generated invoice's client's saved payment method (auto_charge); the gateway's webhook tells the result.",
      lanes: { by: 'profile_id' },
      handle: async (item, ctx) => chargeAttempt(ctx, item.payload.attempt_id),
    },
  ],
});
