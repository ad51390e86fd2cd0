import { audit, type Actor } from '../audit/audit.ts';
import { SERVICE_VERSION } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrations.ts';
import { bumpRevision } from '../db/revision.ts';
import { BillingError, declareErrors } from '../errors.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { Logger } from '../log.ts';
import type { OptionsStore } from '../options/options.ts';
import { resolveContributions, type ContributionLoader } from './contributions.ts';
import { compatibleWith, type PluginContext, type PluginDefinition } from './define-plugin.ts';
import type { DiscoveredPlugin } from './discovery.ts';

export interface PluginInfo {
  name: string;
  version: string;
  title: string;
  description: string;
  active: boolean;
  requires: string[];
  source: string;
  /** False when the plugin's `compatibility` range excludes this version of the service: never loaded. */
  compatible: boolean;
}

/**
 * Plugins' lifecycle. Activation state lives in `billing_plugins`; every change bumps the cluster
 * revision, and each instance's `sync()` (called by its revision poller) loads and unloads plugins to
 * match — so a plugin switched through one instance, or the CLI, appears or disappears on all of them.
 */
export class PluginManager {
  private readonly available = new Map<string, DiscoveredPlugin>();
  private readonly loaded = new Map<string, PluginDefinition>();
  private readonly loader: ContributionLoader;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly db: Database;
  private readonly hooks: HookRegistry;
  private readonly options: OptionsStore;
  private readonly log: Logger;
  private readonly contextFor: (def: PluginDefinition) => PluginContext;

  private readonly version: string;

  constructor(deps: {
    db: Database;
    hooks: HookRegistry;
    options: OptionsStore;
    log: Logger;
    /** Loads a unit's declarations through every sink (the kernel's, shared with the core modules). */
    loader: ContributionLoader;
    contextFor: (def: PluginDefinition) => PluginContext;
    /** This service's version, which each plugin's `compatibility` range must admit. */
    serviceVersion?: string;
  }) {
    this.loader = deps.loader;
    this.version = deps.serviceVersion ?? SERVICE_VERSION;
    this.db = deps.db;
    this.hooks = deps.hooks;
    this.options = deps.options;
    this.log = deps.log;
    this.contextFor = deps.contextFor;
  }

  /** Makes discovered plugins known; their settings and error codes are declared at once (settable while inactive). */
  register(plugins: DiscoveredPlugin[]): void {
    for (const p of plugins) {
      this.available.set(p.definition.name, p);
      this.options.declare(p.definition.name, p.definition.settings ?? {});
      declareErrors(p.definition.name, p.definition.errors ?? {});
    }
  }

  async list(): Promise<PluginInfo[]> {
    const active = await this.activeNames();
    return [...this.available.values()]
      .sort((a, b) => a.definition.name.localeCompare(b.definition.name))
      .map(({ definition: d, source }) => ({
        name: d.name,
        version: d.version,
        title: d.title ?? d.name,
        description: d.description ?? '',
        active: active.has(d.name),
        requires: [...(d.requires ?? [])],
        source,
        compatible: compatibleWith(d, this.version),
      }));
  }

  /** The names of the schema steps an installed plugin declares, in order; null when it is not installed here. */
  declaredMigrations(name: string): string[] | null {
    const p = this.available.get(name);
    return p ? (p.definition.migrations ?? []).map((m) => m.name) : null;
  }

  isLoaded(name: string): boolean {
    return this.loaded.has(name);
  }

  async activate(name: string, actor: Actor): Promise<void> {
    const def = this.definition(name);
    const active = await this.activeNames();
    if (active.has(name)) return;
    if (!compatibleWith(def, this.version)) {
      throw new BillingError(
        'billing_plugin_incompatible',
        `${name} ${def.version} works with versions ${def.compatibility} of the service, not ${this.version}`,
      );
    }
    const missing = (def.requires ?? []).filter((r) => !active.has(r));
    if (missing.length) {
      throw new BillingError('billing_plugin_dependency', `${name} requires ${missing.join(', ')} to be active first`, { missing });
    }
    await migrate(this.db, `plugin:${name}`, def.migrations ?? []);
    await def.activate?.(this.contextFor(def));
    await this.db.transaction(async (tx) => {
      await tx.query(
        `insert into billing_plugins (name, active, version, activated_at) values ($1, true, $2, now())
                      on conflict (name) do update set active = true, version = excluded.version, activated_at = now()`,
        [name, def.version],
      );
      await bumpRevision(tx, 'plugins');
      await audit(tx, actor, { action: 'plugin.activate', objectType: 'plugin', objectId: name, details: { version: def.version } });
    });
    await this.sync();
    await this.hooks.doAction('billing_plugin_activated', name);
  }

