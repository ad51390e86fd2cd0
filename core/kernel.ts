import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Router } from 'express';
import { CommandRegistry } from './cli/command.ts';
import type { Config } from './config.ts';
import { ChangeFeed } from './db/change-feed.ts';
import { Database } from './db/database.ts';
import { EMBEDDED_POOL, embeddedFeed, openEmbedded, type EmbeddedDatabase } from './db/embedded.ts';
import { currentRevision } from './db/revision.ts';
import { HookRegistry, pluginHooks } from './hooks/registry.ts';
import { AjaxDispatcher } from './http/ajax/ajax-dispatcher.ts';
import { createApp } from './http/app.ts';
import { RestServer } from './http/rest/rest-server.ts';
import { Idempotency } from './http/rest/idempotency.ts';
import { CORS_SETTINGS } from './http/rest/cors.ts';
import { JobScheduler } from './jobs/scheduler.ts';
import { createLogger, type Logger } from './log.ts';
import type { AnyModule, ModuleContext } from './modules/define-module.ts';
import { pluginApi, type ServiceApi } from './modules/service-api.ts';
import type { ServiceMap } from './modules/service-map.ts';
import { CORE_SETTINGS } from './options/option-map.ts';
import { OptionsStore } from './options/options.ts';
import { Outbox } from './outbox/outbox.ts';
import { AssetRegistry } from './http/assets.ts';
import { OwnedRegistry } from './owned-registry.ts';
import { ContributionLoader, resolveContributions, type ContributionSink } from './plugins/contributions.ts';
import type { PluginContext, PluginDefinition } from './plugins/define-plugin.ts';
import { discoverPlugins } from './plugins/discovery.ts';
import { PluginManager } from './plugins/plugin-manager.ts';
import { pluginTables } from './plugins/plugin-tables.ts';
import { migrateCore, moduleOrder } from './schema.ts';
import { restRepresentations } from './http/rest/representations.ts';
import { ObjectScope } from './scope/object-scope.ts';

/** How long a graceful stop waits for requests under way. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface KernelOptions {
  log?: Logger;
  /** Serve HTTP and run jobs and the outbox (the server); the CLI boots without them. */
  serve?: boolean;
  /**
   * Where the first start's one-time administrator credentials are written (stdout by default; never
   * the log, which must not hold passwords).
   */
  announce?: (text: string) => void;
}

/**
 * The composition root, and the only holder of everything. It opens the database and migrates, builds
 * the machinery every unit registers into (hooks, options, REST, admin-ajax, jobs, the outbox,
 * commands, routers), then the core modules in the order of their `requires` — each given a narrow
 * context: its own name, the environment, and the services of the modules it requires — then loads
 * every module's declarations, and the active plugins', through the same sinks. `stop()` undoes it in
 * reverse order.
 */
export class Kernel {
  readonly config: Config;
  readonly log: Logger;
  readonly db: Database;
  readonly hooks: HookRegistry;
  readonly options: OptionsStore;
  readonly jobs: JobScheduler;
  readonly outbox: Outbox;
  readonly plugins: PluginManager;
  /** The kinds of object routes name, and the one scoped resolver they are checked through. */
  readonly scope: ObjectScope;
  readonly rest: RestServer;
  readonly ajax: AjaxDispatcher;
  readonly commands = new CommandRegistry();
  /** Express routers of the loaded units (admin screens, public pages), mounted after REST and admin-ajax. */
  readonly routers = new OwnedRegistry<Router>('router');
  /** Units' static files, served by one router of the kernel's (`assets` declarations). */
  readonly assets = new AssetRegistry();
  /** Every module's services, by module name. */
  readonly services: ServiceMap;
  /** The in-process service API (docs/plugins.md), for trusted code in this process: the CLI, tests. */
  readonly api: ServiceApi;
  /** What the schema migration applied at boot, as `owner/name`. */
  readonly migrated: readonly string[];
  private readonly loader = new ContributionLoader();
  private readonly modules: Array<{ def: AnyModule; ctx: ModuleContext<unknown, never> }> = [];
  private server: Server | null = null;
  private poller: NodeJS.Timeout | null = null;
  /** The PostgreSQL feed this instance opened (the embedded one belongs to the process serving it). */
  private ownFeed: ChangeFeed | null = null;
  /** Unsubscribes from whichever feed this instance listens to. */
  private readonly unfeed: Array<() => void> = [];
  private revision = -1;
  private readonly embedded: EmbeddedDatabase | null;

