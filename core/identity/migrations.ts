import type { Migration } from '../db/migrations.ts';
import { THROTTLE_MIGRATIONS } from './throttle.ts';

/** The identity module's schema steps beyond the users tables of the core's foundation. */
export const IDENTITY_MIGRATIONS: Migration[] = [
  ...THROTTLE_MIGRATIONS,
  {
    name: '0002_user_creator',
    up: `
      -- who made the user: a client is its creator's under a sales own scope (docs/security.md, Scope),
      -- as a document is; the users made so far take it from the audit row of their creation
      alter table billing_users add column created_by int;
      update billing_users u set created_by = l.actor_id
        from billing_audit_log l
       where l.object_type = 'user' and l.action = 'user.create' and l.object_id = u.id::text;
      create index billing_users_created_by on billing_users (created_by) where role = 'billing_client';
    `,
  },
  {
    name: '0003_user_locale',
    up: `
      -- the language a client's documents print in (a BCP 47 tag); null prints in the option site_locale
      alter table billing_users add column locale text;
    `,
  },
];
