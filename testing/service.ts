import { afterAll, beforeAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI } from '../core/audit/audit.ts';
import { loadConfig, type Config } from '../core/config.ts';
import { Kernel } from '../core/kernel.ts';
import { silentLogger, type Logger } from '../core/log.ts';
import type { OptionKey, OptionMap } from '../core/options/option-map.ts';
import { freshDatabase, type TestDatabase } from './database.ts';
import { MailCatcher } from './mail-catcher.ts';
import { RestClient } from './rest-client.ts';
import { AjaxClient } from './session.ts';

/** The bundled plugins' folder (`plugins/`), always searched. */
export const BUNDLED_PLUGINS = resolve(import.meta.dirname, '../plugins');

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

export interface KernelOptions {
  /** Folders of plugin folders searched besides the bundled one (an outside plugin's parent folder). */
  pluginDirs?: string[];
  /** Listen on a free port (default), or boot without serving (CLI-like use). */
  serve?: boolean;
  log?: Logger;
  config?: Partial<Config>;
  /** What the first start announces (the one-time admin credentials); default: dropped. */
  announce?: (text: string) => void;
}

/** A kernel on `databaseUrl`, serving on a free loopback port with a data folder of its own, fast polling. */
export async function bootKernel(databaseUrl: string, opts: KernelOptions = {}): Promise<Kernel> {
  const port = await freePort();
  const config = loadConfig(
    {},
    {
      port,
      baseUrl: `http://127.0.0.1:${port}`,
      databaseUrl,
      dataDir: mkdtempSync(join(tmpdir(), 'billing-data-')),
      syncIntervalMs: 100,
      pluginDirs: [BUNDLED_PLUGINS, ...(opts.pluginDirs ?? [])],
      // fake gateways are served on 127.0.0.1 over http
      gatewayLoopbackHttp: true,
      ...opts.config,
    },
  );
  return Kernel.boot(config, { serve: opts.serve ?? true, log: opts.log ?? silentLogger(), announce: opts.announce ?? (() => {}) });
}

export interface TestUser {
  id: number;
  login: string;
  email: string;
  appPassword: string;
  /** `Basic …` with the application password. */
  authorization: string;
}

export function basic(name: string, password: string): string {
  return `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
}

/** A user of `role` with an application password (and a sign-in password when given). */
export async function makeUser(k: Kernel, login: string, role: string, password?: string): Promise<TestUser> {
  const email = `${login}@example.com`;
  const user = await k.identity.users.create({ login, email, role, password }, CLI);
  const app = await k.identity.appPasswords.create(user, 'tests', CLI);
  return { id: user.id, login, email, appPassword: app.password, authorization: basic(login, app.password) };
}

export interface ServiceOptions extends KernelOptions {
  /** Plugins to activate once booted, in this order. */
  plugins?: string[];
  /** Options to set once booted (after the plugins, so their settings exist). */
  options?: Partial<{ [K in OptionKey]: OptionMap[K] }>;
  /** Start a mail catcher (a real SMTP server) and send the service's mail through it. */
  mail?: boolean;
}

/**
 * One booted service for a test file: a fresh database (on `TEST_DATABASE_URL`'s PostgreSQL, else an
 * in-memory embedded one), a kernel serving on a free port, the asked plugins active, and clients per
 * user. `stop()` closes everything in reverse order; `useService` registers start and stop with jest.
 */
export class TestService {
  #kernel: Kernel | null = null;
  #db: TestDatabase | null = null;
  #mail: MailCatcher | null = null;
  #dataDir: string | null = null;
  #beforeStop: Array<() => Promise<void> | void> = [];

  readonly opts: ServiceOptions;

  constructor(opts: ServiceOptions = {}) {
    this.opts = opts;
  }

  async start(): Promise<this> {
    this.#db = await freshDatabase();
    if (this.opts.mail) this.#mail = await new MailCatcher().start();
    this.#kernel = await bootKernel(this.#db.url, {
      ...this.opts,
      config: { ...(this.#mail ? { smtpUrl: this.#mail.url } : {}), ...this.opts.config },
    });
    this.#dataDir = this.#kernel.config.dataDir;
    for (const name of this.opts.plugins ?? []) await this.#kernel.plugins.activate(name, CLI);
    for (const [key, value] of Object.entries(this.opts.options ?? {})) await this.setOption(key as OptionKey, value as never);
    return this;
  }

  get kernel(): Kernel {
    if (!this.#kernel) throw new Error('the service is not started (call start(), or useService in a test file)');
    return this.#kernel;
  }

  get url(): string {
    return this.kernel.url;
  }

  /** The mail catcher (`mail: true`). */
  get mail(): MailCatcher {
    if (!this.#mail) throw new Error('start the service with { mail: true } to catch its mail');
    return this.#mail;
  }

  /** The database's URL, for a second instance on the same data (`bootKernel(svc.databaseUrl)`). */
  get databaseUrl(): string {
    if (!this.#db) throw new Error('the service is not started');
    return this.#db.url;
  }

  makeUser(login: string, role: string, password?: string): Promise<TestUser> {
    return makeUser(this.kernel, login, role, password);
  }

  /** REST as `user` (Basic, with their application password), or as nobody. */
  rest(user: TestUser | null = null): RestClient {
    return new RestClient(this.url, user?.authorization ?? null);
  }

  /** admin-ajax as `login`, signed in with `password` through the login form. */
  ajax(login: string, password: string): Promise<AjaxClient> {
    return AjaxClient.signIn(this.url, login, password);
  }

  async setOption<K extends OptionKey>(key: K, value: OptionMap[K]): Promise<void> {
    await this.kernel.options.set(key, value, CLI);
  }

  activate(plugin: string): Promise<void> {
    return this.kernel.plugins.activate(plugin, CLI);
  }

  /**
   * Runs `check` when the service stops, while it still serves (a file's own `afterAll` runs after
   * `useService`'s, as jest runs them in declaration order): for what a whole file must prove, such as
   * that no body received held a secret. The service stops even when a check throws; the error is kept.
   */
  beforeStop(check: () => Promise<void> | void): void {
    this.#beforeStop.push(check);
  }

  async stop(): Promise<void> {
    let failed: unknown = null;
    if (this.#kernel)
      for (const check of this.#beforeStop.splice(0)) {
        try {
          await check();
        } catch (e) {
          failed ??= e;
        }
      }
    await this.#kernel?.stop();
    await this.#mail?.close();
    await this.#db?.drop();
    if (this.#dataDir) rmSync(this.#dataDir, { recursive: true, force: true });
    this.#kernel = this.#db = this.#mail = null;
    if (failed) throw failed;
  }
}

/**
 * A service for the calling test file: started before its first test, stopped after its last. Each
 * test may then run alone (`-t`): nothing depends on another test having run first.
 */
export function useService(opts: ServiceOptions = {}): TestService {
  const svc = new TestService(opts);
  beforeAll(() => svc.start().then(() => undefined));
  afterAll(() => svc.stop());
  return svc;
}
