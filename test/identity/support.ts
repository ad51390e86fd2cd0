import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLI } from '../../core/audit/audit.ts';
import { loadConfig, type Config } from '../../core/config.ts';
import { Kernel } from '../../core/kernel.ts';
import { silentLogger } from '../../core/log.ts';
import { BUNDLED_PLUGINS, FIXTURE_PLUGINS, freePort } from '../helpers/kernel.ts';

/** The HTTP tests' own fixture plugins (the `widgets` collection), beside the shared fixtures. */
export const HTTP_FIXTURE_PLUGINS = resolve(import.meta.dirname, '../http/fixtures/plugins');

export interface QuietKernel {
  kernel: Kernel;
  /** What the first start printed (the one-time admin credentials), instead of stdout. */
  announced: string[];
}

/** Like test/helpers bootKernel, but keeps the first start's announcement and adds the HTTP fixtures. */
export async function bootIdentityKernel(databaseUrl: string, config: Partial<Config> = {}): Promise<QuietKernel> {
  const port = await freePort();
  const announced: string[] = [];
  const kernel = await Kernel.boot(
    loadConfig(
      {},
      {
        port,
        baseUrl: `http://127.0.0.1:${port}`,
        databaseUrl,
        dataDir: mkdtempSync(join(tmpdir(), 'billing-data-')),
        syncIntervalMs: 100,
        pluginDirs: [BUNDLED_PLUGINS, FIXTURE_PLUGINS, HTTP_FIXTURE_PLUGINS],
        ...config,
      },
    ),
    { serve: true, log: silentLogger(), announce: (t) => announced.push(t) },
  );
  return { kernel, announced };
}

export function basic(name: string, password: string): string {
  return `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
}

export interface TestUser {
  id: number;
  login: string;
  email: string;
  appPassword: string;
  authorization: string;
}

/** A user of `role` with an application password (and a sign-in password when given). */
export async function makeUser(k: Kernel, login: string, role: string, password?: string): Promise<TestUser> {
  const email = `${login}@example.com`;
  const user = await k.identity.users.create({ login, email, role, password }, CLI);
  const app = await k.identity.appPasswords.create(user, 'tests', CLI);
  return { id: user.id, login, email, appPassword: app.password, authorization: basic(login, app.password) };
}

/**
 * A browser, as far as the tests need one: it keeps cookies (honouring Max-Age=0) and does not follow
 * redirects, so each step of a flow can be checked.
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  readonly base: string;
  lastSetCookie: string[] = [];

  constructor(base: string) {
    this.base = base;
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(path.startsWith('http') ? path : `${this.base}${path}`, { ...init, headers, redirect: 'manual' });
    this.lastSetCookie = res.headers.getSetCookie();
    for (const c of this.lastSetCookie) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (/;\s*Max-Age=0/i.test(c) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Posts the login form; answers the response (302 on success). */
  signIn(log: string, pwd: string, remember = false): Promise<Response> {
    const body = new URLSearchParams({ log, pwd });
    if (remember) body.set('rememberme', 'forever');
    return this.fetch('/wp-login.php', { method: 'POST', body });
  }

  /** The admin shell's nonces, read from its meta tags. */
  async nonces(): Promise<{ admin: string; rest: string; logout: string }> {
    const page = await (await this.fetch('/wp-admin/')).text();
    return {
      admin: meta(page, 'billing-admin-nonce'),
      rest: meta(page, 'billing-rest-nonce'),
      logout: /href="\/wp-login\.php\?action=logout&amp;_wpnonce=([0-9a-f]{10})"/.exec(page)?.[1] ?? '',
    };
  }
}

/** A meta tag's content, written `<meta …>` or `<meta … />` (prettier writes the page templates' tags so). */
export function meta(page: string, name: string): string {
  return new RegExp(`<meta name="${name}" content="([^"]*)"\\s*/?>`).exec(page)?.[1] ?? '';
}

export function ajax(b: Browser, fields: Record<string, string>): Promise<Response> {
  return b.fetch('/wp-admin/admin-ajax.php', { method: 'POST', body: new URLSearchParams(fields) });
}
