import { defineModule } from '../modules/define-module.ts';
import { siteCommands } from './site-commands.ts';

/**
 * Running the site from the command line: schema, plugins, options, jobs and the outbox (contract §1),
 * and the outbox's housekeeping.
 */
export const siteModule = defineModule({
  name: 'site',
  requires: ['plugins', 'jobs', 'outbox', 'schema'],
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
  ],
});
