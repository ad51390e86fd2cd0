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
        -- the money rules of docs/documents.md, kept by the database too: refunds only of received money and
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
  {
    name: '0003_payment_days',
    up: `
      -- The report's "paid" per currency and day of the site's timezone: money received on that day minus
      -- refunds made on it, of untrashed invoices (what the report's scan sums), kept by the triggers below
      -- in the transaction that changes a payment, a refund or an invoice's trash state. Days are those of
      -- the timezone in option "timezone" when the row was written (tz): changing the option rebuilds the
      -- table under an exclusive lock that every writer takes shared, so no write lands in an old timezone.
      -- Shards as billing_document_counts (core/documents/migrations.ts).
      create table billing_payment_days (
        tz text not null,
        currency text not null,
        day date not null,
        shard int not null,
        amount numeric not null,
        primary key (tz, currency, day, shard)
      );

      create function billing_site_timezone() returns text language sql stable as $$
        select coalesce((select value #>> '{}' from billing_options where key = 'timezone'), 'UTC')
      $$;

      -- adds rows (currency, instant, amount) to the days of the current timezone, keys in a fixed order
      create function billing_payment_days_put(p_rows jsonb) returns void language plpgsql as $$
      declare
        v_tz text;
      begin
        perform pg_advisory_xact_lock_shared(hashtext('billing_payment_days'));
        v_tz := billing_site_timezone();
        insert into billing_payment_days as t (tz, currency, day, shard, amount)
        select v_tz, x.currency, (x.at at time zone v_tz)::date, pg_backend_pid() % 16, sum(x.amount)
          from jsonb_to_recordset(p_rows) as x (currency text, at timestamptz, amount numeric)
         group by 2, 3
        having sum(x.amount) <> 0
         order by 2, 3
        on conflict (tz, currency, day, shard) do update set amount = t.amount + excluded.amount;
      end $$;

      -- whether a payment's invoice counts (is not trashed); the row lock makes a trash or restore running
      -- at the same time either see this change or wait for it
      create function billing_invoice_live(p_invoice bigint) returns boolean language sql as $$
        select trashed_at is null from billing_documents where id = p_invoice for no key update
      $$;

      create function billing_payments_aggregate() returns trigger language plpgsql as $$
      declare
        v_rows jsonb := '[]';
      begin
        if tg_op <> 'INSERT' and old.status in ('completed', 'refunded') and billing_invoice_live(old.invoice_id) then
          v_rows := v_rows || jsonb_build_object('currency', old.currency, 'at', old.date, 'amount', -old.amount);
        end if;
        if tg_op <> 'DELETE' and new.status in ('completed', 'refunded') and billing_invoice_live(new.invoice_id) then
          v_rows := v_rows || jsonb_build_object('currency', new.currency, 'at', new.date, 'amount', new.amount);
        end if;
        if jsonb_array_length(v_rows) > 0 then perform billing_payment_days_put(v_rows); end if;
        return null;
      end $$;
      create trigger billing_payments_aggregate
        after insert or delete or update of invoice_id, amount, currency, status, date
        on billing_payments for each row execute function billing_payments_aggregate();

      create function billing_payment_refunds_aggregate() returns trigger language plpgsql as $$
      declare
        v_old jsonb;
        v_new jsonb;
      begin
        if tg_op <> 'INSERT' then
          select jsonb_build_object('currency', p.currency, 'at', old.created_at, 'amount', old.amount)
            into v_old from billing_payments p where p.id = old.payment_id and billing_invoice_live(p.invoice_id);
        end if;
        if tg_op <> 'DELETE' then
          select jsonb_build_object('currency', p.currency, 'at', new.created_at, 'amount', -new.amount)
            into v_new from billing_payments p where p.id = new.payment_id and billing_invoice_live(p.invoice_id);
        end if;
        if v_old is not null or v_new is not null then
          perform billing_payment_days_put(
            -- jsonb_build_array(null) is [null], not null
            (case when v_old is null then '[]'::jsonb else jsonb_build_array(v_old) end) ||
            (case when v_new is null then '[]'::jsonb else jsonb_build_array(v_new) end));
        end if;
        return null;
      end $$;
      create trigger billing_payment_refunds_aggregate
        after insert or delete or update of payment_id, amount, created_at
        on billing_payment_refunds for each row execute function billing_payment_refunds_aggregate();

      -- trashing an invoice takes its payments and refunds out of the days; restoring puts them back
      create function billing_documents_payment_days() returns trigger language plpgsql as $$
      declare
        v_sign int := case when new.trashed_at is null then 1 else -1 end;
        v_rows jsonb;
      begin
        if (old.trashed_at is null) = (new.trashed_at is null) then return null; end if;
        select coalesce(jsonb_agg(jsonb_build_object('currency', x.currency, 'at', x.at, 'amount', v_sign * x.amount)), '[]')
          into v_rows
          from (
            select p.currency, p.date as at, p.amount from billing_payments p
             where p.invoice_id = new.id and p.status in ('completed', 'refunded')
            union all
            select p.currency, r.created_at, -r.amount
              from billing_payment_refunds r join billing_payments p on p.id = r.payment_id
             where p.invoice_id = new.id
          ) x;
        if jsonb_array_length(v_rows) > 0 then perform billing_payment_days_put(v_rows); end if;
        return null;
      end $$;
      create trigger billing_documents_payment_days after update of trashed_at on billing_documents
        for each row execute function billing_documents_payment_days();

      -- recomputed from payments and refunds, in the current timezone, once every writer of the old one
      -- has committed
      create function billing_rebuild_payment_days() returns void language plpgsql as $$
      declare
        v_tz text;
      begin
        perform pg_advisory_xact_lock(hashtext('billing_payment_days'));
        v_tz := billing_site_timezone();
        delete from billing_payment_days;
        insert into billing_payment_days (tz, currency, day, shard, amount)
        select v_tz, x.currency, x.day, 0, sum(x.amount)
          from (
            select p.currency, (p.date at time zone v_tz)::date as day, p.amount
              from billing_payments p join billing_documents d on d.id = p.invoice_id and d.trashed_at is null
             where p.status in ('completed', 'refunded')
            union all
            select p.currency, (r.created_at at time zone v_tz)::date, -r.amount
              from billing_payment_refunds r
              join billing_payments p on p.id = r.payment_id
              join billing_documents d on d.id = p.invoice_id and d.trashed_at is null
          ) x
         group by 2, 3;
      end $$;

      create function billing_options_timezone() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and new.key = 'timezone' and new.value = old.value then return null; end if;
        if (tg_op <> 'DELETE' and new.key = 'timezone') or (tg_op <> 'INSERT' and old.key = 'timezone') then
          perform billing_rebuild_payment_days();
        end if;
        return null;
      end $$;
      create trigger billing_options_timezone after insert or update or delete on billing_options
        for each row execute function billing_options_timezone();

      select billing_rebuild_payment_days();
    `,
  },
  {
    name: '0004_bounded_gateway_inbox',
    up: `
      -- the inbox keeps the first few KiB of a body with the length and SHA-256 of the whole, and drops
      -- bodies after a week (the row, its outcomes and digest stay longer): see GatewayRuntime.cleanup
      alter table billing_gateway_deliveries alter column body drop not null;
      alter table billing_gateway_deliveries add column body_bytes integer;
      alter table billing_gateway_deliveries add column body_sha256 text;
      create index billing_gateway_deliveries_received on billing_gateway_deliveries (received_at);
    `,
  },
  {
    name: '0005_saved_payment_methods',
    up: `
      -- a client's saved cards and mandates (docs/payments.md, Autopay): the gateway's token is kept here
      -- and only here; answers show id, gateway, label and created. A removed one keeps its row (payments
      -- made with it name it) but is never charged again.
      create table billing_payment_methods (
        id bigserial primary key,
        client_id bigint not null,
        method text not null,
        token text not null,
        gateway_customer text,
        label text not null,
        created_at timestamptz not null default now(),
        removed_at timestamptz,
        unique (client_id, method, token)
      );
      create index billing_payment_methods_client on billing_payment_methods (client_id) where removed_at is null;
      -- the client a checkout asked to save the means of payment for (the pay page's "save" box): what a
      -- verified success then reports is saved for this client only, never for a payment that did not ask
      alter table billing_payments add column save_for_client bigint;
    `,
  },
];
