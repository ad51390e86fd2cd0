// `node --cpu-prof bench/serve-for-profile.ts`: a seeded service on BENCH_DATABASE_URL (or embedded) that
// (with BENCH_INVOICES invoices, default 2 000) prints an authenticated invoice URL, its Authorization
// header and a signed-in session cookie for the admin screens, then serves until SIGINT, so a profiler
// sees only the service (load it from another process: autocannon).
import { CLI } from '../core/audit/audit.ts';
import { benchEnv } from './harness.ts';
import { seed } from './scenarios/documents.ts';

const env = benchEnv();
const db = await env.database();
const kernel = await env.kernel(db.url);
await seed(kernel, Number(process.env.BENCH_INVOICES ?? 2000));
const user = await kernel.identity.users.create(
  { login: 'bench', email: 'bench@example.com', role: 'administrator', password: 'bench password 1' },
  CLI,
);
const { password } = await kernel.identity.appPasswords.create(user, 'bench', CLI);
const authorization = `Basic ${Buffer.from(`bench:${password}`).toString('base64')}`;
const api = `${kernel.url}/wp-json/billing/v1`;
const res = await fetch(`${api}/invoices`, {
  method: 'POST',
  headers: { authorization, 'content-type': 'application/json' },
  body: JSON.stringify({ items: [{ name: 'Work', quantity: 1, price: 100 }], customer_name: 'Bench', status: 'available' }),
});
const { id } = (await res.json()) as { id: number };
const login = await fetch(`${kernel.url}/wp-login.php`, {
  method: 'POST',
  body: new URLSearchParams({ log: 'bench', pwd: 'bench password 1' }),
  redirect: 'manual',
});
const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
console.log(JSON.stringify({ api, id, authorization, admin: `${kernel.url}/wp-admin/`, cookie }));
process.once('SIGINT', async () => {
  await kernel.stop();
  await db.close();
  process.exit(0);
});
