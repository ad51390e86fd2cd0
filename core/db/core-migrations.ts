import type { Migration } from './migrations.ts';

/** The core's own schema. Each later module appends its steps here; a step never changes once released. */
export const CORE_MIGRATIONS: Migration[] = [
  {
    name: '0001_foundation',
    up: `
      create table billing_options (
        key text primary key,
        value jsonb not null,
        updated_at timestamptz not null default now()
      );
      create table billing_plugins (
        name text primary key,
        active boolean not null default false,
        version text,
        activated_at timestamptz,
        deactivated_at timestamptz
      );
      -- bumped by every change another instance must notice (plugins, options); polled by each instance
      create table billing_state (
        id int primary key check (id = 1),
        revision bigint not null default 0
      );
      insert into billing_state (id, revision) values (1, 0);
      -- one row per (job, due time): the unique key is what makes a due time run once across instances
      create table billing_job_runs (
        id bigserial primary key,
        hook text not null,
        due_at timestamptz not null,
        reason text not null,
        instance text not null,
        started_at timestamptz not null default now(),
        finished_at timestamptz,
        status text not null default 'running',
        result jsonb,
        error text,
        unique (hook, due_at)
      );
      create index billing_job_runs_hook_started on billing_job_runs (hook, started_at desc);
      create table billing_audit_log (
        id bigserial primary key,
        at timestamptz not null default now(),
        actor_id bigint,
        actor text not null,
        action text not null,
        object_type text not null,
        object_id text,
        details jsonb not null default '{}',
        ip text
      );
      create index billing_audit_log_object on billing_audit_log (object_type, object_id);
    `,
  },
  {
    name: '0002_identity',
    up: `
      -- WordPress's users: one role each; logins and e-mails unique regardless of case
      create table billing_users (
        id serial primary key,
        login text not null,
        email text not null,
        display_name text not null,
        password_hash text,
        role text not null,
        company text not null default '',
        country text not null default '',
        vat text not null default '',
        address text not null default '',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create unique index billing_users_login on billing_users (lower(login));
      create unique index billing_users_email on billing_users (lower(email));
      create index billing_users_role on billing_users (role);
      -- only a keyed hash of each password is kept; the hash is what a request is looked up by
      create table billing_app_passwords (
        uuid uuid primary key,
        user_id int not null references billing_users (id) on delete cascade,
        name text not null,
        password_hash text not null unique,
        created timestamptz not null default now(),
        last_used timestamptz,
        last_ip text
      );
      create unique index billing_app_passwords_name on billing_app_passwords (user_id, lower(name));
      create table billing_sessions (
        token_hash text primary key,
        user_id int not null references billing_users (id) on delete cascade,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        ip text,
        user_agent text
      );
      create index billing_sessions_user on billing_sessions (user_id);
      -- SECRET_KEY when the environment gives none: made once, shared by every instance
      create table billing_secrets (
        name text primary key,
        value text not null,
        created_at timestamptz not null default now()
      );
    `,
  },
  {
    name: '0003_outbox',
    up: `
      -- durable side effects (core/outbox): work written in the transaction of the change it follows,
      -- claimed by one instance at a time under a lease, retried with backoff, kept when it fails
      create table billing_outbox (
        id bigserial primary key,
        topic text not null,
        payload jsonb not null,
        -- optional: one item per key, ever (enqueuing it again does nothing)
        key text unique,
        status text not null default 'pending' check (status in ('pending', 'done', 'failed')),
        attempts int not null default 0,
        run_after timestamptz not null default now(),
        locked_by text,
        locked_until timestamptz,
        last_error text,
        created_at timestamptz not null default now(),
        finished_at timestamptz
      );
      create index billing_outbox_due on billing_outbox (run_after, id) where status = 'pending';
      create index billing_outbox_finished on billing_outbox (finished_at) where status = 'done';
    `,
  },
  {
    name: '0004_identity_notify',
    up: `
      -- Instances cache successful application-password look-ups while the change feed is live
      -- (core/identity/credential-cache.ts). Whatever can make a cached credential wrong notifies every
      -- instance on commit, here and not in the services, so no write path (a plugin, the CLI, psql)
      -- can forget to: a revoked password, an ended session, a deleted user, a changed role, login,
      -- e-mail or display name.
      create function billing_notify_identity() returns trigger language plpgsql as $$
      begin
        perform pg_notify('billing_changes', 'identity');
        return null;
      end $$;
      -- per row, so a statement that changes nothing says nothing (a sign-in's sweep of expired sessions);
      -- PostgreSQL folds one transaction's identical notifications into one
      create trigger billing_app_passwords_notify after delete or update of password_hash, user_id on billing_app_passwords
        for each row execute function billing_notify_identity();
      create trigger billing_users_notify after delete or update of login, email, role, display_name on billing_users
        for each row execute function billing_notify_identity();
      create trigger billing_sessions_notify after delete or update on billing_sessions
        for each row execute function billing_notify_identity();
    `,
  },
  {
    name: '0005_outbox_lanes',
    up: `
      -- fair background work (core/outbox, docs/security.md "Background work"): each item belongs to a
      -- lane (its topic, or its topic and a payload value such as a webhook's subscription), and each
      -- lane is claimed with its own share of an instance's slots; the index walks the lanes with work
      alter table billing_outbox add column lane text;
      update billing_outbox set lane = topic;
      alter table billing_outbox alter column lane set not null;
      create index billing_outbox_lanes on billing_outbox (topic, lane, run_after, id) where status = 'pending';
    `,
  },
  {
    name: '0006_plugin_packages',
    up: `
      -- plugins installed from a package (docs/plugins.md, "Installing"): the tarball itself, so every
      -- instance sharing the database unpacks the same bytes; integrity is npm's sha512 of it
      create table billing_plugin_packages (
        name text primary key,
        version text not null,
        integrity text not null,
        tarball bytea not null,
        manifest jsonb not null,
        installed_at timestamptz not null default now()
      );
    `,
  },
];
