// The outbox's lanes (core/outbox/outbox.ts) with two workers on one database, as two instances: each
// item is handled once, a lane never holds more than its slots on an instance, a topic never more than
// its share, and a lane whose handler hangs leaves the other lanes and topics working.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Kernel } from '../../core/kernel.ts';
import { silentLogger } from '../../core/log.ts';
import { Outbox, type OutboxItem } from '../../core/outbox/outbox.ts';
import { freshDatabase, type TestDatabase } from '../../testing/index.ts';
import { bootKernel, eventually } from '../helpers/kernel.ts';
import { waitFor } from '../../testing/index.ts';

let tdb: TestDatabase;
let k: Kernel;

beforeAll(async () => {
  tdb = await freshDatabase();
  k = await bootKernel(tdb.url, { serve: false });
});

afterAll(async () => {
  await k?.stop();
  await tdb?.drop();
});

/** Counts what one worker has at once, per lane and per topic, and the most it ever had. */
class Meter {
  readonly now = new Map<string, number>();
  readonly most = new Map<string, number>();
  enter(...keys: string[]) {
    for (const key of keys) {
      const n = (this.now.get(key) ?? 0) + 1;
      this.now.set(key, n);
      this.most.set(key, Math.max(n, this.most.get(key) ?? 0));
    }
  }
  leave(...keys: string[]) {
    for (const key of keys) this.now.set(key, this.now.get(key)! - 1);
  }
}

describe('two workers sharing one outbox', () => {
  it('handle each item once, within each lane’s slots and each topic’s share, while one lane hangs', async () => {
    const handled: number[] = [];
    let release!: () => void;
    const hung = new Promise<void>((r) => (release = r));
    const worker = (name: string) => {
      const meter = new Meter();
      const outbox = new Outbox(k.db, silentLogger(), { pollMs: 50, instance: name });
      const handle = (topic: string) => async (item: OutboxItem) => {
        const lane = `${topic}:${item.payload.group ?? ''}`;
        meter.enter(lane, topic);
        try {
          if (item.payload.group === 'stuck') await hung;
          else await new Promise((r) => setTimeout(r, 10));
          handled.push(item.id);
        } finally {
          meter.leave(lane, topic);
        }
      };
      outbox.add('test', { topic: 'test.split', concurrency: 3, lanes: { by: 'group', concurrency: 1 }, handle: handle('test.split') });
      outbox.add('test', { topic: 'test.plain', concurrency: 2, handle: handle('test.plain') });
      return { outbox, meter };
    };
    const [one, two] = [worker('one'), worker('two')];

    const items = [
      // enqueued first, so the oldest due items are all the stuck lane's
      ...Array.from({ length: 10 }, () => ({ topic: 'test.split', payload: { group: 'stuck' } })),
      ...Array.from({ length: 30 }, (_, i) => ({ topic: 'test.split', payload: { group: `g${i % 3}` } })),
      ...Array.from({ length: 10 }, () => ({ topic: 'test.plain', payload: {} })),
    ];
    await k.db.transaction((tx) => one.outbox.enqueueMany(tx, items));
    const lanes = await k.db.query<{ lane: string; n: number }>(
      `select lane, count(*)::int as n from billing_outbox where topic like 'test.%' group by lane order by lane`,
    );
    // `billing outbox list` shows them
    expect((await one.outbox.list('pending', 1))[0]).toMatchObject({ topic: 'test.plain', lane: 'test.plain' });
    expect(lanes).toEqual([
      { lane: 'test.plain', n: 10 },
      { lane: 'test.split:g0', n: 10 },
      { lane: 'test.split:g1', n: 10 },
      { lane: 'test.split:g2', n: 10 },
      { lane: 'test.split:stuck', n: 10 },
    ]);

    one.outbox.start();
    two.outbox.start();
    try {
      // everything but the stuck lane is done while it hangs (one of its items on each worker)
      expect(await eventually(() => handled.length === 40, 20000)).toBe(true);
      // a handler that has returned marks its row done a moment later: wait for the rows, then compare
      const pending = () =>
        k.db.query<{ lane: string; n: number }>(
          `select lane, count(*)::int as n from billing_outbox where topic like 'test.%' and status = 'pending' group by lane`,
        );
      await waitFor(async () => (await pending()).length === 1, { timeoutMs: 5000, what: 'the handled rows marked done' });
      expect(await pending()).toEqual([{ lane: 'test.split:stuck', n: 10 }]);
    } finally {
      release();
    }
    expect(await eventually(() => handled.length === 50, 20000)).toBe(true);
    await Promise.all([one.outbox.stop(), two.outbox.stop()]);

    // once each, whichever worker took it
    expect(new Set(handled).size).toBe(50);
    const done = await k.db.query<{ n: number }>(
      `select count(*)::int as n from billing_outbox where topic like 'test.%' and status = 'done'`,
    );
    expect(done[0]!.n).toBe(50);
    // the bounds each worker enforces
    for (const { meter } of [one, two]) {
      for (const lane of ['g0', 'g1', 'g2', 'stuck']) expect(meter.most.get(`test.split:${lane}`) ?? 0).toBeLessThanOrEqual(1);
      expect(meter.most.get('test.split') ?? 0).toBeLessThanOrEqual(3);
      expect(meter.most.get('test.plain') ?? 0).toBeLessThanOrEqual(2);
    }
  }, 60000);

  it('reach every lane when there are more than one claim walks (each claim goes on where the last stopped)', async () => {
    const seen = new Map<string, number>();
    const outbox = new Outbox(k.db, silentLogger(), { pollMs: 50, instance: 'many' });
    outbox.add('test', {
      topic: 'test.many',
      concurrency: 4,
      lanes: { by: 'who' },
      handle: async (item) => {
        seen.set(item.payload.who, (seen.get(item.payload.who) ?? 0) + 1);
      },
    });
    // 130 lanes (a claim walks 50), two items each
    const items = Array.from({ length: 260 }, (_, i) => ({ topic: 'test.many', payload: { who: `r${i % 130}@example.com` } }));
    await k.db.transaction((tx) => outbox.enqueueMany(tx, items));
    outbox.start();
    try {
      expect(await eventually(() => [...seen.values()].reduce((a, b) => a + b, 0) === 260, 30000)).toBe(true);
    } finally {
      await outbox.stop();
    }
    expect(seen.size).toBe(130);
    expect([...seen.values()].every((n) => n === 2)).toBe(true);
    const left = await k.db.query<{ n: number }>(
      `select count(*)::int as n from billing_outbox where topic = 'test.many' and status <> 'done'`,
    );
    expect(left[0]!.n).toBe(0);
  }, 60000);
});
