import type { Migration } from '../db/migrations.ts';

/** Payments, refunds and credit notes' schema (owner `payments`). Credit notes live in billing_documents. */
export const PAYMENT_MIGRATIONS: Migration[] = [
  {
    name: '0001_payments',
    up: `
      -- ids are taken before the row is written (the reference is made from the id, and an idempotency
      -- key names the payment it creates), so the sequence stands on its own
      create sequence billing_payments_id_seq;

      create table billing_payments (
        id bigint primary key default nextval('billing_payments_id_seq'),
        invoice_id bigint not null references billing_documents (id),
        reference text not null unique check (length(reference) between 1 and 20),
        amount numeric not null check (amount > 0),
        currency text not null,
        method text not null check (method in ('gateway_a', 'gateway_b', 'gateway_c', 'gateway_d', 'gateway_e',
          'bank_transfer', 'cheque', 'cash', 'manual')),
        status text not null check (status in ('pending', 'completed', 'failed', 'refunded', 'cancelled')),
        transaction_id text,
        date timestamptz not null default now(),
        refunded numeric not null default 0,
        notes text not null default '',
        review text,
        created_by bigint,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        completed_at timestamptz,
        -- the money rules of contract §5, kept by the database too: refunds only of received money and
        -- never above it; "refunded" is exactly a payment refunded in full
        check (refunded >= 0 and refunded <= amount),
        check (refunded = 0 or status in ('completed', 'refunded')),
        check ((status = 'refunded') = (refunded = amount and status in ('completed', 'refunded')))
      );
      alter sequence billing_payments_id_seq owned by billing_payments.id;
      create index billing_payments_invoice on billing_payments (invoice_id);
      create index billing_payments_list on billing_payments (date desc, id desc);
      create index billing_payments_transaction on billing_payments (transaction_id) where transaction_id is not null;

      -- received money never goes back: a completed (or refunded) payment cannot become pending,
      -- failed or cancelled, whatever code or statement tries
      create function billing_payments_keep_received() returns trigger language plpgsql as $$
      begin
        if old.status in ('completed', 'refunded') and new.status not in ('completed', 'refunded') then
          raise exception 'payment % is %, it cannot become %', old.id, old.status, new.status;
        end if;
        return new;
      end $$;
      create trigger billing_payments_keep_received before update of status on billing_payments
        for each row execute function billing_payments_keep_received();

      -- every refund, with its reason (a payment's "refunded" is their sum)
      create table billing_payment_refunds (
        id bigserial primary key,
        payment_id bigint not null references billing_payments (id),
        amount numeric not null check (amount > 0),
        reason text not null,
        actor text not null,
        created_at timestamptz not null default now()
      );
      create index billing_payment_refunds_payment on billing_payment_refunds (payment_id);

      -- idempotency: the external key of every applied event (a gateway's event id, a transaction id),
      -- inserted before the event is applied, in the same transaction; the payment a "record" creates is
      -- written after its key, hence the deferred reference
      create table billing_payment_events (
        key text primary key,
        action text not null,
        invoice_id bigint not null references billing_documents (id),
        payment_id bigint references billing_payments (id) deferrable initially deferred,
        created_at timestamptz not null default now()
      );
    `,
  },
  {
    name: '0002_open_methods_and_gateway_inbox',
    up: `
      -- payment methods are an open registry (the offline ones and the active gateways'), checked by the
      -- payment core; the database keeps only their shape
      alter table billing_payments drop constraint billing_payments_method_check;
      alter table billing_payments add constraint billing_payments_method_shape check (method ~ '^[a-z][a-z0-9_]{1,39}$');
      create index billing_payments_pending on billing_payments (method, created_at) where status = 'pending';

      -- the inbox: every verified gateway delivery, raw, stored before it is applied, so that it can be
      -- replayed and the payment core's outcome for each of its events read later
      create table billing_gateway_deliveries (
        id bigserial primary key,
        method text not null,
        action text not null,
        received_at timestamptz not null default now(),
        headers jsonb not null,
        body bytea not null,
        status text not null default 'received'
          check (status in ('received', 'applied', 'unreadable', 'unavailable', 'failed')),
        outcomes jsonb,
        error text,
        applied_at timestamptz
      );
      create index billing_gateway_deliveries_method on billing_gateway_deliveries (method, id desc);
    `,
  },
];
