import { pruneIdempotencyKeys } from '../http/rest/idempotency.ts';
import { defineModule } from '../modules/define-module.ts';
import { siteCommands } from './site-commands.ts';

/**
 * Running the site from the command line: schema, plugins, options, jobs and the outbox (README.md),
 * and the outbox's housekeeping.
 */
export const siteModule = defineModule({
  name: 'site',
  requires: ['plugins', 'jobs', 'outbox', 'schema', 'identity', 'documents', 'imports'],
  commands: (ctx) =>
    siteCommands({
      options: ctx.options,
      plugins: ctx.use.plugins,
      jobs: ctx.use.jobs,
      outbox: ctx.use.outbox,
      migrate: ctx.use.schema.migrate,
    }),
  jobs: (ctx) => [
    {
      hook: 'billing_outbox_cleanup',
      schedule: '17 3 * * *',
      description: 'Forgets outbox items done more than 7 days ago (failed ones stay)',
      run: async () => ({ removed: await ctx.use.outbox.prune(7) }),
    },
    {
      // what requests leave behind that nothing else deletes (issue 14: a row per view of a quote page)
      hook: 'billing_expired_cleanup',
      schedule: '41 * * * *',
      description:
        'Deletes expired quote page tokens and sessions, spent sign-in failure counts, Idempotency-Keys older than 48 hours, and CSV uploads a day after their preview (a week after their import)',
      run: async () => ({
        quote_tokens: await ctx.use.documents.quotes.pruneTokens(),
        sessions: await ctx.use.identity.sessions.prune(),
        signin_failures: await ctx.use.identity.throttle.prune(),
        idempotency_keys: await pruneIdempotencyKeys(ctx.db),
        csv_imports: await ctx.use.imports.cleanup(),
      }),
    },
  ],
});