  /** Switches a plugin off everywhere; its data and settings stay. */
  async deactivate(name: string, actor: Actor): Promise<void> {
    const def = this.definition(name);
    const active = await this.activeNames();
    if (!active.has(name)) return;
    const dependants = [...active].filter((n) => this.available.get(n)?.definition.requires?.includes(name));
    if (dependants.length) {
      throw new BillingError('billing_plugin_dependency', `${dependants.join(', ')} require ${name}; deactivate them first`, {
        dependants,
      });
    }
    await this.db.transaction(async (tx) => {
      await tx.query('update billing_plugins set active = false, deactivated_at = now() where name = $1', [name]);
      await bumpRevision(tx, 'plugins');
      await audit(tx, actor, { action: 'plugin.deactivate', objectType: 'plugin', objectId: name });
    });
    await this.sync();
    try {
      await def.deactivate?.(this.contextFor(def));
    } catch (err) {
      this.log.error({ err, plugin: name }, 'deactivate() failed; the plugin is deactivated');
    }
    await this.hooks.doAction('billing_plugin_deactivated', name);
  }

  /** Loads and unloads plugins in this process to match the database. Calls never overlap. */
  sync(): Promise<void> {
    const run = this.queue.then(() => this.syncNow());
    this.queue = run.catch(() => {});
    return run;
  }

  /** Unloads every plugin, dependants first (shutdown). */
  async unloadAll(): Promise<void> {
    await this.queue;
    for (const name of [...this.loaded.keys()].reverse()) this.unload(name);
  }

  private async syncNow(): Promise<void> {
    const active = await this.activeNames();
    const wanted = this.loadOrder([...active].filter((n) => this.available.has(n)));
    for (const name of [...this.loaded.keys()].reverse()) {
      if (!wanted.includes(name)) this.unload(name);
    }
    for (const name of wanted) {
      if (this.loaded.has(name)) continue;
      const def = this.available.get(name)!.definition;
      if (!compatibleWith(def, this.version)) {
        this.log.error(
          { plugin: name, compatibility: def.compatibility, service: this.version },
          'not loaded: incompatible with this version',
        );
        continue;
      }
      if ((def.requires ?? []).some((r) => !this.loaded.has(r))) {
        this.log.error({ plugin: name }, 'not loaded: a plugin it requires is not loaded');
        continue;
      }
      this.load(def);
    }
  }

  /** Loads a plugin through every sink, all or nothing: a clash or an unknown capability leaves it unloaded, logged. */
  private load(def: PluginDefinition): void {
    try {
      this.loader.load(resolveContributions(def.name, def, this.contextFor(def)));
      this.loaded.set(def.name, def);
      this.log.info({ plugin: def.name, version: def.version }, 'plugin loaded');
    } catch (err) {
      this.log.error({ err, plugin: def.name }, 'plugin could not be loaded');
    }
  }

  private unload(name: string): void {
    this.loader.unload(name);
    if (this.loaded.delete(name)) this.log.info({ plugin: name }, 'plugin unloaded');
  }

  /** Requirements first; a plugin whose requirement is missing or inactive is left out. */
  private loadOrder(names: string[]): string[] {
    const order: string[] = [];
    const visiting = new Set<string>();
    const visit = (n: string): boolean => {
      if (order.includes(n)) return true;
      if (visiting.has(n) || !names.includes(n)) return false;
      visiting.add(n);
      const ok = (this.available.get(n)!.definition.requires ?? []).every(visit);
      visiting.delete(n);
      if (ok) order.push(n);
      return ok;
    };
    for (const n of [...names].sort()) visit(n);
    return order;
  }

  private definition(name: string): PluginDefinition {
    const p = this.available.get(name);
    if (!p) throw new BillingError('billing_unknown_plugin', `no plugin named ${name} is installed`);
    return p.definition;
  }

  private async activeNames(): Promise<Set<string>> {
    const rows = await this.db.query<{ name: string }>('select name from billing_plugins where active');
    return new Set(rows.map((r) => r.name));
  }
}
