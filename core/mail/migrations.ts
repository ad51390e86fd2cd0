import type { Migration } from '../db/migrations.ts';

/** The delivery log's schema (owner `mail`). */
export const MAIL_MIGRATIONS: Migration[] = [
  {
    name: '0001_delivery_log',
    up: `
      -- every attempt to send an e-mail, kept whatever its outcome (docs/ajax.md): what was sent, to
      -- whom, by whom, and the SMTP server's answer or the error (never the message body, which
      -- carries the document's access key)
      create table billing_mail_log (
        id bigserial primary key,
        document_id bigint references billing_documents (id),
        -- a payment mail's payment; no foreign key, the payments module owns that table
        payment_id bigint,
        template text not null,
        recipient text not null,
        subject text not null,
        transport text not null check (transport in ('smtp', 'outbox')),
        result text not null check (result in ('sent', 'failed')),
        -- the server's final answer ("250 2.0.0 Ok: queued as …", "550 …"), or the outbox file
        response text not null default '',
        error text,
        message_id text,
        actor_id int,
        actor text not null,
        attempted_at timestamptz not null default now(),
        duration_ms int not null default 0
      );
      create index billing_mail_log_document on billing_mail_log (document_id, id);
    `,
  },
];
