import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Kernel } from '../../core/kernel.ts';
import { basic, useService } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';

const svc = useService(); // its first start creates `admin`
let server: Kernel;
const cli = (...args: string[]) => billing(svc.databaseUrl, args);
const jsonOf = async (...args: string[]) => {
  const r = await cli(...args, '--format', 'json');
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(r.stdout);
};
const me = (authorization: string) => svc.rest().as(authorization).get('/users/me');

beforeAll(() => {
  server = svc.kernel;
});

// A walk through the commands: each test continues from what the ones before it did. So that a test also
// runs alone, it first takes the steps before it that it needs; a step is taken once, by the test that
// checks it when the whole file runs, so the audit log holds the same rows either way.
const BOB = ['bob', '--email', 'bob@example.com', '--role', 'editor', '--password', 'bob-pass-1', '--display-name', 'Bob Builder'];
const BOB_PROFILE = ['--country', 'DE', '--vat', 'DE123456789', '--company', 'Acme GmbH'];
/** bob's first application password ("laptop"), and its uuid. */
let password = '';
let uuid = '';
const STEPS = {
  async users() {
    expect((await cli('user', 'create', ...BOB, ...BOB_PROFILE)).code).toBe(0);
    expect((await cli('user', 'create', 'carol', '--email', 'carol@example.com')).code).toBe(0);
  },
  async role() {
    expect((await cli('user', 'set-role', 'bob', 'billing_viewer')).code).toBe(0);
  },
  async passwords() {
    password = (await cli('app-password', 'create', 'bob', '--name', 'laptop')).stdout.trimEnd().split('\n').at(-1)!;
    expect((await me(basic('bob', password))).status).toBe(200); // used once
    expect((await cli('app-password', 'create', 'bob', '--name', 'phone')).code).toBe(0);
  },
  async revoke() {
    uuid ||= (await jsonOf('app-password', 'list', 'bob'))[0].uuid;
    expect((await cli('app-password', 'revoke', 'bob', uuid)).code).toBe(0);
  },
  async delete() {
    expect((await cli('user', 'delete', 'carol')).code).toBe(0);
  },
};
type Step = keyof typeof STEPS;
const done = new Set<Step>();
/** Takes the steps not yet taken, in order. */
async function after(...steps: Step[]): Promise<void> {
  for (const step of steps) {
    if (done.has(step)) continue;
    await STEPS[step]();
    done.add(step);
  }
}

describe('billing user …', () => {
  it('create prints the new id (JSON: id and login) and keeps the profile', async () => {
    const created = await jsonOf('user', 'create', ...BOB, ...BOB_PROFILE);
    expect(created).toEqual({ id: expect.any(Number), login: 'bob' });
    const text = await cli('user', 'create', 'carol', '--email', 'carol@example.com');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^\d+\n$/);
    const bob = await server.identity.users.require('bob');
    expect(bob).toMatchObject({
      id: created.id,
      display_name: 'Bob Builder',
      role: 'editor',
      country: 'DE',
      vat: 'DE123456789',
      company: 'Acme GmbH',
    });
    expect((await server.identity.users.require('carol')).role).toBe('subscriber');
    done.add('users');
  });

  it('create refuses what it cannot keep, on one line of stderr', async () => {
    await after('users');
    for (const args of [
      ['user', 'create', 'bob', '--email', 'other@example.com'],
      ['user', 'create', 'dave', '--email', 'BOB@example.com'],
      ['user', 'create', 'dave', '--email', 'not-an-email'],
      ['user', 'create', 'dave', '--email', 'dave@example.com', '--role', 'emperor'],
      ['user', 'create', 'dave', '--email', 'dave@example.com', '--country', 'germany'],
      ['user', 'create', 'da@ve', '--email', 'dave@example.com'],
      ['user', 'create', 'dave'],
    ]) {
      const r = await cli(...args);
      expect(r.code).not.toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^Error: .+\n$/);
    }
    expect(await server.identity.users.byLogin('dave')).toBeNull();
  });

  it('list shows every user', async () => {
    await after('users');
    const rows = await jsonOf('user', 'list');
    expect(rows.map((r: { login: string }) => r.login)).toEqual(['admin', 'bob', 'carol']);
    expect(rows[1]).toEqual({
      id: expect.any(Number),
      login: 'bob',
      email: 'bob@example.com',
      display_name: 'Bob Builder',
      role: 'editor',
      company: 'Acme GmbH',
      country: 'DE',
      vat: 'DE123456789',
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const text = await cli('user', 'list');
    expect(text.stdout.split('\n')[0]).toMatch(/^id\s+login\s+email\s+display_name\s+role\s+created$/);
  });

  it('set-role changes the role and refuses an unknown one', async () => {
    await after('users');
    expect(await jsonOf('user', 'set-role', 'bob', 'billing_viewer')).toEqual({
      id: expect.any(Number),
      login: 'bob',
      role: 'billing_viewer',
    });
    expect((await cli('user', 'set-role', 'bob', 'emperor')).code).toBe(1);
    expect((await cli('user', 'set-role', 'nobody', 'editor')).stderr).toBe('Error: no user has the login nobody\n');
    expect((await server.identity.users.require('bob')).role).toBe('billing_viewer');
    done.add('role');
  });
});

