import pg from 'pg';
import { Database } from '../../core/db/database.ts';
import { EMBEDDED_POOL } from '../../core/db/embedded.ts';
import { InvoiceService } from '../../core/documents/invoice-service.ts';
import { HookRegistry } from '../../core/hooks/registry.ts';
import { silentLogger } from '../../core/log.ts';
import { CORE_SETTINGS } from '../../core/options/option-map.ts';
import { OptionsStore } from '../../core/options/options.ts';
import { PaymentCore } from '../../core/payments/payment-core.ts';
import { isOffline } from '../../core/payments/payment.ts';
import { migrateCore } from '../../core/schema.ts';
import { alternate, measureOps, type BenchEnv, type Comparison, type Measure, type Scenario } from '../harness.ts';

/** Invoices the "many invoices" lines spread their payments over (each side its own). */
const MANY = Number(process.env.BENCH_PAYMENT_INVOICES ?? 1000);

/** `n` issued invoices of a total no series of 1.00 payments will reach; answers their ids. */
async function seed(db: Database, n: number, tag: string): Promise<number[]> {
  const rows = await db.query<{ id: string }>(
    `
    insert into billing_documents (kind, number, status, currency, issue_date, due_date, customer_name, items,
      subtotal, discount, tax, total, paid, credited, due, access_key)
    select 'invoice', $2 || '-' || lpad(g::text, 6, '0'), 'available', 'USD', current_date, current_date + 30, 'Customer ' || g,
      '[{"name":"Work","description":"","quantity":"1","price":"1000000000.00","amount":"1000000000.00","taxable":false}]'::jsonb,
      1000000000, 0, 0, 1000000000, 0, 0, 1000000000, md5($2 || g::text) || md5(g::text || $2)
    from generate_series(1, $1::int) g returning id`,
    [n, tag],
  );
  return rows.map((r) => Number(r.id));
}

/**
 * The baseline: the same writes as one completed gateway payment, as bare SQL in one transaction on a
 * plain pg pool — lock the invoice, store the event key, insert the payment, add to the invoice's
 * paid and due, one audit row — with none of the core's reading back, recomputing from rows, status
 * rule, validation or actions.
 */
