import { appScreen } from '../admin/app-screens.ts';
import type { Database } from '../db/database.ts';
import { defineModule } from '../modules/define-module.ts';
import { importCsvCommand } from './import-csv-command.ts';
import { ImportService, IMPORT_TOPIC } from './import-service.ts';
import { importRoutes } from './import-routes.ts';
import { IMPORT_MIGRATIONS } from './migrations.ts';
import { clientsResource } from './resources/clients.ts';
import { invoicesResource } from './resources/invoices.ts';
import { paymentsResource } from './resources/payments.ts';

/**
 * CSV import (docs/import-export.md): uploads previewed, kept and committed on their own queue topic;
 * clients, invoices and payments as resources, more through `billing_import_resources`. Expired uploads
 * go with the site's `billing_expired_cleanup` job.
 */
export const importsModule = defineModule({
  name: 'imports',
  requires: ['documents', 'payments', 'identity'],
  migrations: IMPORT_MIGRATIONS,
  services: (ctx): ImportService => {
    const db = ctx.db as Database;
    const users = ctx.use.identity.users;
    const { invoices } = ctx.use.documents;
    const { payments } = ctx.use.payments;
    const resources = [
      clientsResource({ db, users }),
      invoicesResource({ db, options: ctx.options, invoices, payments, users }),
      paymentsResource({ db, payments }),
    ];
    return new ImportService({ db, hooks: ctx.hooks, outbox: ctx.outbox, resources: () => resources });
  },
  objects: [{ kind: 'import', noun: 'import', table: 'billing_imports', owner: 'created_by' }],
  rest: (ctx) => importRoutes(ctx.self, ctx.config),
  // Settings › Import & export: reached from the Settings screen, under its capability
  screens: (ctx) => [
    appScreen(
      {
        slug: 'import-export.php',
        title: 'Import & export',
        order: 81,
        capability: 'bill_manage_settings',
        screen: 'import',
        hidden: true,
        parent: 'settings.php',
      },
      ctx.options,
      async () => ({
        // what each resource takes, as the mapping selects offer it (a plugin's resources included)
        resources: (await ctx.self.resources()).map((r) => ({
          name: r.name,
          label: r.label,
          fields: r.fields.map((f) => ({ name: f.name, label: f.label })),
          presets: Object.keys(r.presets ?? {}),
        })),
      }),
    ),
  ],
  commands: (ctx) => [importCsvCommand(ctx.self)],
  queues: (ctx) => [
    {
      topic: IMPORT_TOPIC,
      description: 'Imports a committed CSV upload (its own topic: a long import delays no mail or webhook)',
      // one import at a time per instance: each holds a transaction's worth of rows at most, but long
      attempts: 3,
      concurrency: 1,
      handle: (item) => ctx.self.run(Number(item.payload.import)),
    },
  ],
});
