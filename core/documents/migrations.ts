import type { Migration } from '../db/migrations.ts';

/** The document engine's schema: invoices, quotes and credit notes in one table (one id sequence, like posts). */
export const DOCUMENT_MIGRATIONS: Migration[] = [
  {
    name: '0001_documents',
    up: `
      create extension if not exists pg_trgm;

      -- one counter per kind; the creating transaction holds its row lock until it commits, so numbers
      -- are handed out in commit order with no gap, and a rollback gives its number back
      create table billing_sequences (
        kind text primary key,
        next_value bigint not null check (next_value >= 1)
      );
      insert into billing_sequences (kind, next_value) values ('invoice', 1), ('quote', 1), ('credit_note', 1);

      create table billing_documents (
        id bigserial primary key,
        kind text not null check (kind in ('invoice', 'quote', 'credit_note')),
        number text not null,
        status text not null,
        trashed_at timestamptz,
        title text not null default '',
        currency text not null,
        issue_date date not null,
        due_date date,
        expiry_date date,
        client_id int,
        customer_name text not null default '',
        customer_email text not null default '',
        customer_country text not null default '',
        customer_vat text not null default '',
        customer_company text not null default '',
        customer_address text not null default '',
        items jsonb not null default '[]',
        discount_type text check (discount_type in ('percent', 'fixed')),
        discount_value numeric,
        tax_category text not null default 'standard',
        tax_statement text not null default '',
        tax_rate numeric not null default 0,
        subtotal numeric not null default 0,
        discount numeric not null default 0,
        tax numeric not null default 0,
        total numeric not null default 0,
        paid numeric not null default 0,
        credited numeric not null default 0,
        due numeric not null default 0,
        notes text not null default '',
        terms text not null default '',
        -- the bearer credential of the public pages: read only by the code that builds public links
        access_key text not null,
        viewed_count int not null default 0,
        viewed_first timestamptz,
        viewed_last timestamptz,
        sent_at timestamptz,
        accepted jsonb,
        declined jsonb,
        invoice_id bigint references billing_documents (id),
        parent_id bigint references billing_documents (id),
        reason text,
        created_by int,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (kind, number),
        unique (access_key)
      );
      create index billing_documents_list on billing_documents (kind, issue_date desc, id desc) where trashed_at is null;
      create index billing_documents_status on billing_documents (kind, status) where trashed_at is null;
      create index billing_documents_due on billing_documents (kind, due_date) where trashed_at is null;
      create index billing_documents_client on billing_documents (client_id, kind);
      create index billing_documents_parent on billing_documents (parent_id) where parent_id is not null;
      -- substring search over number, title, customer name and e-mail (contract §4)
      create index billing_documents_search on billing_documents using gin (
        (lower(number || ' ' || title || ' ' || customer_name || ' ' || customer_email)) gin_trgm_ops
      ) where trashed_at is null;
    `,
  },
  {
    name: '0002_quote_tokens',
    up: `
      -- one-time tokens of the public quote page's Accept / Decline forms; only their hash is kept
      create table billing_quote_tokens (
        token_hash text primary key,
        quote_id bigint not null references billing_documents (id),
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create index billing_quote_tokens_quote on billing_quote_tokens (quote_id);
    `,
  },
  {
    name: '0003_tax_breakdown',
    up: `
      -- the tax per category and rate, as computed when the document was written (null: written before
      -- per-item rates existed; then derived from its single rate, which is what was computed then)
      alter table billing_documents add column tax_breakdown jsonb;
    `,
  },
];
