// `npm run bench:round-trips`: the statements each hot route sends to the database, counted at the
// driver (every round trip: BEGIN, COMMIT and the auth lookup included). The figures in
// docs/benchmarks.md ("Where the time goes") come from this script; run it after changing a hot path.
import { createRequire } from 'node:module';
import { CLI } from '../core/audit/audit.ts';
import { benchEnv } from './harness.ts';

// The driver MikroORM loads (its own copy of pg may differ from the one at the top of node_modules).
const require = createRequire(import.meta.resolve('@mikro-orm/postgresql'));
const pg = require('pg') as typeof import('pg');

let log: string[] | null = null;
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
  const q = args[0] as string | { text?: string; name?: string };
  if (log) log.push(typeof q === 'string' ? q : `${q.name ? `[${q.name}] ` : ''}${q.text ?? ''}`);
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

const env = benchEnv();
const db = await env.database();
const kernel = await env.kernel(db.url);
try {
  const user = await kernel.identity.users.create(
    { login: 'bench', email: 'bench@example.com', role: 'administrator', password: 'bench password 1' },
    CLI,
  );
  const { password } = await kernel.identity.appPasswords.create(user, 'bench', CLI);
  const authorization = `Basic ${Buffer.from(`bench:${password}`).toString('base64')}`;
  const api = `${kernel.url}/wp-json/billing/v1`;
  const json = { authorization, 'content-type': 'application/json' };
  const invoice = { items: [{ name: 'Work', quantity: 1, price: 100 }], customer_name: 'Bench', customer_email: 'b@example.com' };
  const issued = JSON.stringify({ ...invoice, status: 'available' });
  const created = (await (await fetch(`${api}/invoices`, { method: 'POST', headers: json, body: issued })).json()) as { id: number };

  const signIn = await fetch(`${kernel.url}/wp-login.php`, {
    method: 'POST',
    body: new URLSearchParams({ log: 'bench', pwd: 'bench password 1' }),
    redirect: 'manual',
  });
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  const routes: Array<[string, () => Promise<Response>]> = [
    ['GET /invoices/{id}', () => fetch(`${api}/invoices/${created.id}`, { headers: { authorization } })],
    ['GET /invoices?per_page=100', () => fetch(`${api}/invoices?per_page=100`, { headers: { authorization } })],
    ['GET /invoices?search=bench', () => fetch(`${api}/invoices?search=bench`, { headers: { authorization } })],
    ['POST /invoices', () => fetch(`${api}/invoices`, { method: 'POST', headers: json, body: JSON.stringify(invoice) })],
    [
      'POST /invoices/{id}/payments (0.01, completed)',
      () =>
        fetch(`${api}/invoices/${created.id}/payments`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ amount: '0.01', method: 'manual', status: 'completed' }),
        }),
    ],
    ['GET REST route without credentials', () => fetch(`${api}/invoices/${created.id}`)],
    ['GET /wp-admin/invoices.php (signed in)', () => fetch(`${kernel.url}/wp-admin/invoices.php`, { headers: { cookie } })],
  ];
  for (const [name, send] of routes) {
    await send(); // warm: caches, compiled hooks
    log = [];
    const res = await send();
    await res.arrayBuffer();
    const statements = log;
    log = null;
    console.log(`\n${name}: HTTP ${res.status}, ${statements.length} statements`);
    for (const s of statements) console.log(`  ${s.replace(/\s+/g, ' ').slice(0, 150)}`);
  }
} finally {
  await kernel.stop();
  await db.close();
}
