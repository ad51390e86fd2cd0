import type { Migration } from '../db/migrations.ts';

/** Uploaded CSV files waiting to be committed, and the state of their import (owner `imports`). */
export const IMPORT_MIGRATIONS: Migration[] = [
  {
    name: '0001_imports',
    up: `
      create table billing_imports (
        id bigserial primary key,
        resource text not null,
        preset text,
        -- the upload itself: any instance can commit it; dropped when the import expires
        body bytea,
        size bigint not null,
        shape jsonb not null,
        columns jsonb not null,
        mapping jsonb not null,
        rows integer not null,
        status text not null default 'previewed'
          check (status in ('previewed', 'queued', 'running', 'done', 'failed')),
        options jsonb not null default '{}',
        progress real not null default 0,
        result jsonb not null default '{"created":0,"updated":0,"skipped":0,"failed":[]}',
        error text,
        created_by bigint,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        expires_at timestamptz not null default now() + interval '1 day'
      );
      create index billing_imports_expiry on billing_imports (expires_at);
      create index billing_imports_owner on billing_imports (created_by, created_at);
    `,
  },
];
