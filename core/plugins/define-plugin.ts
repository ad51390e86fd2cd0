import semver from 'semver';
import type { PluginHooks } from '../hooks/registry.ts';
import type { PluginApi } from '../modules/service-api.ts';
import type { ErrorDeclaration } from '../errors.ts';
import { CAPABILITY_NAME } from '../identity/capabilities.ts';
import { validCron } from '../jobs/scheduler.ts';
import { ajv } from '../validation/ajv.ts';
import { checkObjectKind } from '../scope/object-kind.ts';
import type { Contributions, UnitContext } from './contributions.ts';
import type { PluginTables } from './plugin-tables.ts';

export { action, durable, filter, type ListenerDeclaration } from './contributions.ts';

/**
 * What a plugin's handlers, jobs, queues and listeners are given. Plugins reach the core only through
 * this: the plugin-safe service API (no way to apply payments, as another gateway or as an
 * administrator: gateways act through their provider, see docs/gateways.md), hooks they may tap (and
 * raise only if they declared them), and their own actor for the audit log.
 */
export interface PluginContext<S = unknown> extends UnitContext {
  /** The plugin's name (same as `name`). */
  readonly plugin: string;
  readonly hooks: PluginHooks;
  readonly api: PluginApi;
  /** Its own tables (prefixed with its name) through select/insert/update/delete, as in the sandbox. */
  readonly tables: PluginTables;
  /** What the plugin's `services(ctx)` built for this context (undefined without `services`). */
  readonly self: S;
}

/**
 * A plugin: everything it adds, as data (`Contributions`), so the core can list it, check it for
 * clashes at load and remove all of it on deactivation. `activate` and `deactivate` run once,
 * cluster-wide, when an administrator switches the plugin; the declared parts are loaded by every
 * instance while it is active.
 */
export interface PluginDefinition<S = any> extends Contributions<PluginContext<S>> {
  /** kebab-case, unique; the activation key. */
  name: string;
  version: string;
  title?: string;
  description?: string;
  /**
   * The versions of this service the plugin works with (a semver range, e.g. `^0.1.0`); checked when the
   * plugin is discovered, so an incompatible plugin is listed as such and never loaded.
   */
  compatibility?: string;
  /** Plugins that must be active first; they load before this one and unload after it. */
  requires?: readonly string[];
  /**
   * The plugin's own error codes, each with its HTTP status (merge the same codes into `ErrorMap` so
   * `new BillingError(code, …)` type-checks). They may not shadow the core's or another plugin's.
   */
  errors?: Readonly<Record<string, ErrorDeclaration>>;
  /**
   * The plugin records the transfers a bank statement shows: its `ctx.api.payments` gains
   * `recordBankTransfer` (completed `bank_transfer` payments under an entry key; docs/payments.md, the
   * `statement` origin). Every other plugin's payment API is read-only.
   */
  recordsBankTransfers?: boolean;
  /**
   * Builds the plugin's own services (stores, caches, clients) from its context, synchronously (no I/O:
   * use `activate` or a job for that); its handlers find them as `ctx.self`, typed by the definition's
   * type argument: `definePlugin<{ store: RoleStore }>({ services: (ctx) => ({ store: new RoleStore(ctx) }), … })`.
   */
  services?(ctx: PluginContext<undefined>): S;
  activate?(ctx: PluginContext<S>): Promise<void>;
  deactivate?(ctx: PluginContext<S>): Promise<void>;
  /** Run by `billing plugin uninstall --purge` before its tables and options are dropped. */
  uninstall?(ctx: PluginContext<S>): Promise<void>;
}

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Checks a plugin's declaration when it is defined, so a mistake fails at load, not at first use. */
export function definePlugin(def: PluginDefinition<undefined>): Readonly<PluginDefinition<undefined>>;
// with services: S is named by the plugin (`definePlugin<Services>({ services, … })`), never inferred,
// since inferring it would leave the listeners' contexts untyped while it is being inferred
export function definePlugin<S>(def: PluginDefinition<S>): Readonly<PluginDefinition<S>>;
export function definePlugin<S>(def: PluginDefinition<S>): Readonly<PluginDefinition<S>> {
  const where = `plugin ${def.name}`;
  if (!NAME.test(def.name)) throw new Error(`${where}: name must be kebab-case`);
  if (!semver.valid(def.version)) throw new Error(`${where}: version must be semver`);
  if (def.compatibility !== undefined && !semver.validRange(def.compatibility)) {
    throw new Error(`${where}: compatibility "${def.compatibility}" is not a semver range`);
  }
  for (const [key, schema] of Object.entries(def.settings ?? {})) {
    if (!('default' in schema)) throw new Error(`${where}: setting ${key} needs a default`);
    ajv.compile(schema);
  }
  for (const job of Array.isArray(def.jobs) ? def.jobs : []) {
    if (typeof job.schedule === 'string' && !validCron(job.schedule))
      throw new Error(`${where}: job ${job.hook} has an invalid schedule "${job.schedule}"`);
  }
  const roleNames = [
    ...(def.capabilities ?? []),
    ...Object.keys(def.grants ?? {}),
    ...Object.values(def.grants ?? {}).flat(),
    ...(def.roles ?? []).flatMap((r) => [r.name, ...r.capabilities]),
  ];
  for (const n of roleNames) if (!CAPABILITY_NAME.test(n)) throw new Error(`${where}: "${n}" is not a snake_case role or capability name`);
  for (const kind of def.objects ?? []) checkObjectKind(where, kind);
  const migrations = def.migrations ?? [];
  if (new Set(migrations.map((m) => m.name)).size !== migrations.length) throw new Error(`${where}: migration names repeat`);
  return Object.freeze(def);
}

/** Whether a plugin declares itself compatible with this version of the service (no range: yes). */
export function compatibleWith(def: PluginDefinition, serviceVersion: string): boolean {
  return def.compatibility === undefined || semver.satisfies(serviceVersion, def.compatibility, { includePrerelease: true });
}
