import { resolve } from 'node:path';
import { SERVICE_VERSION } from '../config.ts';
import { BillingError } from '../errors.ts';
import { defineModule, type ModuleContext } from '../modules/define-module.ts';
import type { SettingsDeclaration } from '../options/option-map.ts';
import { backupName, runBackup } from './backup.ts';
import { exportArchive } from './export.ts';
import { exportRoute } from './export-route.ts';
import { stderrProgress } from './progress.ts';
import { restoreArchive } from './restore.ts';
import { checkSections, CORE_SECTIONS } from './sections.ts';
import type { TransferDeps } from './transfer-deps.ts';

declare module '../options/option-map.ts' {
  interface OptionMap {
    backup_schedule: string;
    backup_dir: string;
    backup_keep: number;
  }
}

const BACKUP_SETTINGS = {
  backup_schedule: {
    type: 'string',
    anyOf: [{ const: '' }, { format: 'cron' }],
    default: '',
    description: 'When the billing_backup job writes an export archive (cron, UTC, e.g. "30 2 * * *"); empty: never',
  },
  backup_dir: { type: 'string', maxLength: 1000, default: '', description: 'Folder of the scheduled backups; empty: DATA_DIR/backups' },
  backup_keep: { type: 'integer', minimum: 1, maximum: 10_000, default: 7, description: 'Scheduled backups kept; older ones are deleted' },
} satisfies SettingsDeclaration;

type TransferContext = ModuleContext<TransferDeps, 'plugins' | 'documents'>;

const flag = (v: string | boolean | undefined) => v === true || v === 'true';

/**
 * Moving in and out (docs/import-export.md): `billing export` writes the whole instance to one archive,
 * `billing import <archive>` restores one into an empty instance, and the `billing_backup` job writes
 * one on a schedule. Not a plugin: every install can take its data out and bring it back.
 */
export const transferModule = defineModule({
  name: 'transfer',
  requires: ['plugins', 'documents'],
  settings: BACKUP_SETTINGS,
  services: (ctx): TransferDeps => ({
    db: ctx.db,
    serviceVersion: SERVICE_VERSION,
    sections: async () => checkSections(await ctx.hooks.applyFilters('billing_export_sections', [...CORE_SECTIONS])),
    secretOptions: () =>
      ctx.options
        .declarations()
        .filter((d) => d.schema.secret)
        .map((d) => d.key),
    renderPdf: async (doc, parent) => (await ctx.use.documents.pdfs.render(doc, { parent })).bytes,
  }),
  rest: (ctx: TransferContext) => [exportRoute(ctx.self, ctx.config.dataDir)],
  commands: (ctx: TransferContext) => [
    {
      words: ['export'],
      usage: 'billing export [--output FILE] [--with-pdfs] [--include-secrets]',
      options: { output: { type: 'string' }, 'with-pdfs': { type: 'boolean' }, 'include-secrets': { type: 'boolean' } },
      run: async ({ flags }) => {
        const path = resolve(typeof flags.output === 'string' ? flags.output : backupName(new Date()).replace('backup', 'export'));
        return exportArchive(ctx.self, path, {
          withPdfs: flag(flags['with-pdfs']),
          includeSecrets: flag(flags['include-secrets']),
          progress: stderrProgress('exporting'),
        });
      },
      text: (r) => `Exported ${r.rows} rows in ${r.files} files to ${r.path} (${r.bytes} bytes).`,
    },
    {
      // `import csv …` is a command of its own beside this one: the longest matching words win
      words: ['import'],
      usage: 'billing import <archive>',
      arity: 1,
      run: async ({ args }) => {
        if (args.length !== 1) throw new BillingError('billing_invalid_argument', 'usage: billing import <archive>');
        return restoreArchive({ ...ctx.self, plugins: ctx.use.plugins, actor: ctx.actor }, resolve(args[0]!), stderrProgress('restoring'));
      },
      text: (r) =>
        [
          `Restored ${Object.values(r.restored as Record<string, number>).reduce((a, b) => a + b, 0)} rows.`,
          r.activated.length ? `Plugins activated: ${r.activated.join(', ')}.` : '',
          r.skipped.length ? `Left out (plugins not installed here): ${r.skipped.join(', ')}.` : '',
          r.includes_secrets ? '' : 'The archive carried no passwords: set them with `billing user set-password <login> --password <p>`.',
        ]
          .filter(Boolean)
          .join('\n'),
    },
  ],
  jobs: (ctx: TransferContext) => [
    {
      hook: 'billing_backup',
      schedule: () => ctx.options.get('backup_schedule'),
      description: 'Writes an export archive to backup_dir and deletes the oldest beyond backup_keep (on when backup_schedule is set)',
      run: async () => {
        const o = await ctx.options.getMany(['backup_dir', 'backup_keep']);
        return runBackup(ctx.self, o.backup_dir || resolve(ctx.config.dataDir, 'backups'), o.backup_keep);
      },
    },
  ],
});
