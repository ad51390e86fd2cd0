import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Migration } from '../db/migrations.ts';
import type { ActionMap, FilterMap } from '../hooks/hook-map.ts';
import type { ActionListener, FilterListener, PluginHooks } from '../hooks/registry.ts';
import type { AjaxAction, AjaxRequest, WebhookAction, WebhookAnswer, WebhookRequest } from '../http/ajax/ajax-action.ts';
import type { RestRequest, RestRoute } from '../http/rest/route.ts';
import type { JobDefinition, JobRun } from '../jobs/scheduler.ts';
import type { Logger } from '../log.ts';
import type { OptionsStore } from '../options/options.ts';
import type { SettingsDeclaration } from '../options/option-map.ts';
import { CAPABILITY_NAME } from '../identity/capabilities.ts';
import { validCron } from '../jobs/scheduler.ts';
import { ajv } from '../validation/ajv.ts';
import type { ServiceApi } from '../service-api.ts';

/** What a plugin's handlers, jobs and listeners are given. Plugins reach the core only through this. */
export interface PluginContext {
  plugin: string;
  config: Config;
  log: Logger;
  db: Database;
  options: OptionsStore;
  hooks: PluginHooks;
  api: ServiceApi;
}

export type PluginRestRoute = Omit<RestRoute, 'handler'> & {
  handler(req: RestRequest, ctx: PluginContext): Promise<unknown>;
};
export type PluginAjaxAction = Omit<AjaxAction, 'handler'> & {
  handler(req: AjaxRequest, ctx: PluginContext): Promise<unknown>;
};
export type PluginWebhook = Omit<WebhookAction, 'handler'> & {
  handler(req: WebhookRequest, ctx: PluginContext): Promise<WebhookAnswer>;
};
export type PluginJob = Omit<JobDefinition, 'run'> & {
  run(run: JobRun, ctx: PluginContext): Promise<unknown>;
};

/** A hook listener as data; made with `action()` or `filter()` so its arguments are typed. */
export interface ListenerDeclaration {
  kind: 'action' | 'filter';
  hook: string;
  priority: number;
  make(ctx: PluginContext): (...args: any[]) => unknown;
}

export function action<K extends keyof ActionMap>(hook: K, make: (ctx: PluginContext) => ActionListener<K>, priority = 10): ListenerDeclaration {
  return { kind: 'action', hook, priority, make };
}

export function filter<K extends keyof FilterMap>(hook: K, make: (ctx: PluginContext) => FilterListener<K>, priority = 10): ListenerDeclaration {
  return { kind: 'filter', hook, priority, make };
}

export interface RoleDeclaration {
  name: string;
  label: string;
  capabilities: string[];
}

/**
 * A plugin: everything it adds, as data, so the core can list it, check it for clashes at load and
 * remove all of it on deactivation. `activate` and `deactivate` run once, cluster-wide, when an
 * administrator switches the plugin; the declared parts are loaded by every instance while it is active.
 */
export interface PluginDefinition {
  /** kebab-case, unique; the activation key. */
  name: string;
  version: string;
  title?: string;
  description?: string;
  /** Plugins that must be active first; they load before this one and unload after it. */
  requires?: string[];
  settings?: SettingsDeclaration;
  migrations?: Migration[];
  /** Hooks this plugin raises for others (declare their types in ActionMap/FilterMap too). */
  hooks?: { actions?: string[]; filters?: string[] };
  listeners?: ListenerDeclaration[];
  rest?: PluginRestRoute[];
  ajax?: PluginAjaxAction[];
  webhooks?: PluginWebhook[];
  jobs?: PluginJob[];
  /** New capabilities, given to administrators. */
  capabilities?: string[];
  roles?: RoleDeclaration[];
  /** Capabilities added to existing roles while the plugin is active. */
  grants?: Record<string, string[]>;
  activate?(ctx: PluginContext): Promise<void>;
  deactivate?(ctx: PluginContext): Promise<void>;
}

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Checks a plugin's declaration when it is defined, so a mistake fails at load, not at first use. */
export function definePlugin<T extends PluginDefinition>(def: T): Readonly<T> {
  const where = `plugin ${def.name}`;
  if (!NAME.test(def.name)) throw new Error(`${where}: name must be kebab-case`);
  if (!/^\d+\.\d+\.\d+/.test(def.version)) throw new Error(`${where}: version must be semver`);
  for (const [key, schema] of Object.entries(def.settings ?? {})) {
    if (!('default' in schema)) throw new Error(`${where}: setting ${key} needs a default`);
    ajv.compile(schema);
  }
  for (const job of def.jobs ?? []) {
    if (!validCron(job.schedule)) throw new Error(`${where}: job ${job.hook} has an invalid schedule "${job.schedule}"`);
  }
  const roleNames = [
    ...(def.capabilities ?? []), ...Object.keys(def.grants ?? {}), ...Object.values(def.grants ?? {}).flat(),
    ...(def.roles ?? []).flatMap((r) => [r.name, ...r.capabilities]),
  ];
  for (const n of roleNames) if (!CAPABILITY_NAME.test(n)) throw new Error(`${where}: "${n}" is not a snake_case role or capability name`);
  const migrations = def.migrations ?? [];
  if (new Set(migrations.map((m) => m.name)).size !== migrations.length) throw new Error(`${where}: migration names repeat`);
  return Object.freeze(def);
}