async function barePayment(pool: pg.Pool, invoiceId: number, key: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select id from billing_documents where id = $1 for update`, [invoiceId]);
    const ev = await client.query(
      `insert into billing_payment_events (key, action, invoice_id, payment_id)
      values ($1, 'record', $2, nextval('billing_payments_id_seq')) on conflict (key) do nothing returning payment_id`,
      [key, invoiceId],
    );
    const id = ev.rows[0].payment_id;
    await client.query(
      `insert into billing_payments (id, reference, invoice_id, amount, currency, method, status, completed_at)
      values ($1, $3, $2, 1.00, 'USD', 'gateway_a', 'completed', now())`,
      [id, invoiceId, `B${id}`],
    );
    await client.query(`update billing_documents set paid = paid + 1.00, due = greatest(0, due - 1.00), updated_at = now() where id = $1`, [
      invoiceId,
    ]);
    await client.query(
      `insert into billing_audit_log (actor, action, object_type, object_id, details) values ('bench', 'payment.record', 'payment', $1, '{}')`,
      [String(id)],
    );
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

/**
 * The same bare SQL through the service's own database layer (its transactions on MikroORM's pool),
 * to tell what the layer costs from what the payment core adds on top of it.
 */
async function layerPayment(db: Database, invoiceId: number, key: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('select id from billing_documents where id = $1 for update', [invoiceId]);
    const ev = await tx.query<{ payment_id: string }>(
      `insert into billing_payment_events (key, action, invoice_id, payment_id)
      values ($1, 'record', $2, nextval('billing_payments_id_seq')) on conflict (key) do nothing returning payment_id`,
      [key, invoiceId],
    );
    const id = ev[0]!.payment_id;
    await tx.query(
      `insert into billing_payments (id, reference, invoice_id, amount, currency, method, status, completed_at)
      values ($1, $3, $2, 1.00, 'USD', 'gateway_a', 'completed', now())`,
      [id, invoiceId, `L${id}`],
    );
    await tx.query('update billing_documents set paid = paid + 1.00, due = greatest(0, due - 1.00), updated_at = now() where id = $1', [
      invoiceId,
    ]);
    await tx.query(
      `insert into billing_audit_log (actor, action, object_type, object_id, details) values ('bench', 'payment.record', 'payment', $1, '{}')`,
      [String(id)],
    );
  });
}

/** Invoices whose stored paid / due differ from their payment rows (expected: none). */
async function drifted(db: Database, ids: number[]): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `
    select count(*)::int as n from billing_documents d,
           lateral (select coalesce(sum(p.amount - p.refunded), 0) as paid from billing_payments p
                     where p.invoice_id = d.id and p.status in ('completed', 'refunded')) s
     where d.id = any($1::bigint[]) and (d.paid <> s.paid or d.due <> greatest(0, d.total - s.paid - d.credited))`,
    [ids],
  );
  return rows[0]!.n;
}

export const payments: Scenario = {
  name: 'payments',
  description: 'completed gateway payments applied per second through the payment core vs a bare transaction doing the same writes',
  async run(env: BenchEnv): Promise<Comparison[]> {
    const handle = await env.database();
    const embedded = handle.url.includes('host=');
    const poolMax = embedded ? EMBEDDED_POOL : 10;
    const log = silentLogger();
    const db = await Database.connect({ url: handle.url, poolMax, log });
    const pool = new pg.Pool({ connectionString: handle.url, max: poolMax });
    // an idle connection the server drops (a restart, an administrator) must not end the run
    pool.on('error', () => {});
    try {
      await migrateCore(db);
      const hooks = new HookRegistry(log);
      const options = new OptionsStore(db, hooks);
      options.declare('core', CORE_SETTINGS);
      // gateway_a is the method the bench's payments come from, as if its plugin were active
      const methods = (m: string) => m === 'gateway_a' || isOffline(m);
      const core = new PaymentCore({ db, hooks, invoices: new InvoiceService({ db, options, hooks }), methods });
      const gateway = { channel: 'gateway', method: 'gateway_a' } as const;
      const callers = poolMax * 2;
      const opts = { seconds: env.seconds, concurrency: callers, unit: 'pay/s' };
      let n = 0;
      const ours = (invoiceId: () => number) => () =>
        core.apply(
          { action: 'record', invoiceId: invoiceId(), amount: '1.00', method: 'gateway_a', status: 'completed', key: `o-${++n}` },
          gateway,
        );
      const bare = (invoiceId: () => number) => () => barePayment(pool, invoiceId(), `b-${++n}`);
      const layer = (invoiceId: () => number) => () => layerPayment(db, invoiceId(), `l-${++n}`);
      const vsLayer = (o: Measure, l: Measure) =>
        `; ${(o.throughput / l.throughput).toFixed(2)}x the same SQL through the service's db layer (${l.throughput.toFixed(0)} pay/s)`;

      // warm both paths (prepared statements, pools)
      const [warm] = await seed(db, 1, 'WARM');
      for (let i = 0; i < 20; i++) {
        await ours(() => warm!)();
        await bare(() => warm!)();
        await layer(() => warm!)();
      }

      const out: Comparison[] = [];
      const [oneOurs] = await seed(db, 1, 'ONE-O');
      const [oneBare] = await seed(db, 1, 'ONE-B');
      const one = await alternate(
        () =>
          measureOps(
            ours(() => oneOurs!),
            opts,
          ),
        () =>
          measureOps(
            bare(() => oneBare!),
            opts,
          ),
        env,
      );
      const o1 = one.ours;
      const [oneLayer] = await seed(db, 1, 'ONE-L');
      const l1 = await measureOps(
        layer(() => oneLayer!),
        opts,
      );
      const count = async (id: number) =>
        (await db.query<{ n: number }>('select count(*)::int as n from billing_payments where invoice_id = $1', [id]))[0]!.n;
      out.push({
        scenario: `one invoice, ${callers} callers`,
        ...one,
        baselineName: 'bare SQL tx',
        note: `${await count(oneOurs!)} payments on the invoice; totals ${(await drifted(db, [oneOurs!])) ? 'DRIFTED' : 'exact'}${vsLayer(o1, l1)}`,
      });

      const manyOurs = await seed(db, MANY, 'MANY-O');
      const manyBare = await seed(db, MANY, 'MANY-B');
      let ro = 0;
      let rb = 0;
      const many = await alternate(
        () =>
          measureOps(
            ours(() => manyOurs[ro++ % MANY]!),
            opts,
          ),
        () =>
          measureOps(
            bare(() => manyBare[rb++ % MANY]!),
            opts,
          ),
        env,
      );
      const oN = many.ours;
      const manyLayer = await seed(db, MANY, 'MANY-L');
      let rl = 0;
      const lN = await measureOps(
        layer(() => manyLayer[rl++ % MANY]!),
        opts,
      );
      out.push({
        scenario: `${MANY} invoices round-robin, ${callers} callers`,
        ...many,
        baselineName: 'bare SQL tx',
        note: `totals ${(await drifted(db, manyOurs)) ? 'DRIFTED' : 'exact'}${vsLayer(oN, lN)}`,
      });
      return out;
    } finally {
      await pool.end();
      await db.close();
      await handle.close();
    }
  },
};
