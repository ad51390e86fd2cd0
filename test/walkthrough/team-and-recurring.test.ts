// The "done when" of issue 10 for team roles and recurring invoices, as a newcomer follows
// docs/team-roles.md and docs/recurring.md: every step through the real `billing` CLI or REST.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Kernel } from '../../core/kernel.ts';
import { billing } from '../helpers/cli.ts';
import { RestClient, basic, bootKernel, freshDatabase, waitFor, type TestDatabase } from '../../testing/index.ts';

// not useService: the second test stops the server and starts a new one on the same database
let db: TestDatabase;
let k: Kernel;
const auth: Record<string, string> = {};

async function cli(...args: string[]): Promise<string> {
  const r = await billing(db.url, args);
  if (r.code !== 0) throw new Error(`billing ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

async function rest(who: string, method: string, path: string, body?: unknown) {
  const res = await new RestClient(k.url, auth[who]!).request(method, path, body);
  return { status: res.status, body: res.body, total: res.headers.get('x-wp-total') };
}

async function person(login: string, role: string): Promise<void> {
  await cli('user', 'create', login, '--email', `${login}@example.com`, '--role', role);
  auth[login] = basic(login, (await cli('app-password', 'create', login)).split('\n').at(-1)!);
}

beforeAll(async () => {
  db = await freshDatabase();
  k = await bootKernel(db.url);
  await person('owner', 'administrator');
}, 60000);

afterAll(async () => {
  await k?.stop();
  await db?.drop();
});

it('gives a colleague the sales role: they see only their own documents', async () => {
  await cli('plugin', 'activate', 'team-roles');
  await waitFor(() => k.plugins.isLoaded('team-roles'), { what: 'team-roles to load' });
  await person('colleague', 'subscriber');
  await cli('user', 'set-role', 'colleague', 'billing_sales');
  await cli('option', 'set', 'team_sales_scope', 'own');
  expect(await cli('role', 'list')).toContain('billing_sales');

  const item = { name: 'Consulting', quantity: 2, price: 90 };
  const theirs = await rest('colleague', 'POST', '/invoices', { customer_name: 'Their customer', items: [item] });
  const ours = await rest('owner', 'POST', '/invoices', { customer_name: 'Our customer', items: [item] });
  expect([theirs.status, ours.status]).toEqual([201, 201]);
  const seen = await rest('colleague', 'GET', '/invoices');
  expect(seen.body.map((i: any) => i.id)).toEqual([theirs.body.id]);
  expect(seen.total).toBe('1');
  expect((await rest('colleague', 'GET', `/invoices/${ours.body.id}`)).status).toBe(404);
  expect((await rest('colleague', 'GET', `/invoices/${ours.body.id}/pdf`)).status).toBe(404);
  expect((await rest('owner', 'GET', '/invoices')).total).toBe('2');
  const log = await k.db.query<{ action: string }>(`select action from billing_audit_log where action = 'user.set_role'`);
  expect(log).toHaveLength(1);
});

it('sets up a monthly recurring invoice that catches up after the server was off', async () => {
  await cli('plugin', 'activate', 'recurring');
  await waitFor(() => k.plugins.isLoaded('recurring'), { what: 'recurring to load' });
  const first = new Date();
  first.setUTCDate(1);
  first.setUTCMonth(first.getUTCMonth() - 2);
  const start = first.toISOString().slice(0, 10);
  const body = {
    template: {
      customer_name: 'Subscriber Ltd',
      customer_email: 'ap@subscriber.example',
      items: [{ name: 'Support plan', quantity: 1, price: 49 }],
    },
    frequency: 'monthly',
  };
  // a new profile may start one period back at most (two months back is refused)...
  expect((await rest('owner', 'POST', '/recurring', { ...body, start_date: start })).status).toBe(400);
  const profile = await rest('owner', 'POST', '/recurring', { ...body, start_date: new Date().toISOString().slice(0, 10) });
  expect(profile.status).toBe(201);
  // ...so the profile is made as it would have been two months ago, before the server went off
  await k.db.query(`update recurring_profiles set start_date = $2, next_date = $2 where id = $1`, [profile.body.id, start]);
  // the server was off since then: it starts again, and the job (hourly, or now by hand) catches up
  await k.stop();
  k = await bootKernel(db.url);
  await waitFor(() => k.plugins.isLoaded('recurring'), { what: 'the restarted server to load recurring' });
  await cli('cron', 'run', 'billing_generate_recurring_invoices');
  await cli('cron', 'run', 'billing_generate_recurring_invoices');
  const invoices = await rest('owner', 'GET', `/invoices?recurring_id=${profile.body.id}&orderby=date&order=asc`);
  expect(invoices.total).toBe('3');
  expect(invoices.body[0].issue_date).toBe(start);
  expect(invoices.body.every((i: any) => i.recurring_id === profile.body.id && i.status === 'available')).toBe(true);
  expect((await rest('owner', 'GET', `/recurring/${profile.body.id}`)).body.generated_count).toBe(3);
});