  private constructor(config: Config, log: Logger, db: Database, embedded: EmbeddedDatabase | null, migrated: string[]) {
    this.config = config;
    this.log = log;
    this.db = db;
    this.embedded = embedded;
    this.migrated = migrated;
    this.hooks = new HookRegistry(log);
    this.options = new OptionsStore(db, this.hooks, { loopbackHttp: config.gatewayLoopbackHttp });
    this.options.declare('core', CORE_SETTINGS);
    this.jobs = new JobScheduler(db, log.child({ part: 'jobs' }));
    this.outbox = new Outbox(db, log.child({ part: 'outbox' }));
    this.hooks.useDurableWriter(this.outbox);
    this.scope = new ObjectScope(db, this.hooks);
    this.rest = new RestServer(config.baseUrl, log, this.scope);
    this.rest.health = () => db.ping();
    this.rest.idempotency = new Idempotency(db);
    this.options.declare('core', CORS_SETTINGS);
    this.rest.allowedOrigins = () => this.options.get('rest_allowed_origins');
    this.ajax = new AjaxDispatcher(log, this.scope);
    this.routers.add('kernel', 'assets', this.assets.router());
    this.plugins = new PluginManager({
      db,
      hooks: this.hooks,
      options: this.options,
      log: log.child({ part: 'plugins' }),
      loader: this.loader,
      contextFor: (def) => this.pluginContext(def),
      dataDir: config.dataDir,
      api: () => pluginApi(this.api),
    });
    const services: Partial<ServiceMap> = {
      hooks: this.hooks,
      plugins: this.plugins,
      jobs: this.jobs,
      outbox: this.outbox,
      schema: { migrate: () => migrateCore(db) },
      rest: this.rest,
    };

    for (const def of moduleOrder()) {
      this.options.declare(def.name, def.settings ?? {});
      const use = Object.fromEntries((def.requires ?? []).map((r: keyof ServiceMap) => [r, services[r]]));
      const ctx = { ...this.unitContext(def.name), hooks: this.hooks, use, self: undefined as unknown } as ModuleContext<unknown, never> & {
        self: unknown;
      };
      ctx.self = def.services?.(ctx);
      (services as Record<string, unknown>)[def.name] = ctx.self;
      this.modules.push({ def, ctx });
    }
    this.services = services as ServiceMap;
    const s = this.services;
    this.api = {
      invoices: s.documents.invoices,
      quotes: s.documents.quotes,
      clients: s.documents.clients,
      mail: s.mail,
      reports: s.reports,
      payments: s.payments.payments,
      creditNotes: s.payments.creditNotes,
      paymentMethods: {
        list: (clientId) => s.payments.saved.list(clientId),
        remove: (clientId, id, actor) => s.payments.saved.remove(clientId, id, actor),
        charge: async (invoiceId, key) => s.payments.gateways.chargeSaved(await s.documents.invoices.get(invoiceId), key),
      },
      pdfs: s.documents.pdfs,
      attachments: { list: (id) => s.documents.attachments.list(id), files: (id) => s.documents.attachments.files(id) },
      translations: { translator: (tag) => s.i18n.translator(tag) },
      representations: restRepresentations({ options: this.options, hooks: this.hooks, config: this.config }),
      // read-only: the registry's own add/remove stay with the plugin loader
      roles: {
        list: () => s.identity.roles.list(),
        has: (role) => s.identity.roles.has(role),
        allCapabilities: () => s.identity.roles.allCapabilities(),
        capabilitiesOf: (role) => s.identity.roles.capabilitiesOf(role),
      },
      users: {
        list: (filter) => s.identity.users.list(filter),
        setRole: (login, role, actor) => s.identity.users.setRole(login, role, actor),
      },
      scope: { of: (kind, viewer) => this.scope.of(kind, viewer) },
    };
    this.rest.auth = s.identity.auth;
    this.ajax.auth = s.identity.auth;

    // what the modules' sinks take (roles, screens, gateways) first, then the kernel's own
    for (const { def, ctx } of this.modules) for (const sink of def.sinks?.(ctx) ?? []) this.loader.add(sink);
    for (const sink of this.sinks()) this.loader.add(sink);
  }

  /** The services trusted in-process code reaches most (the CLI, tests). */
  get identity(): ServiceMap['identity'] {
    return this.services.identity;
  }

  get translations(): ServiceMap['i18n'] {
    return this.services.i18n;
  }

  get mail(): ServiceMap['mail'] {
    return this.services.mail;
  }

  get pdf(): ServiceMap['pdf'] {
    return this.services.pdf;
  }

