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
import type { DiscoveredPlugin, PluginOrigin } from './discovery.ts';
import { InstalledPlugins, type InstalledPackage } from './installed-plugins.ts';
import { permissionDenied, permissionsOf, undeclaredUses, type PluginPermissions } from './permissions.ts';
import { folderFiles } from './sandbox/folder-files.ts';
import { sandboxedPlugin, type SandboxDeps } from './sandbox/sandboxed-plugin.ts';
import type { Sandbox } from './sandbox/sandbox.ts';
import { SYSTEM } from '../audit/audit.ts';
import type { PluginApi } from '../modules/service-api.ts';

/** The window in which a sandboxed plugin's faults are counted against `plugin_fault_limit`. */
const FAULT_WINDOW_MS = 10 * 60 * 1000;
/** Wall-clock bound of one sandboxed call, awaited host calls included. */
const SANDBOX_WALL_MS = 10_000;

export interface PluginInfo {
  name: string;
  version: string;
  title: string;
  description: string;
  active: boolean;
  requires: string[];
  /** `bundled`, `folder` or `installed` (a package stored in the database, run in the sandbox). */
  source: PluginOrigin;
  /** Where its code is on this instance. */
  path: string;
  /** An installed package's digest (`sha512-…`, as npm writes it). */
  integrity: string | null;
  /** What an installed plugin declared it needs; null for the service's own and folder plugins (trusted). */
  permissions: PluginPermissions | null;
  sandboxed: boolean;
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
    /** Where installed packages are unpacked (DATA_DIR). */
    dataDir?: string;
    /** What a sandboxed plugin's context reads through (checked against its `read`). */
    api?: () => PluginApi;
  }) {
    this.loader = deps.loader;
    this.version = deps.serviceVersion ?? SERVICE_VERSION;
    this.db = deps.db;
    this.hooks = deps.hooks;
    this.options = deps.options;
    this.log = deps.log;
    this.contextFor = deps.contextFor;
    this.installed = deps.dataDir ? new InstalledPlugins(deps.db, deps.dataDir) : null;
    this.api = deps.api ?? null;
  }

  private readonly installed: InstalledPlugins | null;
  private readonly api: (() => PluginApi) | null;
  /** Installed plugins unpacked here, by name, with the digest they were loaded from. */
  private readonly sandboxes = new Map<string, { integrity: string; sandbox: Sandbox }>();
  private readonly folderSandboxes = new Map<string, Sandbox>();
  /** Installed packages that failed to load here, by name, with the digest that failed. */
  private readonly unloadable = new Map<string, string>();
  private readonly faults = new Map<string, number[]>();

  /**
   * Makes discovered plugins known, each named in `sandboxed` loaded into a sandbox from its folder's
   * files instead (docs/sandbox.md, "Running a plugin of the service sandboxed"), with the permissions
   * its own declarations need, read access to every core resource and no host.
   */
  async registerFound(found: DiscoveredPlugin[], sandboxed: readonly string[] = []): Promise<void> {
    const out: DiscoveredPlugin[] = [];
    for (const p of found) {
      const name = p.definition.name;
      if (!sandboxed.includes(name)) {
        out.push(p);
        continue;
      }
      const files = folderFiles(p.source);
      const main = ['index.js', 'index.ts'].find((f) => files.has(f))!;
      const permissions = permissionsOf(p.definition, this.contextFor(p.definition));
      const { definition, sandbox } = await sandboxedPlugin(name, files, main, permissions, this.sandboxDeps());
      this.folderSandboxes.set(name, sandbox);
      out.push({ ...p, definition, permissions, sandboxed: true });
    }
    this.register(out);
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
      .map(({ definition: d, source, origin, integrity, permissions, sandboxed }) => ({
        name: d.name,
        version: d.version,
        title: d.title ?? d.name,
        description: d.description ?? '',
        active: active.has(d.name),
        requires: [...(d.requires ?? [])],
        source: origin ?? 'folder',
        path: source,
        integrity: integrity ?? null,
        permissions: permissions ?? null,
        sandboxed: sandboxed ?? false,
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
    await this.checkPermissions(name);
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
  async deactivate(name: string, actor: Actor, why?: { action: string; details: Record<string, unknown> }): Promise<void> {
    const def = this.definition(name);
    const active = await this.activeNames();
    if (!active.has(name)) return;
    const dependants = [...active].filter((n) => this.available.get(n)?.definition.requires?.includes(name));
    if (dependants.length) {
      throw new BillingError('billing_plugin_dependency', `${dependants.join(', ')} require ${name}; deactivate them first`, {
        dependants,
      });
    }
    // only the caller that switches it off records it (two instances may deactivate a faulting plugin at once)
    const switched = await this.db.transaction(async (tx) => {
      const rows = await tx.query(
        'update billing_plugins set active = false, deactivated_at = now() where name = $1 and active returning name',
        [name],
      );
      if (!rows.length) return false;
      await bumpRevision(tx, 'plugins');
      if (why) await audit(tx, actor, { action: why.action, objectType: 'plugin', objectId: name, details: why.details });
      await audit(tx, actor, { action: 'plugin.deactivate', objectType: 'plugin', objectId: name });
      return true;
    });
    if (!switched) return;
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
    for (const { sandbox } of this.sandboxes.values()) sandbox.dispose();
    for (const sandbox of this.folderSandboxes.values()) sandbox.dispose();
  }

  private async syncNow(): Promise<void> {
    await this.syncInstalled();
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
      await this.load(def);
    }
  }

  /** Loads a plugin through every sink, all or nothing: a clash or an unknown capability leaves it unloaded, logged. */
  private async load(def: PluginDefinition): Promise<void> {
    try {
      await this.checkPermissions(def.name);
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

  /**
   * Installs a plugin package (`billing plugin install`, the Plugins screen's upload) for every instance:
   * checked, stored with its digest, unpacked by each at its next sync. It stays inactive.
   */
  async install(tarball: Buffer, opts: { integrity?: string; actor: Actor }): Promise<InstalledPackage> {
    const store = this.store();
    const own = new Set([...this.available.values()].filter((p) => p.origin !== 'installed').map((p) => p.definition.name));
    const pkg = await store.install(tarball, { ...opts, serviceVersion: this.version, bundled: own });
    await this.sync();
    // a new version of an active plugin: its new migrations run once, here, as activation runs them
    const now = this.available.get(pkg.name);
    if (now && (await this.activeNames()).has(pkg.name)) {
      await this.checkPermissions(pkg.name);
      await migrate(this.db, `plugin:${pkg.name}`, now.definition.migrations ?? []);
    }
    return pkg;
  }

  /** What `uninstall --purge` would remove: the plugin's tables and options. */
  async purgeList(name: string): Promise<{ tables: string[]; options: string[] }> {
    const p = this.installedOne(name);
    const tables = await this.db.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = current_schema() and table_name = any($1) order by 1`,
      [p.permissions?.tables ?? []],
    );
    const keys = Object.keys(p.definition.settings ?? {});
    const options = await this.db.query<{ key: string }>('select key from billing_options where key = any($1) order by 1', [keys]);
    return { tables: tables.map((t) => t.name), options: options.map((o) => o.key) };
  }

  /** Removes an inactive installed plugin everywhere; `purge` also runs its `uninstall` and drops its tables and options. */
  async uninstall(name: string, opts: { purge: boolean; actor: Actor }): Promise<{ tables: string[]; options: string[] }> {
    const p = this.installedOne(name);
    if ((await this.activeNames()).has(name)) throw new BillingError('billing_plugin_active', `${name} is active; deactivate it first`);
    const removed = opts.purge ? await this.purgeList(name) : { tables: [], options: [] };
    if (opts.purge) {
      await p.definition.uninstall?.(this.contextFor(p.definition));
      await this.db.transaction(async (tx) => {
        for (const t of removed.tables) await tx.query(`drop table if exists "${t}" cascade`);
        await tx.query('delete from billing_options where key = any($1)', [removed.options]);
        await tx.query('delete from billing_migrations where owner = $1', [`plugin:${name}`]);
        await tx.query('delete from billing_plugins where name = $1', [name]);
      });
    }
    await this.store().remove(name, opts.actor, { purge: opts.purge, ...removed });
    await this.sync();
    return removed;
  }

  /**
   * Logs and audits a plugin's refused attempt (`plugin.permission_denied`, naming the permission).
   * The audit row is written on its own: the attempt's work, if any, is refused and rolled back.
   */
  async denied(plugin: string, permission: string): Promise<void> {
    this.log.warn({ plugin, permission }, 'plugin permission denied');
    await audit(
      this.db,
      { id: null, name: plugin },
      {
        action: 'plugin.permission_denied',
        objectType: 'plugin',
        objectId: plugin,
        details: { permission },
      },
    );
  }

  /** Counts a sandboxed call's fault; at `plugin_fault_limit` in 10 minutes the plugin is deactivated everywhere. */
  private fault(plugin: string, err: Error): void {
    const now = Date.now();
    const recent = (this.faults.get(plugin) ?? []).filter((t) => now - t < FAULT_WINDOW_MS);
    recent.push(now);
    this.faults.set(plugin, recent);
    this.log.error({ err, plugin, faults: recent.length }, 'sandboxed plugin call failed');
    void this.options
      .get('plugin_fault_limit')
      .then(async (limit) => {
        if (recent.length < limit || !(await this.activeNames()).has(plugin)) return;
        this.faults.delete(plugin);
        await this.deactivate(plugin, SYSTEM, {
          action: 'plugin.fault_limit',
          details: { faults: recent.length, windowMinutes: FAULT_WINDOW_MS / 60_000, last: err.message },
        });
      })
      .catch((e) => this.log.error({ err: e, plugin }, 'could not deactivate a faulting plugin'));
  }

  /** Refuses a plugin declaring more than its permissions allow (audited); plugins without permissions are trusted. */
  private async checkPermissions(name: string): Promise<void> {
    const p = this.available.get(name);
    if (!p?.permissions) return;
    const missing = undeclaredUses(p.definition, p.permissions, this.contextFor(p.definition));
    if (!missing.length) return;
    for (const permission of missing) await this.denied(name, permission);
    throw permissionDenied(name, missing[0]!);
  }

  /** Unpacks and loads into sandboxes the packages installed since the last sync; forgets removed ones. */
  private async syncInstalled(): Promise<void> {
    if (!this.installed) return;
    const packages = await this.installed.list();
    const names = new Set(packages.map((p) => p.name));
    for (const [name, { sandbox }] of this.sandboxes) {
      if (names.has(name) && packages.find((p) => p.name === name)!.integrity === this.sandboxes.get(name)!.integrity) continue;
      this.unload(name);
      sandbox.dispose();
      this.sandboxes.delete(name);
      this.available.delete(name);
      if (!names.has(name)) this.installed.forget(name);
    }
    for (const pkg of packages) {
      if (this.sandboxes.has(pkg.name)) continue;
      // a package that could not be loaded is not tried (nor its refusals audited) again until it changes
      if (this.unloadable.get(pkg.name) === pkg.integrity) continue;
      if (this.available.has(pkg.name)) {
        this.log.error({ plugin: pkg.name }, 'an installed package has the name of a plugin of the service; not loaded');
        continue;
      }
      try {
        const { dir, files } = await this.installed.unpack(pkg);
        const { definition, sandbox } = await sandboxedPlugin(pkg.name, files, pkg.main, pkg.permissions, this.sandboxDeps());
        this.sandboxes.set(pkg.name, { integrity: pkg.integrity, sandbox });
        this.register([
          { definition, source: dir, origin: 'installed', integrity: pkg.integrity, permissions: pkg.permissions, sandboxed: true },
        ]);
      } catch (err) {
        this.unloadable.set(pkg.name, pkg.integrity);
        this.log.error({ err, plugin: pkg.name }, 'installed plugin could not be unpacked or loaded');
      }
    }
  }

  private sandboxDeps(): SandboxDeps {
    if (!this.api) throw new Error('the plugin manager has no service API for sandboxed plugins');
    return {
      db: this.db,
      options: this.options,
      api: this.api(),
      log: this.log,
      denied: (plugin, permission) => this.denied(plugin, permission),
      fault: (plugin, err) => this.fault(plugin, err),
      bounds: async () => {
        const o = await this.options.getMany(['plugin_cpu_ms_per_call', 'plugin_memory_mb']);
        return { cpuMs: o.plugin_cpu_ms_per_call, memoryMb: o.plugin_memory_mb, wallMs: SANDBOX_WALL_MS };
      },
    };
  }

  private store(): InstalledPlugins {
    if (!this.installed) throw new Error('the plugin manager has no DATA_DIR for installed plugins');
    return this.installed;
  }

  private installedOne(name: string): DiscoveredPlugin {
    const p = this.available.get(name);
    if (!p) throw new BillingError('billing_unknown_plugin', `no plugin named ${name} is installed`);
    if (p.origin !== 'installed')
      throw new BillingError(
        'billing_plugin_active',
        `${name} is part of the service or a folder; only installed packages are uninstalled`,
      );
    return p;
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
