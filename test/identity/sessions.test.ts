import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { bootKernel, meta, Session, useService } from '../../testing/index.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';

const svc = useService({ pluginDirs: [FIXTURE_PLUGINS] });
let a: Kernel;
let b: Kernel;

/** REST as a signed-in browser: its cookies, and the REST nonce when given. */
const rest = (br: Session, path: string, nonce?: string, init: RequestInit = {}) =>
  br.fetch(`/wp-json/billing/v1${path}`, {
    ...init,
    headers: { ...(nonce === undefined ? {} : { 'X-WP-Nonce': nonce }), ...(init.headers as object) },
  });

beforeAll(async () => {
  a = svc.kernel;
  b = await bootKernel(svc.databaseUrl, { pluginDirs: [FIXTURE_PLUGINS] });
  svc.beforeStop(() => b.stop());
  await svc.makeUser('vera', 'billing_viewer', 'vera-pass-1');
  await svc.makeUser('sam', 'subscriber', 'sam-pass-1');
  await a.identity.users.create({ login: 'root2', email: 'root2@example.com', role: 'administrator', password: 'root-pass-1' }, CLI);
});

describe('the login form', () => {
  it('is served at /wp-login.php with the fields WordPress uses', async () => {
    const res = await fetch(`${a.url}/wp-login.php`);
    expect(res.status).toBe(200);
    const page = await res.text();
    for (const field of ['name="log"', 'name="pwd"', 'name="rememberme"', 'action="/wp-login.php"', 'method="post"'])
      expect(page).toContain(field);
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('cache-control')).toContain('no-store');
  });

  it('shows the form again with one generic error for a wrong password or an unknown user', async () => {
    const pages = [];
    for (const [log, pwd] of [
      ['vera', 'wrong'],
      ['nobody', 'wrong'],
      ['vera@example.com', 'wrong'],
      ['', ''],
      ['vera', ''],
    ]) {
      const br = new Session(a.url);
      const res = await br.signIn(log!, pwd!);
      expect(res.status).toBe(200);
      expect(br.cookies.size).toBe(0);
      pages.push((await res.text()).replace(`value="${log}"`, 'value=""'));
    }
    expect(pages[0]).toContain('id="login_error"');
    expect(new Set(pages).size).toBe(1);
  });

  it('escapes what it prints back', async () => {
    const res = await new Session(a.url).signIn('"><script>alert(1)</script>', 'x');
    const page = await res.text();
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('signs in with the login or the e-mail: an HttpOnly, SameSite=Lax session cookie and a redirect to /wp-admin/', async () => {
    for (const log of ['vera', 'VERA@example.com']) {
      const br = new Session(a.url);
      const res = await br.signIn(log, 'vera-pass-1');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/wp-admin/');
      const [cookie] = br.lastSetCookie;
      expect(cookie).toMatch(/^billing_logged_in=[A-Za-z0-9_-]{43}; Path=\//);
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
      expect(cookie).not.toContain('Secure'); // the site is http here
      expect(cookie).not.toContain('Max-Age'); // not remembered: ends with the browser
    }
    const rows = await a.db.query<{ hours: number }>(
      `select round(extract(epoch from expires_at - now()) / 3600)::int as hours from billing_sessions s join billing_users u on u.id = s.user_id where u.login = 'vera'`,
    );
    expect(rows.map((r) => r.hours)).toEqual([48, 48]);
  });

  it('remembers a session for 14 days when asked', async () => {
    const br = new Session(a.url);
    await br.signIn('sam', 'sam-pass-1', true);
    expect(br.lastSetCookie[0]).toContain(`Max-Age=${14 * 24 * 3600}`);
    const rows = await a.db.query<{ days: number }>(
      `select round(extract(epoch from expires_at - now()) / 86400)::int as days from billing_sessions s join billing_users u on u.id = s.user_id where u.login = 'sam'`,
    );
    expect(rows.map((r) => r.days)).toEqual([14]);
  });

  it('rotates the session on every sign-in: the old token stops working', async () => {
    const br = new Session(a.url);
    await br.signIn('vera', 'vera-pass-1');
    const first = br.cookies.get('billing_logged_in')!;
    await br.signIn('vera', 'vera-pass-1');
    const second = br.cookies.get('billing_logged_in')!;
    expect(second).not.toBe(first);
    const old = await fetch(`${a.url}/wp-admin/`, { headers: { cookie: `billing_logged_in=${first}` }, redirect: 'manual' });
    expect(old.status).toBe(302);
    expect((await br.fetch('/wp-admin/')).status).toBe(200);
  });

  it('only redirects inside the admin area', async () => {
    for (const [to, expected] of [
      ['/wp-admin/plugins.php', '/wp-admin/plugins.php'],
      ['https://evil.example/', '/wp-admin/'],
      ['//evil.example/wp-admin/', '/wp-admin/'],
    ]) {
      const br = new Session(a.url);
      const res = await br.fetch('/wp-login.php', {
        method: 'POST',
        body: new URLSearchParams({ log: 'vera', pwd: 'vera-pass-1', redirect_to: to! }),
      });
      expect(res.headers.get('location')).toBe(expected);
    }
  });

  it('sends the Secure flag when the site is served over https', async () => {
    const https = await bootKernel(svc.databaseUrl, { config: { baseUrl: 'https://billing.example.com' } });
    try {
      const port = new URL(https.url).port;
      const br = new Session(`http://127.0.0.1:${port}`);
      await br.signIn('vera', 'vera-pass-1');
      expect(br.lastSetCookie[0]).toMatch(/; Secure$/);
    } finally {
      await https.stop();
    }
  });
});

describe('the admin shell', () => {
  it('sends visitors to the login page', async () => {
    const res = await fetch(`${a.url}/wp-admin/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/wp-login\.php\?redirect_to=%2Fwp-admin%2F/);
  });

  it('embeds both nonces and a logout link for whoever is signed in, on any instance', async () => {
    const br = new Session(a.url);
    await br.signIn('vera', 'vera-pass-1');
    const onB = new Session(b.url);
    for (const [k, v] of br.cookies) onB.cookies.set(k, v);
    for (const browser of [br, onB]) {
      const res = await browser.fetch('/wp-admin/');
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(meta(page, 'billing-admin-nonce')).toMatch(/^[0-9a-f]{10}$/);
      expect(meta(page, 'billing-rest-nonce')).toMatch(/^[0-9a-f]{10}$/);
      expect(page).toMatch(/href="\/wp-login\.php\?action=logout&amp;_wpnonce=[0-9a-f]{10}"/);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
  });

  it('escapes what it prints (names, settings)', async () => {
    await a.identity.users.create(
      {
        login: 'mallory',
        email: 'm@example.com',
        role: 'subscriber',
        password: 'mallory-pass',
        display_name: '<img src=x onerror=alert(1)>',
      },
      CLI,
    );
    await a.options.set('company_name', 'Acme <b>"&"</b>', CLI);
    const br = new Session(a.url);
    await br.signIn('mallory', 'mallory-pass');
    const page = await (await br.fetch('/wp-admin/')).text();
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('Acme &lt;b&gt;&quot;&amp;&quot;&lt;/b&gt;');
    await a.options.delete('company_name', CLI);
  });

  it('shows the Plugins screen only to those who may manage options', async () => {
    const sam = new Session(a.url);
    await sam.signIn('sam', 'sam-pass-1');
    expect((await sam.fetch('/wp-admin/plugins.php')).status).toBe(403);
    expect(await (await sam.fetch('/wp-admin/')).text()).not.toContain('plugins.php');
    const root = new Session(a.url);
    await root.signIn('root2', 'root-pass-1');
    const res = await root.fetch('/wp-admin/plugins.php');
    expect(res.status).toBe(200);
    const page = await res.text();
    // attributes as the browser reads them, whatever whitespace the template puts between them
    expect(page).toMatch(/data-billing-ajax="billing_activate_plugin"\s+data-plugin="hello"/);
    expect((await root.fetch('/wp-admin/nope.php')).status).toBe(404);
  });
});

describe('cookies and nonces on REST and AJAX', () => {
  it('REST: a cookie with its X-WP-Nonce signs in; without a nonce it is nobody; with a bad one 403', async () => {
    const br = new Session(a.url);
    await br.signIn('vera', 'vera-pass-1');
    const { rest: nonce, admin } = await br.nonces();
    const ok = await rest(br, '/users/me', nonce);
    expect(ok.status).toBe(200);
    expect((await ok.json()).login).toBe('vera');
    expect((await br.fetch(`/wp-json/billing/v1/users/me?_wpnonce=${nonce}`)).status).toBe(200);

    const none = await rest(br, '/users/me');
    expect(none.status).toBe(401);
    expect((await none.json()).code).toBe('billing_rest_unauthenticated');

    for (const bad of ['0123456789', admin, 'x']) {
      const res = await rest(br, '/users/me', bad);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ code: 'rest_cookie_invalid_nonce', message: 'Cookie check failed', data: { status: 403 } });
    }
    // another user's nonce is a bad nonce
    const other = new Session(a.url);
    await other.signIn('sam', 'sam-pass-1');
    expect((await rest(other, '/users/me', nonce)).status).toBe(403);
  });

  it('REST: a nonce with a stale or forged cookie is nobody', async () => {
    const res = await fetch(`${a.url}/wp-json/billing/v1/users/me`, {
      headers: { cookie: `billing_logged_in=${'A'.repeat(43)}`, 'X-WP-Nonce': '0123456789' },
    });
    expect(res.status).toBe(401);
  });

  it('admin-ajax.php?action=rest-nonce hands a signed-in user a fresh wp_rest nonce as text', async () => {
    const br = new Session(a.url);
    await br.signIn('vera', 'vera-pass-1');
    const res = await br.fetch('/wp-admin/admin-ajax.php?action=rest-nonce');
    expect(res.status).toBe(200);
    const nonce = await res.text();
    expect(nonce).toMatch(/^[0-9a-f]{10}$/);
    expect((await rest(br, '/users/me', nonce)).status).toBe(200);
    const visitor = await fetch(`${a.url}/wp-admin/admin-ajax.php?action=rest-nonce`);
    expect([visitor.status, await visitor.text()]).toEqual([400, '0']);
  });

  it('AJAX: -1 for a bad nonce, billing_forbidden without the capability, success with both', async () => {
    const root = await svc.ajax('root2', 'root-pass-1');
    const admin = root.nonce;
    const sam = await svc.ajax('sam', 'sam-pass-1');

    const bad = await root.post({ action: 'billing_activate_plugin', plugin: 'hello', _wpnonce: 'deadbeef00' });
    expect([bad.status, bad.text]).toEqual([403, '-1']);
    const missing = await root.post({ action: 'billing_activate_plugin', plugin: 'hello' });
    expect([missing.status, missing.text]).toEqual([403, '-1']);
    // sam's own nonce is valid, but sam may not manage plugins
    const forbidden = await sam.post({ action: 'billing_activate_plugin', plugin: 'hello', _wpnonce: sam.nonce });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ success: false, data: { code: 'billing_forbidden', message: expect.any(String) } });
    // root's nonce does not work with sam's cookie
    expect((await sam.post({ action: 'billing_activate_plugin', plugin: 'hello', _wpnonce: admin })).status).toBe(403);

    const done = await root.post({ action: 'billing_activate_plugin', plugin: 'hello', _wpnonce: admin });
    expect(done.body).toEqual({ success: true, data: { plugin: 'hello', active: true } });
    expect((await a.plugins.list()).find((p) => p.name === 'hello')!.active).toBe(true);
    const unknown = await root.post({ action: 'billing_activate_plugin', plugin: 'nope', _wpnonce: admin });
    expect(unknown.body).toMatchObject({ success: false, data: { code: 'billing_unknown_plugin' } });
    const off = await root.post({ action: 'billing_deactivate_plugin', plugin: 'hello', _wpnonce: admin });
    expect(off.body).toEqual({ success: true, data: { plugin: 'hello', active: false } });
    const audit = await a.db.query<{ actor: string; action: string; ip: string | null }>(
      `select actor, action, ip from billing_audit_log where object_type = 'plugin' order by id`,
    );
    expect(audit.map((r) => [r.actor, r.action])).toEqual([
      ['root2', 'plugin.activate'],
      ['root2', 'plugin.deactivate'],
    ]);
    expect(audit[0]!.ip).toMatch(/127\.0\.0\.1/);
  });
});

describe('logout', () => {
  it('needs the log-out nonce, ends the session everywhere and clears the cookie', async () => {
    const br = new Session(a.url);
    await br.signIn('vera', 'vera-pass-1');
    const token = br.cookies.get('billing_logged_in')!;
    const { logout, rest: nonce } = await br.nonces();

    const forged = await br.fetch('/wp-login.php?action=logout&_wpnonce=0123456789');
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('Do you really want to');
    expect((await br.fetch('/wp-admin/')).status).toBe(200);
    // the other instance has looked the session up (and keeps it while its change feed is live)
    const onB = () => fetch(`${b.url}/wp-admin/`, { headers: { cookie: `billing_logged_in=${token}` }, redirect: 'manual' });
    expect((await onB()).status).toBe(200);
    expect(b.identity.credentials.size).toBeGreaterThan(0);

    const res = await br.fetch(`/wp-login.php?action=logout&_wpnonce=${logout}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/wp-login.php?loggedout=true');
    expect(br.lastSetCookie[0]).toMatch(/^billing_logged_in=; Path=\/; Max-Age=0/);
    expect(br.cookies.size).toBe(0);
    // the old token is dead on every instance, for screens and for REST
    const replay = { cookie: `billing_logged_in=${token}` };
    expect((await fetch(`${b.url}/wp-admin/`, { headers: replay, redirect: 'manual' })).status).toBe(302);
    expect((await fetch(`${b.url}/wp-json/billing/v1/users/me`, { headers: { ...replay, 'X-WP-Nonce': nonce } })).status).toBe(401);
    expect(await (await fetch(`${a.url}/wp-login.php?loggedout=true`)).text()).toContain('You are now logged out.');
  });

  it('is recorded with sign-ins in the audit log', async () => {
    const rows = await a.db.query<{ actor: string; action: string }>(
      `select actor, action from billing_audit_log where action like 'user.log%' and actor = 'vera' order by id`,
    );
    expect(rows.at(-1)).toEqual({ actor: 'vera', action: 'user.logout' });
    expect(rows.filter((r) => r.action === 'user.login').length).toBeGreaterThan(3);
  });

  it('a new password ends every session of that user, on every instance at once', async () => {
    const br = new Session(a.url);
    await br.signIn('sam', 'sam-pass-1');
    expect((await br.fetch('/wp-admin/')).status).toBe(200);
    const cookie = `billing_logged_in=${br.cookies.get('billing_logged_in')!}`;
    expect((await fetch(`${b.url}/wp-admin/`, { headers: { cookie }, redirect: 'manual' })).status).toBe(200);
    await a.identity.users.setPassword('sam', 'sam-pass-2', CLI);
    expect((await fetch(`${b.url}/wp-admin/`, { headers: { cookie }, redirect: 'manual' })).status).toBe(302);
    expect((await br.fetch('/wp-admin/')).status).toBe(302);
    expect((await br.signIn('sam', 'sam-pass-1')).status).toBe(200);
    expect((await br.signIn('sam', 'sam-pass-2')).status).toBe(302);
  });

  it('greets with the display name, changed at the next page on every instance', async () => {
    const br = new Session(a.url);
    await br.signIn('vera', 'vera-pass-1');
    const cookie = `billing_logged_in=${br.cookies.get('billing_logged_in')!}`;
    const greeting = async () =>
      /Howdy, ([^<·]+)/.exec(await (await fetch(`${b.url}/wp-admin/`, { headers: { cookie } })).text())?.[1]?.trim();
    const before = await greeting();
    await a.identity.users.updateProfile('vera', { display_name: 'Vera V.' }, CLI);
    expect(await greeting()).toBe('Vera V.');
    expect(before).not.toBe('Vera V.');
  });
});
