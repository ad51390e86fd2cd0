// A transaction PostgreSQL rolls back to break a deadlock or a serialization conflict is run again by
// the service's one transaction function (core/db/database.ts), whole, with its after-commit callbacks
// and its request's Idempotency-Key row made once, for the try that commits.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CONFLICT_RETRIES, type Tx } from '../../core/db/database.ts';
import { Idempotency } from '../../core/http/rest/idempotency.ts';
import { RestResponse } from '../../core/http/rest/route.ts';
import type { Kernel } from '../../core/kernel.ts';
import { freshDatabase, usingPostgres, type TestDatabase } from '../../testing/index.ts';
import { bootKernel } from '../helpers/kernel.ts';

let tdb: TestDatabase;
let k: Kernel;

beforeAll(async () => {
  tdb = await freshDatabase();
  k = await bootKernel(tdb.url, { serve: false });
  await k.db.query('create table retry_rows (id int primary key, n int not null)');
});

beforeEach(async () => {
  await k.db.query('delete from retry_rows');
  await k.db.query('insert into retry_rows (id, n) values (1, 0), (2, 0)');
});

afterAll(async () => {
  await k?.stop();
  await tdb?.drop();
});

const rows = async () => (await k.db.query<{ id: number; n: number }>('select id, n from retry_rows order by id')).map((r) => r.n);

const conflict = (code: string) => Object.assign(new Error(`simulated ${code}`), { code });

describe('a transaction rolled back for a conflict', () => {
  it('is run again whole, its writes and after-commit callbacks of the failed tries gone', async () => {
    let tries = 0;
    const committed: number[] = [];
    const answer = await k.db.transaction(async (tx) => {
      const t = ++tries;
      await tx.query('update retry_rows set n = n + 1 where id = 1');
      tx.afterCommit(() => committed.push(t));
      if (t < 3) throw conflict(t === 1 ? '40P01' : '40001');
      return `try ${t}`;
    });
    expect(answer).toBe('try 3');
    expect(tries).toBe(3);
    expect(await rows()).toEqual([1, 0]);
    expect(committed).toEqual([3]);
  });

  it('is given up after the bound, failing with the conflict', async () => {
    let tries = 0;
    const committed: number[] = [];
    await expect(
      k.db.transaction(async (tx) => {
        tries++;
        await tx.query('update retry_rows set n = n + 1 where id = 1');
        tx.afterCommit(() => committed.push(tries));
        throw conflict('40P01');
      }),
    ).rejects.toMatchObject({ code: '40P01' });
    expect(tries).toBe(CONFLICT_RETRIES + 1);
    expect(await rows()).toEqual([0, 0]);
    expect(committed).toEqual([]);
  });

  it('is not what any other failure is: that one fails at once', async () => {
    let tries = 0;
    await expect(
      k.db.transaction(async (tx) => {
        tries++;
        await tx.query('update retry_rows set n = n + 1 where id = 1');
        // a constraint violation, from the server
        await tx.query('insert into retry_rows (id, n) values (2, 0)');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(tries).toBe(1);
    expect(await rows()).toEqual([0, 0]);
  });
});

// The embedded database (PGlite) serves every connection from one session, one transaction at a time:
// two transactions can never wait for each other there, so a real deadlock needs PostgreSQL
// (TEST_DATABASE_URL). The tests above, with the conflict simulated, run on both.
(usingPostgres ? describe : describe.skip)('a real deadlock on PostgreSQL', () => {
  it('leaves both transactions done: the one PostgreSQL rolled back runs again, its key and callbacks once', async () => {
    const tries: Record<string, number> = { a: 0, b: 0 };
    const committed: string[] = [];
    // both hold their first row before either asks for its second: a deadlock, every time
    let arrived = 0;
    let bothThere!: () => void;
    const together = new Promise<void>((resolve) => (bothThere = resolve));
    const body = (name: 'a' | 'b', first: number, second: number) => async (tx: Tx) => {
      const t = ++tries[name]!;
      // detected after 50 ms of waiting rather than the default second
      await tx.query(`set local deadlock_timeout = '50ms'`);
      await tx.query('update retry_rows set n = n + 1 where id = $1', [first]);
      tx.afterCommit(() => committed.push(name));
      if (t === 1) {
        if (++arrived === 2) bothThere();
        await together;
      }
      await tx.query('update retry_rows set n = n + 10 where id = $1', [second]);
      return name;
    };
    // each as a REST request with an Idempotency-Key: its row rides in the transaction and must be
    // written again by the retried try, once
    const idempotency = new Idempotency(k.db);
    const request = (name: 'a' | 'b', first: number, second: number) =>
      idempotency.run({ userId: 1, header: `deadlock-${name}`, route: 'POST /test', request: { name } }, async () => {
        return new RestResponse({ name: await k.db.transaction(body(name, first, second)) }, 201);
      });
    const answers = await Promise.all([request('a', 1, 2), request('b', 2, 1)]);
    expect(answers.map((a) => [a.status, a.data])).toEqual([
      [201, { name: 'a' }],
      [201, { name: 'b' }],
    ]);
    // exactly one of the two was chosen as the victim and ran twice
    expect(tries.a + tries.b).toBe(3);
    // each committed once: the victim's first try left nothing behind
    expect(await rows()).toEqual([11, 11]);
    expect(committed.sort()).toEqual(['a', 'b']);
    const keys = await k.db.query<{ key: string; status: number }>(
      `select key, status from billing_idempotency where key like 'deadlock-%' order by key`,
    );
    expect(keys).toEqual([
      { key: 'deadlock-a', status: 201 },
      { key: 'deadlock-b', status: 201 },
    ]);
  });
});
