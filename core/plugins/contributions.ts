import type { Router } from 'express';
import type { Actor } from '../audit/audit.ts';
import type { Command } from '../cli/command.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Migration } from '../db/migrations.ts';
import type { ActionMap, FilterMap, HookDeclaration } from '../hooks/hook-map.ts';
import type { ActionListener, DurablePayload, FilterListener } from '../hooks/registry.ts';
import type { AssetDeclaration } from '../http/assets.ts';
import type { AjaxAction, AjaxRequest, WebhookAction, WebhookAnswer, WebhookRequest } from '../http/ajax/ajax-action.ts';
import type { RestRequest, RestRoute } from '../http/rest/route.ts';
import type { JobDefinition, JobRun } from '../jobs/scheduler.ts';
import type { Logger } from '../log.ts';
import type { OptionsStore } from '../options/options.ts';
import type { SettingsDeclaration } from '../options/option-map.ts';
import type { OutboxItem, OutboxWriter, QueueDefinition } from '../outbox/outbox.ts';
import type { GatewayProvider } from '../payments/gateways/gateway-provider.ts';
import type { AdminScreen } from '../admin/types.ts';
import type { RoleDeclaration } from '../identity/role-registry.ts';
import type { ObjectKind } from '../scope/object-kind.ts';
import type { TranslationsDeclaration } from '../i18n/catalogue.ts';

/**
 * What every core module and every plugin is given: its own name, the environment, the database,
 * the options, the outbox, and a logger and an actor named after it. Modules add their services and
 * those of the modules they require; plugins add the plugin-safe service API (see define-module.ts,
 * define-plugin.ts). Nothing beyond the kernel holds the kernel.
 */
export interface UnitContext {
  /** The module's or plugin's name: the owner of everything it registers. */
  readonly name: string;
  readonly config: Config;
  readonly log: Logger;
  readonly db: Database;
  readonly options: OptionsStore;
  /** Durable work: a row written in the caller's transaction, done after commit, retried (core/outbox). */
  readonly outbox: OutboxWriter;
  /** Who the unit is in the audit log when it acts on its own (jobs, queues, listeners). */
  readonly actor: Actor;
}

/** A list of declarations, given as data or made from the unit's context when it loads. */
export type Declared<T, C> = readonly T[] | ((ctx: C) => readonly T[]);

export type UnitRestRoute<C> = Omit<RestRoute, 'handler'> & { handler(req: RestRequest, ctx: C): Promise<unknown> };
export type UnitAjaxAction<C> = Omit<AjaxAction, 'handler'> & { handler(req: AjaxRequest, ctx: C): Promise<unknown> };
export type UnitWebhook<C> = Omit<WebhookAction, 'handler'> & { handler(req: WebhookRequest, ctx: C): Promise<WebhookAnswer> };
export type UnitJob<C> = Omit<JobDefinition, 'run'> & { run(run: JobRun, ctx: C): Promise<unknown> };
export type UnitQueue<C> = Omit<QueueDefinition, 'handle'> & { handle(item: OutboxItem, ctx: C): Promise<void> };
export type UnitCommand<C> = Omit<Command, 'run'> & { run(input: Parameters<Command['run']>[0], ctx: C): Promise<unknown> };

/**
 * A hook listener as data; made with `action()`, `filter()` or `durable()` so its arguments are typed.
 * A durable listener does not run in the request: its payload is written to the outbox in the
 * transaction that fires the action, and its queue's handler does the work after commit, retried.
 */
export type ListenerDeclaration<C> =
  | { kind: 'action' | 'filter'; hook: string; priority: number; make(ctx: C): (...args: any[]) => unknown }
  | { kind: 'durable'; hook: string; topic: string; payload: DurablePayload };

export function action<K extends keyof ActionMap, C = UnitContext>(
  hook: K,
  make: (ctx: C) => ActionListener<K>,
  priority = 10,
): ListenerDeclaration<C> {
  return { kind: 'action', hook, priority, make };
}

