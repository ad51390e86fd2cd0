import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Router } from 'express';
import type { AjaxAction } from './http/ajax/ajax-action.ts';
import type { RestRoute } from './http/rest/route.ts';
import { Admin } from './admin/admin.ts';
import type { Config } from './config.ts';
import { ChangeFeed } from './db/change-feed.ts';
import { Database } from './db/database.ts';
import { Documents } from './documents/documents.ts';
import { Payments } from './payments/payments.ts';
import { MailService, mailAjaxActions, registerMailListeners } from './mail/index.ts';
import { ReportService, reportAjaxActions } from './reports/index.ts';
import { PdfRenderer } from './pdf/index.ts';
import { publicRouter } from './public/public-pages.ts';
import { EMBEDDED_POOL, openEmbedded, type EmbeddedDatabase } from './db/embedded.ts';
import { migrateCore } from './schema.ts';
import { currentRevision } from './db/revision.ts';
import { HookRegistry, pluginHooks } from './hooks/registry.ts';
import { Identity } from './identity/identity.ts';
import { identityRoutes } from './identity/rest-routes.ts';
import { auditRoutes } from './audit-routes.ts';
import { AjaxDispatcher } from './http/ajax/ajax-dispatcher.ts';
import { createApp } from './http/app.ts';
import { RestServer } from './http/rest/rest-server.ts';
import { JobScheduler } from './jobs/scheduler.ts';
import { createLogger, type Logger } from './log.ts';
import { CORE_SETTINGS } from './options/option-map.ts';
import { OptionsStore } from './options/options.ts';
import type { PluginContext, PluginDefinition } from './plugins/define-plugin.ts';
import { discoverPlugins } from './plugins/discovery.ts';
import { PluginManager } from './plugins/plugin-manager.ts';
import { pluginSinks } from './plugins/sinks.ts';
import type { ServiceApi } from './service-api.ts';

/** How long a graceful stop waits for requests under way. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface KernelOptions {
  log?: Logger;
  /** Serve HTTP and run jobs (the server); the CLI boots without either. */
  serve?: boolean;
  /**
   * Where the first start's one-time administrator credentials are written (stdout by default; never
   * the log, which must not hold passwords).
   */
  announce?: (text: string) => void;
}

/**
 * The composition root: opens the database, migrates, builds the services, loads the active plugins
 * and (when serving) starts jobs, HTTP and the revision poller. `stop()` undoes it in reverse order.
 */
export class Kernel {
  readonly config: Config;
  readonly log: Logger;
  readonly db: Database;
  readonly hooks: HookRegistry;
  readonly options: OptionsStore;
  readonly plugins: PluginManager;
  readonly jobs: JobScheduler;
  readonly rest: RestServer;
  readonly ajax: AjaxDispatcher;
  readonly identity: Identity;
  readonly admin: Admin;
  readonly documents: Documents;
  readonly payments: Payments;
  readonly pdf: PdfRenderer;
  readonly mail: MailService;
  readonly reports: ReportService;
  readonly api: ServiceApi;
  /** Routers of core modules (admin screens, public pages), mounted after REST and AJAX. */
  readonly routers: Router[] = [];
  private server: Server | null = null;
  private poller: NodeJS.Timeout | null = null;
  private feed: ChangeFeed | null = null;
  private revision = -1;
  private readonly embedded: EmbeddedDatabase | null;

