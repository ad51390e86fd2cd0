// `node --cpu-prof bench/serve-for-profile.ts`: a seeded service on BENCH_DATABASE_URL (or embedded) that
// prints an authenticated invoice URL, its Authorization header and a signed-in session cookie for the
// admin screens, then serves until SIGINT, so a profiler sees only the service (load it from another
// process: autocannon).
// Seeded with BENCH_INVOICES invoices (default 2 000) through the documents scenario's seed; or, with
// BENCH_SCALE=<n> and BENCH_DATABASE_URL, with the scale scenario's n invoices in a database
// `billing_profile_<n>` that is kept and reused by later runs (a million takes minutes to seed; drop it to
// seed again).
import pg from 'pg';
import { CLI } from '../core/audit/audit.ts';
import { benchEnv } from './harness.ts';
import { seed } from './scenarios/documents.ts';
import { seedScale } from './scenarios/scale.ts';

const PASSWORD = 'bench password 1';
const env = benchEnv();
const scale = Number(process.env.BENCH_SCALE ?? 0);
const db = scale ? await keptDatabase(scale) : { ...(await env.database()), fresh: true };
const kernel = await env.kernel(db.url);
if (db.fresh) {
  if (scale) await seedScale(kernel, 0, scale);
  else await seed(kernel, Number(process.env.BENCH_INVOICES ?? 2000));
  await kernel.identity.users.create({ login: 'bench', email: 'bench@example.com', role: 'administrator', password: PASSWORD }, CLI);
}
const user = (await kernel.identity.users.byLogin('bench'))!;
const { password } = await kernel.identity.appPasswords.create(user, `profile ${process.pid}`, CLI);
const authorization = `Basic ${Buffer.from(`bench:${password}`).toString('base64')}`;
const api = `${kernel.url}/wp-json/billing/v1`;
const res = await fetch(`${api}/invoices?per_page=1`, { headers: { authorization } });
const [{ id }] = (await res.json()) as Array<{ id: number }>;
const login = await fetch(`${kernel.url}/wp-login.php`, {
  method: 'POST',
  body: new URLSearchParams({ log: 'bench', pwd: PASSWORD }),
  redirect: 'manual',
});
const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
console.log(JSON.stringify({ api, id, authorization, admin: `${kernel.url}/wp-admin/`, cookie }));
process.once('SIGINT', async () => {
  await kernel.stop();
  await db.close();
  process.exit(0);
});

/** The kept database for `n` invoices on BENCH_DATABASE_URL's server, created (and then seeded) if absent. */
async function keptDatabase(n: number): Promise<{ url: string; fresh: boolean; close(): Promise<void> }> {
  const server = process.env.BENCH_DATABASE_URL;
  if (!server) throw new Error('BENCH_SCALE needs BENCH_DATABASE_URL');
  const name = `billing_profile_${n}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  const fresh = !(await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount;
  if (fresh) await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), fresh, close: async () => {} };
}