export function filter<K extends keyof FilterMap, C = UnitContext>(
  hook: K,
  make: (ctx: C) => FilterListener<K>,
  priority = 10,
): ListenerDeclaration<C> {
  return { kind: 'filter', hook, priority, make };
}

/**
 * A durable listener: when `hook` fires, `payload(...args)` (JSON) is written to the outbox under
 * `topic` in the same transaction as the change; the queue declared for `topic` handles it after
 * commit, at least once, with retries. Nothing is lost if the process dies right after the commit.
 */
export function durable<K extends keyof ActionMap, C = UnitContext>(
  hook: K,
  topic: string,
  payload: (...args: ActionMap[K]) => Record<string, unknown> | null,
): ListenerDeclaration<C> {
  return { kind: 'durable', hook, topic, payload: payload as DurablePayload };
}

/**
 * Everything a module or a plugin can add, as data. The kernel resolves it once per load (lists given
 * as functions are called with the unit's context) and hands it to every sink; each sink registers
 * its part under the unit's name, so unloading is "remove everything this owner added", everywhere.
 */
export interface Contributions<C> {
  /** Options with their ajv schemas (each with a default); settable while a plugin is inactive. */
  settings?: SettingsDeclaration;
  /** Schema steps, applied once in order (modules at boot, plugins on activation). */
  migrations?: readonly Migration[];
  /** Hooks the unit raises for others (declare their types in ActionMap/FilterMap too). */
  hooks?: { actions?: readonly HookDeclaration[]; filters?: readonly HookDeclaration[] };
  listeners?: Declared<ListenerDeclaration<C>, C>;
  rest?: Declared<UnitRestRoute<C>, C>;
  ajax?: Declared<UnitAjaxAction<C>, C>;
  /** Public admin-ajax actions that get the raw body (payment gateways use `gateways` instead). */
  webhooks?: Declared<UnitWebhook<C>, C>;
  /** Static files served at /billing/assets/<name> (a page's script or stylesheet). */
  assets?: readonly AssetDeclaration[];
  /** Express routers mounted after REST and admin-ajax (admin screens, public pages). */
  routers?: Declared<Router, C>;
  jobs?: Declared<UnitJob<C>, C>;
  /** Outbox topics this unit handles. */
  queues?: Declared<UnitQueue<C>, C>;
  /** `billing …` commands, available while the unit is loaded. */
  commands?: Declared<UnitCommand<C>, C>;
  /** Screens of the admin area (`/wp-admin/<slug>`), listed in its menu for whoever holds their capability. */
  screens?: Declared<AdminScreen, C>;
  /** Payment gateways: the core owns their webhook, pay route, buttons and reconciliation (docs/gateways.md). */
  gateways?: Declared<GatewayProvider, C>;
  /**
   * Kinds of object its routes and actions name, each with the table and column that tell whose one is
   * (core/scope/object-kind.ts): the scoped resolver checks every route naming one against the scope of
   * the kind's lists.
   */
  objects?: readonly ObjectKind[];
  /**
   * Customer-facing texts the unit prints (a mail, a page block), per shipped language, merged into the
   * catalogue of core/i18n: English is required, other languages fall back to it (docs/languages.md).
   */
  translations?: TranslationsDeclaration;
  /** New capabilities, given to administrators. */
  capabilities?: readonly string[];
  roles?: readonly RoleDeclaration[];
  /** Capabilities added to existing roles while the unit is loaded. */
  grants?: Readonly<Record<string, readonly string[]>>;
}

/** A unit's contributions with every list made and every handler bound to the unit's context. */
export interface ResolvedContributions {
  owner: string;
  listeners: ReadonlyArray<
    | { kind: 'action' | 'filter'; hook: string; priority: number; fn: (...args: any[]) => unknown }
    | { kind: 'durable'; hook: string; topic: string; payload: DurablePayload }
  >;
  hooks: { actions: readonly HookDeclaration[]; filters: readonly HookDeclaration[] };
  rest: readonly RestRoute[];
  ajax: readonly AjaxAction[];
  webhooks: readonly WebhookAction[];
  routers: readonly Router[];
  assets: readonly AssetDeclaration[];
  jobs: readonly JobDefinition[];
  queues: readonly QueueDefinition[];
  commands: readonly Command[];
  screens: readonly AdminScreen[];
  gateways: readonly GatewayProvider[];
  objects: readonly ObjectKind[];
  translations: TranslationsDeclaration | null;
  capabilities: readonly string[];
  roles: readonly RoleDeclaration[];
  grants: Readonly<Record<string, readonly string[]>>;
}