describe('billing app-password …', () => {
  it('create prints the password, in groups of 4, as the last line; it works over REST at once', async () => {
    await after('users');
    const r = await cli('app-password', 'create', 'bob', '--name', 'laptop');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    password = lines.at(-1)!;
    expect(password).toMatch(/^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
    const res = await me(basic('bob', password));
    expect(res.status).toBe(200);
    expect(res.body.login).toBe('bob');
    const json = await jsonOf('app-password', 'create', 'bob', '--name', 'phone');
    expect(Object.keys(json).sort()).toEqual(['name', 'password', 'uuid']);
    expect(json).toMatchObject({
      name: 'phone',
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      password: expect.stringMatching(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/),
    });
    expect((await cli('app-password', 'create', 'bob', '--name', 'LAPTOP')).code).toBe(1);
    done.add('passwords');
  });

  it('list gives uuid, name, created, last_used and last_ip, never the password', async () => {
    await after('users', 'passwords');
    const rows = await jsonOf('app-password', 'list', 'bob');
    expect(rows).toEqual([
      {
        uuid: expect.any(String),
        name: 'laptop',
        created: expect.any(String),
        last_used: expect.any(String),
        last_ip: expect.stringMatching(/127\.0\.0\.1/),
      },
      { uuid: expect.any(String), name: 'phone', created: expect.any(String), last_used: null, last_ip: null },
    ]);
    uuid = rows[0].uuid;
    expect(JSON.stringify(rows)).not.toContain(password.replace(/ /g, ''));
  });

  it('revoke ends it at once', async () => {
    await after('users', 'passwords');
    uuid ||= (await jsonOf('app-password', 'list', 'bob'))[0].uuid;
    expect(await jsonOf('app-password', 'revoke', 'bob', uuid)).toEqual({ uuid, revoked: true });
    expect((await me(basic('bob', password))).status).toBe(401);
    const again = await cli('app-password', 'revoke', 'bob', uuid);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Error: bob has no application password/);
    done.add('revoke');
  });
});

describe('billing user delete', () => {
  it('deletes a user, but never the last administrator', async () => {
    await after('users');
    expect((await cli('user', 'delete', 'carol')).stdout).toBe('User carol deleted.\n');
    expect((await cli('user', 'delete', 'carol')).code).toBe(1);
    const last = await cli('user', 'delete', 'admin');
    expect(last.code).toBe(1);
    expect(last.stderr).toBe('Error: the last administrator cannot be removed or demoted\n');
    expect((await cli('user', 'set-role', 'admin', 'editor')).code).toBe(1);
    done.add('delete');
  });

  it('every change is in the audit log as the CLI', async () => {
    await after('users', 'role', 'passwords', 'revoke', 'delete');
    const rows = await server.db.query<{ actor: string; action: string }>(
      `select actor, action from billing_audit_log where object_type = 'user' and actor = 'cli' order by id`,
    );
    expect(rows.map((r) => r.action)).toEqual([
      'user.create',
      'user.create',
      'user.set_role',
      'app_password.create',
      'app_password.create',
      'app_password.revoke',
      'user.delete',
    ]);
  });
});
