import { CLI } from '../audit/audit.ts';
import { table, type Command } from '../cli/command.ts';
import type { JobScheduler } from '../jobs/scheduler.ts';
import type { OptionMap } from '../options/option-map.ts';
import type { OptionsStore } from '../options/options.ts';
import type { Outbox, OutboxRow } from '../outbox/outbox.ts';
import type { PluginManager } from '../plugins/plugin-manager.ts';
import { packageTarball } from '../plugins/installed-plugins.ts';
import { BillingError } from '../errors.ts';

export interface SiteCommandDeps {
  options: OptionsStore;
  plugins: PluginManager;
  jobs: JobScheduler;
  outbox: Outbox;
  /** Brings the schema up to date; answers the steps applied (booting has usually applied them all). */
  migrate(): Promise<string[]>;
}

const json = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The site's own commands: schema, plugins, options, jobs and the outbox (README.md). */
export function siteCommands(k: SiteCommandDeps): Command[] {
  return [
    {
      words: ['migrate'],
      usage: 'billing migrate',
      // booting migrates the core; this also reports what was (still) pending
      run: async () => ({ applied: await k.migrate() }),
      text: () => 'Database is up to date.',
    },
    {
      words: ['plugin', 'list'],
      usage: 'billing plugin list',
      run: async () =>
        (await k.plugins.list()).map(({ name, version, title, active, source, integrity }) => ({
          name,
          version,
          title,
          active,
          source,
          integrity,
        })),
      text: (rows) => table(rows, ['name', 'version', 'source', 'active', 'title', 'integrity']),
    },
    {
      words: ['plugin', 'install'],
      usage: 'billing plugin install <folder | file.tgz | npm spec> [--integrity sha512-…]',
      options: { integrity: { type: 'string' } },
      arity: 1,
      run: async ({ args, flags }) => {
        const integrity = typeof flags.integrity === 'string' ? flags.integrity : undefined;
        const pkg = await k.plugins.install(packageTarball(args[0]!), { integrity, actor: CLI });
        return { name: pkg.name, version: pkg.version, integrity: pkg.integrity, permissions: pkg.permissions };
      },
      text: (r) =>
        `Plugin ${r.name} ${r.version} installed (${r.integrity}); inactive. It asks for:\n` +
        Object.entries(r.permissions as Record<string, string[]>)
          .map(([kind, values]) => `  ${kind}: ${values.length ? values.join(', ') : '-'}`)
          .join('\n'),
    },
    {
      words: ['plugin', 'uninstall'],
      usage: 'billing plugin uninstall <name> [--purge]',
      options: { purge: { type: 'boolean' } },
      arity: 1,
      run: async ({ args, flags }) => {
        const purge = flags.purge === true;
        const removed = await k.plugins.uninstall(args[0]!, { purge, actor: CLI });
        return { name: args[0], purge, ...removed };
      },
      text: (r) =>
        `Plugin ${r.name} uninstalled.` +
        (r.purge ? `\nDropped tables: ${r.tables.join(', ') || '-'}\nDeleted options: ${r.options.join(', ') || '-'}` : ''),
    },
    {
      words: ['plugin', 'activate'],
      usage: 'billing plugin activate <name>',
      arity: 1,
      run: async ({ args }) => {
        await k.plugins.activate(args[0]!, CLI);
        return { name: args[0], active: true };
      },
      text: (r) => `Plugin ${r.name} activated.`,
    },
    {
      words: ['plugin', 'deactivate'],
      usage: 'billing plugin deactivate <name>',
      arity: 1,
      run: async ({ args }) => {
        await k.plugins.deactivate(args[0]!, CLI);
        return { name: args[0], active: false };
      },
      text: (r) => `Plugin ${r.name} deactivated.`,
    },
    {
      words: ['option', 'get'],
      usage: 'billing option get <key>',
      arity: 1,
      run: async ({ args }) => ({ key: args[0], value: await k.options.get(args[0] as keyof OptionMap) }),
      text: (r) => json(r.value),
    },
    {
      words: ['option', 'set'],
      usage: 'billing option set <key> <value>',
      arity: 2,
      run: async ({ args }) => {
        const key = args[0] as keyof OptionMap;
        const value = k.options.parseText(key, args[1]!);
        const { cleared } = await k.options.set(key, value as never, CLI);
        return { key, value, ...(cleared.length ? { cleared } : {}) };
      },
      text: (r) =>
        `Option ${r.key} set to ${json(r.value)}.${r.cleared ? ` Emptied with it (a new API base): ${r.cleared.join(', ')}.` : ''}`,
    },
    {
      words: ['option', 'delete'],
      usage: 'billing option delete <key>',
      arity: 1,
      run: async ({ args }) => {
        await k.options.delete(args[0] as keyof OptionMap, CLI);
        return { key: args[0], value: await k.options.get(args[0] as keyof OptionMap) };
      },
      text: (r) => `Option ${r.key} deleted; it is now ${json(r.value)}.`,
    },
    {
      words: ['option', 'list'],
      usage: 'billing option list',
      run: async () =>
        (await k.options.list()).map((o) => ({
          key: o.key,
          value: o.secret && !o.isDefault ? '[secret]' : o.value,
          owner: o.owner,
          default: o.isDefault,
        })),
      text: (rows) => table(rows, ['key', 'value', 'owner', 'default']),
    },
    {
      words: ['cron', 'list'],
      usage: 'billing cron list',
      run: async () =>
        (await k.jobs.status()).map(({ hook, schedule, next_run, last_run, last_result }) => ({
          hook,
          schedule,
          next_run,
          last_run,
          last_result,
        })),
      text: (rows) => table(rows, ['hook', 'schedule', 'next_run', 'last_run', 'last_result']),
    },
    {
      words: ['cron', 'run'],
      usage: 'billing cron run <hook>',
      arity: 1,
      run: async ({ args }) => {
        const outcome = await k.jobs.runNow(args[0]!);
        if (outcome.status === 'failed') throw new Error(`job ${args[0]} failed: ${outcome.error}`);
        return { hook: args[0], ...outcome };
      },
      text: (r) => `Job ${r.hook} ${r.status}: ${json(r.result)}`,
    },
    {
      words: ['outbox', 'list'],
      usage: 'billing outbox list [--status pending|done|failed]',
      options: { status: { type: 'string' } },
      run: async ({ flags }) => {
        const status = flags.status === undefined ? undefined : String(flags.status);
        if (status !== undefined && !['pending', 'done', 'failed'].includes(status)) {
          throw new BillingError('billing_invalid_argument', '--status is pending, done or failed');
        }
        return (await k.outbox.list(status as OutboxRow['status'] | undefined)).map((r) => ({ ...r, id: Number(r.id) }));
      },
      text: (rows) => table(rows, ['id', 'lane', 'status', 'attempts', 'run_after', 'last_error']),
    },
    {
      words: ['outbox', 'retry'],
      usage: 'billing outbox retry <id>',
      arity: 1,
      run: async ({ args }) => {
        await k.outbox.retry(Number(args[0]));
        return { id: Number(args[0]), status: 'pending' };
      },
      text: (r) => `Outbox item ${r.id} will be tried again by the server.`,
    },
  ];
}