function list<T, C>(declared: Declared<T, C> | undefined, ctx: C): readonly T[] {
  if (!declared) return [];
  return typeof declared === 'function' ? declared(ctx) : declared;
}

/** Makes a unit's lists and binds its handlers to `ctx`. */
export function resolveContributions<C>(owner: string, c: Contributions<C>, ctx: C): ResolvedContributions {
  return {
    owner,
    hooks: { actions: c.hooks?.actions ?? [], filters: c.hooks?.filters ?? [] },
    listeners: list(c.listeners, ctx).map((l) =>
      l.kind === 'durable' ? l : { kind: l.kind, hook: l.hook, priority: l.priority, fn: l.make(ctx) },
    ),
    rest: list(c.rest, ctx).map((r) => ({ ...r, handler: (req: RestRequest) => r.handler(req, ctx) })),
    ajax: list(c.ajax, ctx).map((a) => ({ ...a, handler: (req: AjaxRequest) => a.handler(req, ctx) })),
    webhooks: list(c.webhooks, ctx).map((w) => ({ ...w, handler: (req: WebhookRequest) => w.handler(req, ctx) })),
    routers: list(c.routers, ctx),
    assets: c.assets ?? [],
    jobs: list(c.jobs, ctx).map((j) => ({ ...j, run: (run: JobRun) => j.run(run, ctx) })),
    queues: list(c.queues, ctx).map((q) => ({ ...q, handle: (item: OutboxItem) => q.handle(item, ctx) })),
    commands: list(c.commands, ctx).map((cmd) => ({ ...cmd, run: (input: Parameters<Command['run']>[0]) => cmd.run(input, ctx) })),
    screens: list(c.screens, ctx),
    gateways: list(c.gateways, ctx),
    objects: c.objects ?? [],
    translations: c.translations ?? null,
    capabilities: c.capabilities ?? [],
    roles: c.roles ?? [],
    grants: c.grants ?? {},
  };
}

/**
 * One part of the core that takes what units declare. The loader hands each unit's resolved
 * contributions to every sink in order; a sink may answer more contributions for the sinks after it
 * (the gateway sink turns each gateway into its webhook action and its reconciliation job). To unload,
 * each sink drops what it holds for the owner, in reverse order. A sink that throws refuses the unit.
 */
export interface ContributionSink {
  readonly name: string;
  load(r: ResolvedContributions): Partial<Omit<ResolvedContributions, 'owner'>> | void;
  unload(owner: string): void;
}

/** Loads and unloads units through the sinks, all or nothing. */
export class ContributionLoader {
  private readonly sinks: ContributionSink[] = [];

  add(sink: ContributionSink): void {
    this.sinks.push(sink);
  }

  load(r: ResolvedContributions): void {
    let current = r;
    try {
      for (const sink of this.sinks) {
        const more = sink.load(current);
        if (more) current = merge(current, more);
      }
    } catch (err) {
      this.unload(r.owner);
      throw err;
    }
  }

  unload(owner: string): void {
    for (const sink of [...this.sinks].reverse()) sink.unload(owner);
  }
}

function merge(r: ResolvedContributions, more: Partial<Omit<ResolvedContributions, 'owner'>>): ResolvedContributions {
  const out: Record<string, unknown> = { ...r };
  for (const [k, v] of Object.entries(more)) {
    const prior = out[k];
    out[k] = Array.isArray(prior) && Array.isArray(v) ? [...prior, ...v] : v;
  }
  return out as unknown as ResolvedContributions;
}