  get payments(): ServiceMap['payments'] {
    return this.services.payments;
  }

  static async boot(config: Config, opts: KernelOptions = {}): Promise<Kernel> {
    const log = opts.log ?? createLogger(config.logLevel);
    let embedded: EmbeddedDatabase | null = null;
    let url = config.databaseUrl;
    if (!url) {
      embedded = await openEmbedded(config.dataDir);
      url = embedded.url;
      log.info({ dataDir: config.dataDir }, 'using the embedded database');
    }
    const db = await Database.connect({ url, poolMax: config.databaseUrl ? 10 : EMBEDDED_POOL, log });
    let migrated: string[];
    try {
      migrated = await migrateCore(db);
    } catch (err) {
      await db.close();
      await embedded?.close();
      throw err;
    }
    const kernel = new Kernel(config, log, db, embedded, migrated);
    for (const { def, ctx } of kernel.modules) await def.init?.(ctx);
    for (const { def, ctx } of kernel.modules) kernel.loader.load(resolveContributions(def.name, def, ctx));
    await kernel.plugins.registerFound(await discoverPlugins(config.pluginDirs, config.packageRoot), config.sandboxedPlugins);
    await kernel.plugins.sync();
    kernel.revision = await currentRevision(db);
    if (opts.serve) {
      await kernel.identity.ensureFirstAdmin(opts.announce ?? ((text) => process.stdout.write(`${text}\n`)));
      await kernel.serve();
    }
    return kernel;
  }

  /** The address the server listens on (after boot with `serve`). */
  get url(): string {
    const addr = this.server?.address() as AddressInfo | null;
    return addr ? `http://${this.config.host}:${addr.port}` : this.config.baseUrl;
  }

  /** Follows changes made by other instances (plugins switched, …) within one poll interval. */
  async syncIfChanged(): Promise<void> {
    const rev = await currentRevision(this.db);
    if (rev === this.revision) return;
    this.revision = rev;
    await this.plugins.sync();
    // a schedule that is a setting (backup_schedule) follows it on every instance
    await this.jobs.refresh();
  }