  private constructor(config: Config, log: Logger, db: Database, embedded: EmbeddedDatabase | null) {
    this.config = config;
    this.log = log;
    this.db = db;
    this.embedded = embedded;
    this.hooks = new HookRegistry(log);
    this.options = new OptionsStore(db, this.hooks);
    this.options.declare('core', CORE_SETTINGS);
    this.jobs = new JobScheduler(db, log.child({ part: 'jobs' }));
    this.identity = new Identity({ db, hooks: this.hooks, config, log: log.child({ part: 'identity' }) });
    this.rest = new RestServer(config.baseUrl, this.identity.auth, log);
    this.ajax = new AjaxDispatcher(this.identity.auth, log);
    this.mount({ rest: [...identityRoutes(this.identity), ...auditRoutes(db, this.options)] });
    this.pdf = new PdfRenderer();
    this.documents = new Documents({ db, options: this.options, hooks: this.hooks, config, pdf: this.pdf });
    this.mount({ rest: this.documents.restRoutes(), ajax: this.documents.ajaxActions() });
    this.payments = new Payments({ db, options: this.options, hooks: this.hooks, config, pdf: this.pdf, invoices: this.documents.invoices });
    this.mount({ rest: this.payments.restRoutes(), ajax: this.payments.ajaxActions() });
    this.mount({ router: publicRouter({
      db, options: this.options, hooks: this.hooks, pdf: this.pdf, quotes: this.documents.quotes, auth: this.identity.auth, log,
    }) });
    this.mail = new MailService({
      db, options: this.options, hooks: this.hooks, config, pdf: this.pdf, log: log.child({ part: 'mail' }),
      invoices: this.documents.invoices, quotes: this.documents.quotes,
    });
    this.mount({ ajax: mailAjaxActions(this.mail) });
    registerMailListeners(this.hooks, this.options, this.mail);
    this.reports = new ReportService({ db, options: this.options });
    this.mount({ ajax: reportAjaxActions(this.reports) });
    this.api = { invoices: this.documents.invoices, quotes: this.documents.quotes, clients: this.documents.clients, mail: this.mail, reports: this.reports,
      payments: this.payments.payments, creditNotes: this.payments.creditNotes };
    this.admin = new Admin(this);
    this.mount({ ajax: this.admin.ajaxActions(), router: this.admin.router() });
    this.plugins = new PluginManager({
      db, hooks: this.hooks, options: this.options, log: log.child({ part: 'plugins' }),
      contextFor: (def) => this.pluginContext(def),
    });
    for (const sink of pluginSinks(this)) this.plugins.addSink(sink);
    this.plugins.addSink(this.identity.sink());
  }

  /** What a core module serves over HTTP, registered under the owner `core` as a plugin's declarations are. */
  private mount(served: { rest?: RestRoute[]; ajax?: AjaxAction[]; router?: Router }): void {
    for (const route of served.rest ?? []) this.rest.add('core', route);
    for (const action of served.ajax ?? []) this.ajax.add('core', action);
    if (served.router) this.routers.push(served.router);
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
    try {
      await migrateCore(db);
    } catch (err) {
      await db.close();
      await embedded?.close();
      throw err;
    }
    const kernel = new Kernel(config, log, db, embedded);
    await kernel.identity.init();
    kernel.plugins.register(await discoverPlugins(config.pluginDirs, config.packageRoot));
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
  }

  private async serve(): Promise<void> {
    // PostgreSQL tells this instance of others' changes at once: options cached, plugins switched
    if (this.config.databaseUrl && !this.db.pglite) {
      this.feed = await ChangeFeed.open(this.config.databaseUrl, this.log.child({ part: 'feed' }));
      this.options.attachFeed(this.feed);
      this.feed.subscribe((topic) => {
        if (topic === 'plugins' || topic === 'reset') this.syncIfChanged().catch((err) => this.log.error({ err }, 'plugin sync failed'));
      });
    }
    this.jobs.start();
    const app = createApp({ db: this.db, log: this.log, rest: this.rest, ajax: this.ajax, routers: this.routers });
    // Headers and request line together over 16 KiB: Node answers 431 itself.
    this.server = createServer({ maxHeaderSize: 16 * 1024 }, app);
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

  /** Graceful stop: stop accepting, finish requests, stop jobs, unload plugins, close the database. */
  async stop(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    await this.feed?.close();
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
    await this.plugins.unloadAll();
    // mails still going out (listeners' sends) finish before the transport, the PDFs and the database go
    await this.mail.close();
    await this.pdf.close();
    await this.db.close();
    await this.embedded?.close();
  }

  private pluginContext(def: PluginDefinition): PluginContext {
    return {
      plugin: def.name,
      config: this.config,
      log: this.log.child({ plugin: def.name }),
      db: this.db,
      options: this.options,
      hooks: pluginHooks(this.hooks, def.name),
      api: this.api,
    };
  }
}
