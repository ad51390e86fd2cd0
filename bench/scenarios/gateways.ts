import { createHmac } from 'node:crypto';
import pg from 'pg';
import { CLI } from '../../core/audit/audit.ts';
import type { Database } from '../../core/db/database.ts';
import { EMBEDDED_POOL } from '../../core/db/embedded.ts';
import type { Kernel } from '../../core/kernel.ts';
import { measureOps, type BenchEnv, type Comparison, type Scenario } from '../harness.ts';

/** Pending payments seeded for each side (a verified webhook completes one; the run must not run out). */
const PENDING = Number(process.env.BENCH_GATEWAY_PAYMENTS ?? 20000);
const SECRET = 'sk_bench_gateway_e_0123456789';

/** `n` issued invoices, each with one pending gateway E payment of 1.00; answers their references. */
async function seed(db: Database, n: number, tag: string): Promise<string[]> {
  const rows = await db.query<{ reference: string }>(
    `
    with docs as (
      insert into billing_documents (kind, number, status, currency, issue_date, due_date, customer_name, items,
        subtotal, discount, tax, total, paid, credited, due, access_key)
      select 'invoice', $2 || '-' || lpad(g::text, 6, '0'), 'available', 'USD', current_date, current_date + 30, 'Customer ' || g,
        '[{"name":"Work","description":"","quantity":"1","price":"100.00","amount":"100.00","taxable":false}]'::jsonb,
        100, 0, 0, 100, 0, 0, 100, md5($2 || g::text) || md5(g::text || $2)
      from generate_series(1, $1::int) g returning id)
    insert into billing_payments (invoice_id, reference, amount, currency, method, status)
    select id, $2 || id, 1.00, 'USD', 'gateway_e', 'pending' from docs returning reference`,
    [n, tag],
  );
  return rows.map((r) => r.reference);
}

/** What gateway E posts for a charge of 1.00 on `reference`, with its signature. */
function signed(reference: string, id: number): { raw: Buffer; signature: string } {
  const raw = Buffer.from(
    JSON.stringify({ event: 'charge.success', data: { id, status: 'success', reference, amount: 100, currency: 'USD' } }),
  );
  return { raw, signature: createHmac('sha512', SECRET).update(raw).digest('hex') };
}

/**
 * The baseline: the writes of one applied webhook as bare SQL on a plain pg pool — the raw delivery
 * stored, then in one transaction the invoice locked, the event key stored, the payment completed, the
 * invoice's paid and due moved, one audit row — and the delivery marked applied. No signature check,
 * no parsing, no reading back, no status rule, no hooks.
 */