  private async serve(): Promise<void> {
    // The database tells this instance of others' changes at once: options and credentials cached,
    // plugins switched. PostgreSQL through a LISTEN connection; the embedded database only in the
    // process that serves it (another process reaching its socket hears nothing, and caches nothing).
    if (this.config.databaseUrl && !this.db.pglite) {
      this.ownFeed = await ChangeFeed.open(this.config.databaseUrl, this.log.child({ part: 'feed' }));
    }
    const feed = this.ownFeed ?? (this.db.pglite ? embeddedFeed(this.config.databaseUrl ?? this.embedded!.url) : null);
    if (feed) {
      this.unfeed.push(
        this.options.attachFeed(feed),
        this.identity.credentials.attachFeed(feed),
        this.translations.overrides.attachFeed(feed),
        feed.subscribe((topic) => {
          if (topic === 'plugins' || topic === 'reset') this.syncIfChanged().catch((err) => this.log.error({ err }, 'plugin sync failed'));
        }),
      );
    }
    this.jobs.start();
    this.outbox.start();
    const app = createApp({
      db: this.db,
      log: this.log,
      rest: this.rest,
      ajax: this.ajax,
      routers: this.routers,
      trustProxy: this.config.trustProxy,
    });
    // Headers and request line together over 16 KiB: Node answers 431 itself. Idle keep-alive
    // connections stay open longer than a load balancer's idle timeout (60 s on the common ones) and far
    // longer than a client's own: the client, not the server, should be the one to close an idle
    // connection, or a request sent just as the server closes it fails with a reset (Node's 5 s default).
    this.server = createServer({ maxHeaderSize: 16 * 1024 }, app);
    this.server.keepAliveTimeout = 65_000;
    this.server.headersTimeout = 66_000;
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.config.port, this.config.host, () => resolve());
    });
    this.poller = setInterval(() => {
      this.syncIfChanged().catch((err) => this.log.error({ err }, 'sync with the database failed'));
    }, this.config.syncIntervalMs);
    this.poller.unref();
    this.log.info({ url: this.url }, 'listening');
  }

  /** Graceful stop: stop accepting, finish requests, stop jobs and the outbox, unload, stop modules, close the database. */
  async stop(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    for (const off of this.unfeed.splice(0)) off();
    await this.ownFeed?.close();
    if (this.server) {
      const server = this.server;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections go idle as their last request ends; close each as it does, and give
      // requests still running at most SHUTDOWN_GRACE_MS.
      const sweep = setInterval(() => server.closeIdleConnections(), 25);
      const deadline = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      server.closeIdleConnections();
      await closed;
      clearInterval(sweep);
      clearTimeout(deadline);
      this.server = null;
    }
    await this.jobs.stop();
    await this.outbox.stop();
    await this.plugins.unloadAll();
    for (const { def, ctx } of [...this.modules].reverse()) {
      this.loader.unload(def.name);
      await def.stop?.(ctx);
    }
    // A stop is bounded like the HTTP drain above: a pool that cannot close (seen on the embedded
    // database when another instance sharing it stopped first, docs/decisions.md, Known limits) is left
    // to the process's exit rather than holding the stop forever.
    let bounded: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      this.db.close().then(() => true),
      new Promise<false>((resolve) => (bounded = setTimeout(() => resolve(false), SHUTDOWN_GRACE_MS))),
    ]);
    clearTimeout(bounded);
    if (!closed) this.log.error('the database pool did not close within the grace period; stopping without it');
    await this.embedded?.close();
  }

  /** What every unit's context starts from. */
  private unitContext(name: string) {
    return {
      name,
      config: this.config,
      log: this.log.child({ unit: name }),
      db: this.db,
      options: this.options,
      outbox: this.outbox,
      actor: { id: null, name },
    };
  }

  private pluginContext(def: PluginDefinition): PluginContext {
    const ctx: PluginContext<undefined> = {
      ...this.unitContext(def.name),
      log: this.log.child({ plugin: def.name }),
      plugin: def.name,
      hooks: pluginHooks(this.hooks, def.name),
      api: pluginApi(this.api, { recordsBankTransfers: def.recordsBankTransfers === true }),
      tables: pluginTables(this.db, def.name),
      self: undefined,
    };
    return def.services ? { ...ctx, self: def.services(ctx) } : ctx;
  }

  /**
   * The kernel's sinks: how each kind of declaration reaches the part that serves it. Every one
   * registers under the unit's name, so unloading is `removeOwner(name)` everywhere.
   */
  private sinks(): ContributionSink[] {
    return [
      {
        name: 'listeners',
        load: (r) => {
          for (const a of r.hooks.actions) this.hooks.declare('action', a, r.owner);
          for (const f of r.hooks.filters) this.hooks.declare('filter', f, r.owner);
          for (const l of r.listeners) {
            if (l.kind === 'durable') this.hooks.addDurable(l.hook, l.topic, l.payload, r.owner);
            else if (l.kind === 'action') this.hooks.addAction(l.hook as never, l.fn as never, l.priority, r.owner);
            else this.hooks.addFilter(l.hook as never, l.fn as never, l.priority, r.owner);
          }
        },
        unload: (owner) => {
          this.hooks.removeOwner(owner);
          this.hooks.undeclare(owner);
        },
      },
      {
        // before the routes and actions, which name these kinds
        name: 'objects',
        load: (r) => r.objects.forEach((kind) => this.scope.declare(r.owner, kind)),
        unload: (owner) => this.scope.removeOwner(owner),
      },
      {
        name: 'rest',
        load: (r) => r.rest.forEach((route) => this.rest.add(r.owner, route)),
        unload: (owner) => this.rest.removeOwner(owner),
      },
      {
        name: 'ajax',
        load: (r) => {
          for (const a of r.ajax) this.ajax.add(r.owner, a);
          for (const w of r.webhooks) this.ajax.addWebhook(r.owner, w);
        },
        unload: (owner) => this.ajax.removeOwner(owner),
      },
      {
        name: 'jobs',
        load: (r) => r.jobs.forEach((job) => this.jobs.add(r.owner, job)),
        unload: (owner) => this.jobs.removeOwner(owner),
      },
      {
        name: 'queues',
        load: (r) => r.queues.forEach((queue) => this.outbox.add(r.owner, queue)),
        unload: (owner) => this.outbox.removeOwner(owner),
      },
      {
        name: 'commands',
        load: (r) => r.commands.forEach((command) => this.commands.add(r.owner, command)),
        unload: (owner) => this.commands.removeOwner(owner),
      },
      {
        name: 'assets',
        load: (r) => r.assets.forEach((asset) => this.assets.add(r.owner, asset)),
        unload: (owner) => this.assets.removeOwner(owner),
      },
      {
        name: 'routers',
        load: (r) => r.routers.forEach((router, i) => this.routers.add(r.owner, `${r.owner}#${i}`, router)),
        unload: (owner) => this.routers.removeOwner(owner),
      },
    ];
  }
}
