import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { basic, bootKernel, RestClient, useService, usingPostgres, waitFor, type TestUser } from '../../testing/index.ts';

const svc = useService();
let a: Kernel;
let b: Kernel;
let alice: TestUser;

const me = (k: Kernel, authorization?: string) => new RestClient(k.url, authorization ?? null).get('/users/me');

beforeAll(async () => {
  a = svc.kernel;
  b = await bootKernel(svc.databaseUrl);
  svc.beforeStop(() => b.stop());
  alice = await svc.makeUser('alice', 'billing_viewer');
});

describe('application passwords', () => {
  it('sign in over HTTP Basic with the login or the e-mail, with or without the spaces', async () => {
    for (const name of ['alice', 'ALICE', 'alice@example.com', 'Alice@Example.com']) {
      const res = await me(a, basic(name, alice.appPassword));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: alice.id, login: 'alice', roles: ['billing_viewer'] });
      expect(res.headers.get('cache-control')).toContain('no-store');
    }
    expect((await me(a, basic('alice', alice.appPassword.replace(/ /g, '')))).status).toBe(200);
    expect((await me(a, basic('alice', alice.appPassword.replace(/ /g, '-')))).status).toBe(200);
  });

  it('answer one and the same 401 whatever failed, so user names cannot be probed', async () => {
    const other = await svc.makeUser('bob', 'subscriber');
    const attempts = {
      none: undefined,
      wrongPassword: basic('alice', 'abcd efgh ijkl mnop qrst uvwx'),
      unknownUser: basic('nobody', alice.appPassword),
      unknownEmail: basic('nobody@example.com', 'abcd efgh ijkl mnop qrst uvwx'),
      someoneElsesPassword: basic('alice', other.appPassword),
      shortPassword: basic('alice', 'short'),
      notBase64: 'Basic !!!',
      noColon: `Basic ${Buffer.from('alice').toString('base64')}`,
      bearer: 'Bearer abc',
    };
    const answers = [];
    for (const [cause, authorization] of Object.entries(attempts)) {
      const res = await me(a, authorization);
      answers.push({
        cause,
        status: res.status,
        body: res.text,
        www: res.headers.get('www-authenticate'),
        cache: res.headers.get('cache-control'),
      });
    }
    const expected = {
      status: 401,
      body: JSON.stringify({ code: 'billing_rest_unauthenticated', message: 'You are not currently logged in.', data: { status: 401 } }),
      www: 'Basic realm="billing"',
      cache: null,
    };
    for (const a of answers) expect({ ...a, cause: undefined }).toEqual({ ...expected, cause: undefined });
  });

  it('are stored only as a keyed hash', async () => {
    const rows = await a.db.query<{ password_hash: string }>('select password_hash from billing_app_passwords');
    const plain = alice.appPassword.replace(/ /g, '');
    for (const r of rows) {
      expect(r.password_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(r.password_hash).not.toContain(plain);
    }
    const dump =
      JSON.stringify(await a.db.query('select * from billing_app_passwords')) +
      JSON.stringify(await a.db.query('select * from billing_audit_log'));
    expect(dump).not.toContain(plain);
  });

  it('have a name unique per user regardless of case', async () => {
    const user = await a.identity.users.require('alice');
    await expect(a.identity.appPasswords.create(user, 'TESTS', CLI)).rejects.toMatchObject({ code: 'billing_conflict' });
    const bob = await a.identity.users.require('bob');
    await expect(a.identity.appPasswords.create(bob, 'Laptop', CLI)).resolves.toMatchObject({ name: 'Laptop' });
  });

  it('record when and from where they were last used, at most once a day', async () => {
    const user = await a.identity.users.require('alice');
    const [first] = await a.identity.appPasswords.list(user);
    expect(first).toMatchObject({ name: 'tests', last_used: expect.any(String), last_ip: expect.stringMatching(/127\.0\.0\.1/) });
    // a second use the same day writes nothing
    await a.db.query(`update billing_app_passwords set last_ip = 'earlier' where uuid = $1`, [first!.uuid]);
    expect((await me(a, alice.authorization)).status).toBe(200);
    expect((await a.identity.appPasswords.list(user))[0]!.last_ip).toBe('earlier');
    // a day later it is written again (the credential cache keeps its own copy of the last use, which
    // would be a day old by then too: the change is announced so that copy is dropped)
    await a.db.query(`update billing_app_passwords set last_used = now() - interval '25 hours' where uuid = $1`, [first!.uuid]);
    await a.db.query(`select pg_notify('billing_changes', 'identity')`);
    await new Promise((r) => setTimeout(r, 200));
    expect((await me(a, alice.authorization)).status).toBe(200);
    const [after] = await a.identity.appPasswords.list(user);
    expect(after!.last_ip).toMatch(/127\.0\.0\.1/);
    expect(Date.now() - Date.parse(after!.last_used!)).toBeLessThan(60_000);
  });

  it('once revoked, fail at once on every instance sharing the database', async () => {
    // the failures made above count against alice's name; here a revoked password must answer 401, not 429
    await a.db.query('delete from billing_signin_failures');
    const user = await a.identity.users.require('alice');
    const created = await a.identity.appPasswords.create(user, 'revoke me', CLI);
    const auth = basic('alice', created.password);
    expect((await me(a, auth)).status).toBe(200);
    expect((await me(b, auth)).status).toBe(200);
    await a.identity.appPasswords.revoke(user, created.uuid, CLI);
    // no waiting: the very next request on the other instance is refused
    expect((await me(b, auth)).status).toBe(401);
    expect((await me(a, auth)).status).toBe(401);
    expect((await me(b, alice.authorization)).status).toBe(200);
    const audit = await a.db.query<{ action: string }>(`select action from billing_audit_log where details->>'uuid' = $1 order by id`, [
      created.uuid,
    ]);
    expect(audit.map((r) => r.action)).toEqual(['app_password.create', 'app_password.revoke']);
  });

  // (on the embedded database the feed is delivered within the committing exchange: nothing can be late)
  (usingPostgres ? it : it.skip)('once revoked, fail at once on an instance whose change feed is slow to read', async () => {
    // the other instance's listener is not read for 300 ms (a process or backend scheduled late, as
    // under load): the revoking instance's barrier must wait for its answer, not only for its own echo
    const feed = (b as unknown as { ownFeed: { client: { connection: { stream: import('node:net').Socket } } } }).ownFeed;
    const user = await a.identity.users.require('alice');
    const created = await a.identity.appPasswords.create(user, 'slow feed', CLI);
    const auth = basic('alice', created.password);
    expect((await me(b, auth)).status).toBe(200); // cached on b
    const stream = feed.client.connection.stream;
    stream.pause();
    const resume = setTimeout(() => stream.resume(), 300);
    try {
      await a.identity.appPasswords.revoke(user, created.uuid, CLI);
      expect((await me(b, auth)).status).toBe(401);
    } finally {
      clearTimeout(resume);
      stream.resume();
    }
  });

  it('carry a role change to the next request on every instance', async () => {
    const dave = await svc.makeUser('dave', 'billing_viewer');
    expect((await me(b, dave.authorization)).body).toMatchObject({ roles: ['billing_viewer'] });
    await a.identity.users.setRole('dave', 'editor', CLI);
    expect((await me(b, dave.authorization)).body).toMatchObject({ roles: ['editor'] });
    expect((await me(a, dave.authorization)).body).toMatchObject({ roles: ['editor'] });
  });

  it('are looked up once per instance while the change feed is live, and dropped by a change made in SQL', async () => {
    const erin = await svc.makeUser('erin', 'billing_viewer');
    expect((await me(b, erin.authorization)).status).toBe(200);
    // cached: on PostgreSQL through the LISTEN feed, on the embedded database through its serving process
    expect(b.identity.credentials.size).toBeGreaterThan(0);
    // a change the services never saw (psql, another program) is announced by the table's trigger
    await a.db.query(`delete from billing_app_passwords where user_id = $1`, [erin.id]);
    await waitFor(async () => (await me(b, erin.authorization)).status === 401, {
      timeoutMs: 2000,
      what: 'instance b to refuse the deleted password',
    });
  });

  it('stop working when their user is deleted', async () => {
    const carol = await svc.makeUser('carol', 'billing_viewer');
    expect((await me(b, carol.authorization)).status).toBe(200);
    await a.identity.users.delete('carol', CLI);
    expect((await me(b, carol.authorization)).status).toBe(401);
    expect(
      await a.db.query('select 1 from billing_app_passwords a join billing_users u on u.id = a.user_id where u.login = $1', ['carol']),
    ).toEqual([]);
  });

  it('are for REST only: admin-ajax ignores HTTP Basic', async () => {
    const res = await fetch(`${a.url}/wp-admin/admin-ajax.php?action=rest-nonce`, { headers: { authorization: alice.authorization } });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('0');
    const page = await fetch(`${a.url}/wp-admin/`, { headers: { authorization: alice.authorization }, redirect: 'manual' });
    expect(page.status).toBe(302);
  });

  it('leave the public index public, whatever credentials come with it', async () => {
    expect((await fetch(`${a.url}/wp-json/`, { headers: { authorization: basic('x', 'y') } })).status).toBe(200);
    await waitFor(async () => (await me(b, alice.authorization)).status === 200, { what: "instance b to take alice's password" });
  });
});