async function bareWebhook(pool: pg.Pool, reference: string, raw: Buffer, key: string): Promise<void> {
  const inbox = await pool.query(
    `insert into billing_gateway_deliveries (method, action, headers, body) values ('gateway_e', 'bench', '{}', $1) returning id`,
    [raw],
  );
  const client = await pool.connect();
  try {
    await client.query('begin');
    const p = await client.query(`select id, invoice_id from billing_payments where reference = $1`, [reference]);
    const { id, invoice_id } = p.rows[0];
    await client.query(`select id from billing_documents where id = $1 for update`, [invoice_id]);
    await client.query(`insert into billing_payment_events (key, action, invoice_id, payment_id) values ($1, 'complete', $2, $3)`, [
      key,
      invoice_id,
      id,
    ]);
    await client.query(`update billing_payments set status = 'completed', completed_at = now(), updated_at = now() where id = $1`, [id]);
    await client.query(`update billing_documents set paid = paid + 1.00, due = greatest(0, due - 1.00), updated_at = now() where id = $1`, [
      invoice_id,
    ]);
    await client.query(
      `insert into billing_audit_log (actor, action, object_type, object_id, details) values ('bench', 'payment.complete', 'payment', $1, '{}')`,
      [String(id)],
    );
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
  await pool.query(`update billing_gateway_deliveries set status = 'applied', applied_at = now() where id = $1`, [inbox.rows[0].id]);
}

export const gateways: Scenario = {
  name: 'gateways',
  description:
    'verified gateway webhooks applied per second (signature + inbox + payment core) vs a bare transaction doing the same writes; duplicates vs a primary-key lookup',
  async run(env: BenchEnv): Promise<Comparison[]> {
    const handle = await env.database();
    let k: Kernel | null = null;
    const pool = new pg.Pool({ connectionString: handle.url, max: handle.url.includes('host=') ? EMBEDDED_POOL : 10 });
    pool.on('error', () => {});
    try {
      k = await env.kernel(handle.url);
      await k.plugins.activate('gateway-e', CLI);
      await k.options.set('gateway_e_secret_key', SECRET, CLI);
      const runtime = k.payments.gateways;
      const provider = runtime.get('gateway_e')!;
      const deliver = (d: { raw: Buffer; signature: string }) =>
        runtime.deliver(provider, provider, {
          action: 'billing_gateway_e_webhook',
          raw: d.raw,
          headers: { 'content-type': 'application/json', 'x-gateway-e-signature': d.signature },
          query: {},
          ip: '127.0.0.1',
        });
      const opts = { seconds: env.seconds, concurrency: 20, unit: 'hook/s' };

      // the deliveries are signed before the clock starts: signing is the gateway's work, verifying ours
      const oursRefs = await seed(k.db, PENDING, 'GO');
      const bareRefs = await seed(k.db, PENDING, 'GB');
      const bodies = oursRefs.map((r, i) => signed(r, i + 1));
      for (let i = 0; i < 20; i++) {
        await deliver(bodies[PENDING - 1 - i]!);
        await bareWebhook(pool, bareRefs[PENDING - 1 - i]!, bodies[0]!.raw, `warm-${i}`);
      }
      let o = 0;
      let b = 0;
      const ours = await measureOps(async () => {
        const answer = await deliver(bodies[o++]!);
        if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
      }, opts);
      const bare = await measureOps(() => bareWebhook(pool, bareRefs[b++]!, bodies[0]!.raw, `bare-${b}`), opts);
      const [state] = await k.db.query<{ completed: number; keys: number }>(
        `select (select count(*)::int from billing_payments where reference like 'GO%' and status = 'completed') as completed,
                (select count(*)::int from billing_payment_events where key like 'gateway_e:charge:%') as keys`,
      );
      const out: Comparison[] = [
        {
          scenario: 'verified webhook applied, 20 callers',
          ours,
          baseline: bare,
          baselineName: 'bare SQL tx',
          note: `${state!.completed} payments completed by ${state!.keys} event keys${o > PENDING - 20 ? ' (RAN OUT of pending payments: raise BENCH_GATEWAY_PAYMENTS)' : ''}`,
        },
      ];

      // duplicates: deliveries already applied, sent again
      const inboxBefore = (await k.db.query<{ n: number }>('select count(*)::int as n from billing_gateway_deliveries'))[0]!.n;
      let dup = 0;
      const done = Math.min(o, PENDING - 20);
      const duplicates = await measureOps(async () => {
        const answer = await deliver(bodies[dup++ % done]!);
        if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
      }, opts);
      let l = 0;
      const lookup = await measureOps(
        () => pool.query('select payment_id from billing_payment_events where key = $1', [`gateway_e:charge:${(l++ % done) + 1}`]),
        opts,
      );
      const [after] = await k.db.query<{ completed: number; inbox: number }>(
        `select (select count(*)::int from billing_payments where reference like 'GO%' and status = 'completed') as completed,
                (select count(*)::int from billing_gateway_deliveries) as inbox`,
      );
      out.push({
        scenario: 'duplicate delivery (already applied)',
        ours: duplicates,
        baseline: lookup,
        baselineName: 'pk lookup',
        note: `${after!.completed - state!.completed} more payments completed, ${after!.inbox - inboxBefore} inbox rows added (expected 0 and 0)`,
      });
      return out;
    } finally {
      await pool.end();
      await k?.stop();
      await handle.close();
    }
  },
};
