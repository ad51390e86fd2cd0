import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freshDatabase, type TestDatabase } from '../../testing/index.ts';
import { inconsistencies, invoiceOf, moneyServices, reload, type MoneyServices } from './support.ts';

/**
 * A process killed in the middle of applying payments, then restarted: nothing is half-written (every
 * invoice's stored totals equal the sums of its rows, every key names a payment that exists), and the
 * restarted process re-delivering the same events applies each exactly once.
 */
const LOOP = resolve(import.meta.dirname, 'fixtures/pay-loop.ts');

let tdb: TestDatabase;
let m: MoneyServices;

beforeAll(async () => {
  tdb = await freshDatabase();
  m = await moneyServices(tdb.url, 2);
});

afterAll(async () => {
  await m?.db.close();
  await tdb?.drop();
});

/** Runs the loop; with `killAfter`, SIGKILLs it once that many operations have committed. Answers the operations it reported. */
function runLoop(
  ids: number[],
  opts: { killAfter?: number; until?: number },
): Promise<{ done: number[]; signal: string | null; finished: boolean; stderr: string }> {
  return new Promise((res, rej) => {
    const args = [LOOP, tdb.url, ids.join(','), ...(opts.until !== undefined ? [String(opts.until)] : [])];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const done: number[] = [];
    let finished = false;
    let stderr = '';
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        if (line === 'finished') finished = true;
        const n = /^done (\d+)$/.exec(line);
        if (n) done.push(Number(n[1]));
        if (opts.killAfter !== undefined && done.length >= opts.killAfter && child.exitCode === null && !child.killed)
          child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', rej);
    child.on('exit', (_code, signal) => res({ done, signal, finished, stderr }));
  });
}

describe('a process killed while applying payments', () => {
  it('leaves nothing half-written, and its restart applies every event exactly once', async () => {
    const invoices = await Promise.all([1, 2, 3].map(() => invoiceOf(m, 1_000_000)));
    const ids = invoices.map((i) => i.id);

    // each payment's transaction lingers between writing the payment and settling the invoice, so the
    // kill lands inside transactions (four workers: some are always open)
    await m.db.query(
      `create function test_linger() returns trigger language plpgsql as $$ begin perform pg_sleep(0.02); return new; end $$`,
    );
    await m.db.query('create trigger test_linger after insert on billing_payments for each row execute function test_linger()');
    const killed = await runLoop(ids, { killAfter: 60 });
    await m.db.query('drop trigger test_linger on billing_payments');
    expect(killed.stderr).toBe('');
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.finished).toBe(false);
    // every operation reported done is in the database; what was in flight is whole or absent
    expect(await inconsistencies(m.db)).toEqual([]);
    const keys = new Set((await m.db.query<{ key: string }>('select key from billing_payment_events')).map((r) => r.key));
    for (const i of killed.done) expect(keys.has(`rec-${i}`)).toBe(true);
    const orphans = await m.db.query(
      `select key from billing_payment_events e where not exists (select 1 from billing_payments p where p.id = e.payment_id)`,
    );
    expect(orphans).toEqual([]);
    const payments = Number((await m.db.query<{ n: string }>('select count(*) as n from billing_payments'))[0]!.n);
    expect(payments).toBe([...keys].filter((k) => k.startsWith('rec-')).length);

    // the restart delivers everything again, and more
    const until = Math.max(...killed.done) + 25;
    const restarted = await runLoop(ids, { until });
    expect([restarted.finished, restarted.stderr]).toEqual([true, '']);
    expect(await inconsistencies(m.db)).toEqual([]);
    for (const [n, inv] of invoices.entries()) {
      let paid = 0;
      for (let i = 0; i < until; i++) if (i % ids.length === n) paid += i % 5 === 4 ? 50 : 100;
      const now = await reload(m, inv.id);
      expect({ id: inv.id, paid: now.totals.paid, status: now.status }).toEqual({
        id: inv.id,
        paid: (paid / 100).toFixed(2),
        status: 'partial',
      });
    }
    expect(Number((await m.db.query<{ n: string }>('select count(*) as n from billing_payments'))[0]!.n)).toBe(until);
  });
});
