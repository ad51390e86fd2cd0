import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { bootKernel, RestClient, Session, TestService, useService, type TestUser } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';
import { archiveDir } from './support.ts';

const SECRET_KEY = 'sk_test_51SecretKeyThatMustNotTravel';
const SIGNING = 'whsec_signingSecretThatMustNotTravel';
const svc = useService({
  plugins: ['gateway-a', 'webhooks'],
  options: { gateway_a_secret_key: SECRET_KEY, gateway_a_signing_secret: SIGNING, webhooks_allow_private_hosts: true },
});
const dir = archiveDir();
let admin: TestUser;
/** A webhook subscription's signing secret (a plugin's secret column). */
let hook: { id: number; secret: string };
const started: Array<{ stop(): Promise<void> }> = [];

const cli = (databaseUrl: string, ...args: string[]) => billing(databaseUrl, args);
const signsIn = async (url: string, login: string, password: string) => (await new Session(url).signIn(login, password)).status === 302;

beforeAll(async () => {
  admin = await svc.makeUser('boss', 'administrator', 'boss-password');
  const created = await svc.rest(admin).post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['invoice.created'] });
  expect(created.status).toBe(201);
  hook = { id: created.body.id, secret: created.body.secret };
  await svc
    .rest(admin)
    .post('/invoices', { customer_name: 'Jane', status: 'available', items: [{ name: 'Work', quantity: 1, price: 50 }] });
});

afterAll(async () => {
  for (const s of started.reverse()) await s.stop();
});

const subscriptions = (t: TestService) =>
  t.kernel.db.query<{ id: string; url: string; secret: string }>('select id, url, secret from webhooks_subscriptions order by id');

/** Restores `archive` into a fresh instance and starts a server on the result (keys are read at start). */
async function restoreFresh(archive: string) {
  const target = await new TestService().start();
  started.push(target);
  const r = await cli(target.databaseUrl, 'import', archive);
  expect(r.stderr).not.toMatch(/^Error/m);
  expect(r.code).toBe(0);
  const kernel = await bootKernel(target.databaseUrl);
  started.push(kernel);
  return { target, kernel, stdout: r.stdout };
}

describe('secrets in an export', () => {
  it('travel only with --include-secrets: without, users come back without passwords and no secret is in the archive bytes', async () => {
    const archive = join(dir, 'plain.tar.gz');
    expect((await cli(svc.databaseUrl, 'export', '--output', archive)).code).toBe(0);
    const bytes = gunzipSync(readFileSync(archive)).toString('latin1');
    const [stored] = await svc.kernel.db.query<{ password_hash: string }>(`select password_hash from billing_users where login = 'boss'`);
    const [app] = await svc.kernel.db.query<{ password_hash: string }>(
      `select a.password_hash from billing_app_passwords a join billing_users u on u.id = a.user_id where u.login = 'boss'`,
    );
    const [key] = await svc.kernel.db.query<{ value: string }>(`select value from billing_secrets where name = 'secret_key'`);
    expect(bytes).toContain('"login": "boss"');
    for (const secret of [SECRET_KEY, SIGNING, hook.secret, stored!.password_hash, app!.password_hash, key!.value, admin.appPassword]) {
      expect(bytes).not.toContain(secret);
    }
    expect(bytes).not.toContain('password_hash');

    const { target, kernel, stdout } = await restoreFresh(archive);
    expect(stdout).toContain('The archive carried no passwords');
    expect((await new RestClient(kernel.url, admin.authorization).get('/users/me')).status).toBe(401);
    expect(await signsIn(kernel.url, 'boss', 'boss-password')).toBe(false);
    expect((await cli(target.databaseUrl, 'option', 'get', 'gateway_a_secret_key')).stdout).toBe('\n');
    // the subscription is back, signing with a secret of its own (its old one did not travel)
    const [sub] = await subscriptions(target);
    expect(sub).toEqual({ id: String(hook.id), url: 'http://127.0.0.1:9/hook', secret: expect.stringMatching(/^whsec_/) });
    expect(sub!.secret).not.toBe(hook.secret);
    // the CLI gives a password back
    expect((await cli(target.databaseUrl, 'user', 'set-password', 'boss', '--password', 'a-new-password')).code).toBe(0);
    expect(await signsIn(kernel.url, 'boss', 'a-new-password')).toBe(true);
  });

  it('with --include-secrets the same application password and sign-in password work after the restore, and the gateway keys are back', async () => {
    const archive = join(dir, 'secrets.tar.gz');
    expect((await cli(svc.databaseUrl, 'export', '--output', archive, '--include-secrets')).code).toBe(0);
    expect(gunzipSync(readFileSync(archive)).toString('latin1')).toContain(SECRET_KEY);

    const { target, kernel } = await restoreFresh(archive);
    const me = await new RestClient(kernel.url, admin.authorization).get('/users/me');
    expect(me.status).toBe(200);
    const here = await svc.rest(admin).get('/users/me');
    expect(JSON.stringify(me.body).replaceAll(kernel.config.baseUrl, '')).toBe(
      JSON.stringify(here.body).replaceAll(svc.kernel.config.baseUrl, ''),
    );
    expect(await signsIn(kernel.url, 'boss', 'boss-password')).toBe(true);
    expect((await cli(target.databaseUrl, 'option', 'get', 'gateway_a_secret_key')).stdout).toBe(`${SECRET_KEY}\n`);
    expect(await subscriptions(target)).toEqual([{ id: String(hook.id), url: 'http://127.0.0.1:9/hook', secret: hook.secret }]);
    expect((await cli(target.databaseUrl, 'plugin', 'list', '--format', 'json')).stdout).toContain(
      '"name":"gateway-a","version":"1.0.0","title"',
    );
  });
});
