import { definePlugin, filter } from '../../core/plugin-api.ts';
import { cleanup, webhookQueues } from './delivery.ts';
import { EVENT_LISTENERS } from './events.ts';
import { webhooksScreen } from './screen.ts';
import { subscriptionRoutes } from './subscriptions.ts';
import { newSecret } from './signature.ts';

declare module 'billing-service' {
  interface ErrorMap {
    billing_webhook_url_forbidden: 400;
  }
  interface OptionMap {
    webhooks_allow_private_hosts: boolean;
  }
}

/**
 * Outbound webhooks (docs/webhooks.md, docs/webhooks.md): subscriptions over REST, events written to the
 * core's outbox in the transaction of their change, Standard Webhooks signatures, deliveries retried
 * from the outbox (claimed with SKIP LOCKED, so instances never send one at once), a delivery log, and
 * an SSRF guard when a URL is saved and before every try.
 */
export default definePlugin({
  name: 'webhooks',
  errors: {
    billing_webhook_url_forbidden: {
      status: 400,
      description: 'The URL is not http(s), or its host is or resolves to a non-public address.',
    },
  },
  version: '1.0.0',
  compatibility: '^0.1.0',
  title: 'Webhooks',
  description: 'Signed HTTP callbacks (Standard Webhooks) when invoices, quotes, payments and credit notes change.',
  settings: {
    webhooks_allow_private_hosts: {
      type: 'boolean',
      default: false,
      description: 'Allow webhook URLs on loopback, private and other non-public addresses (development and tests only)',
    },
  },
  migrations: [
    {
      name: '0001_webhooks',
      up: `
        create table webhook_subscriptions (
          id bigserial primary key,
          url text not null,
          events jsonb not null,
          active boolean not null default true,
          -- the signing key: needed in clear to sign, shown only in the creation answer
          secret text not null,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()
        );
        -- one row per event someone subscribed to: the exact body every try sends
        create table webhook_events (
          id text primary key,
          type text not null,
          body text not null,
          created_at timestamptz not null default now()
        );
        create index webhook_events_created on webhook_events (created_at);
        -- the delivery log: every try of every delivery
        create table webhook_attempts (
          id bigserial primary key,
          subscription_id bigint not null references webhook_subscriptions (id) on delete cascade,
          event_id text not null,
          event_type text not null,
          attempt int not null,
          attempted_at timestamptz not null default now(),
          status_code int,
          duration_ms int not null,
          error text,
          result text not null check (result in ('delivered', 'retrying', 'failed'))
        );
        create index webhook_attempts_subscription on webhook_attempts (subscription_id, id);
        create index webhook_attempts_at on webhook_attempts (attempted_at);
      `,
    },
    {
      name: '0002_prefixed_tables',
      up: `
          -- a plugin's tables carry its name (docs/plugins.md, the read model)
          alter table webhook_subscriptions rename to webhooks_subscriptions;
          alter table webhook_events rename to webhooks_events;
          alter table webhook_attempts rename to webhooks_attempts;
        `,
    },
  ],
  listeners: [
    ...EVENT_LISTENERS,
    // in an export: subscriptions (their signing secrets only with --include-secrets; without, a
    // restore gives each a new one), the events and the delivery log
    filter('billing_export_sections', () => async (sections) => [
      ...sections,
      { name: 'webhooks/subscriptions', table: 'webhooks_subscriptions', key: ['id'], secretColumns: { secret: newSecret } },
      { name: 'webhooks/events', table: 'webhooks_events', key: ['id'] },
      { name: 'webhooks/attempts', table: 'webhooks_attempts', key: ['id'] },
    ]),
  ],
  queues: webhookQueues,
  rest: subscriptionRoutes,
  screens: [webhooksScreen],
  jobs: [
    {
      hook: 'billing_webhooks_cleanup',
      schedule: '40 3 * * *',
      run: (_run, ctx) => cleanup(ctx),
    },
  ],
});
