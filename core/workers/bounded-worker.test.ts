import { afterAll, describe, expect, it } from '@jest/globals';
import { BillingError } from '../errors.ts';
import { closeBoundedWorkers, runBounded, type BoundHit } from './bounded-worker.ts';

const JOB = new URL('../../test/fixtures/workers/bounded-job.ts', import.meta.url);
const refuse = (hit: BoundHit) => new BillingError('billing_invalid_argument', `too costly: ${hit}`);
const run = (input: unknown, timeoutMs = 1500, maxMemoryMb = 96) => runBounded(JOB, input, { timeoutMs, maxMemoryMb, refuse });

/** Runs `work` while a 10 ms timer ticks; answers its outcome, how long it took and the longest gap between ticks. */
async function measured(work: () => Promise<unknown>) {
  let last = performance.now();
  let gap = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 10);
  const start = performance.now();
  const outcome = await work().then(
    (value) => ({ value, error: null as BillingError | null }),
    (error: BillingError) => ({ value: null, error }),
  );
  clearInterval(tick);
  return { ...outcome, ms: performance.now() - start, gap };
}

afterAll(() => closeBoundedWorkers());

describe('runBounded', () => {
  it('answers what the module returns, and a BillingError it throws as the same error', async () => {
    expect(await run({ mode: 'echo', value: { a: [1, 'b'] } })).toEqual({ a: [1, 'b'] });
    const err = await run({ mode: 'billing-error' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingError);
    expect(err).toMatchObject({ code: 'billing_invalid_argument', status: 400, message: 'refused in the worker', data: { field: 'x' } });
    // any other failure is the service's: internal, with the worker's message
    expect(await run({ mode: 'throw' }).catch((e: unknown) => e)).toMatchObject({ code: 'billing_internal' });
  });

  it('stops a loop that never yields at the deadline, while the event loop keeps ticking', async () => {
    await run({ mode: 'echo', value: 1 }); // a warm worker: its start is not part of the bound
    const r = await measured(() => run({ mode: 'spin' }, 1000));
    expect(r.error).toMatchObject({ code: 'billing_invalid_argument', message: 'too costly: time' });
    expect(r.ms).toBeLessThan(5000);
    expect(r.gap).toBeLessThan(500);
    // the pool replaces the terminated worker
    expect(await run({ mode: 'echo', value: 2 })).toBe(2);
  });

  it('stops a job at its memory ceiling, on the heap and outside it', async () => {
    const heap = await measured(() => run({ mode: 'heap' }, 20_000, 64));
    expect(heap.error).toMatchObject({ message: 'too costly: memory' });
    expect(heap.ms).toBeLessThan(15_000);
    const external = await measured(() => run({ mode: 'external' }, 20_000, 64));
    expect(external.error).toMatchObject({ message: 'too costly: memory' });
    expect(external.ms).toBeLessThan(15_000);
    expect(external.gap).toBeLessThan(500);
  });

  it('queues a few jobs beyond the running ones and refuses more with 503 billing_busy', async () => {
    const jobs = Array.from({ length: 20 }, () => run({ mode: 'spin' }, 300).catch((e: BillingError) => e.code));
    const codes = await Promise.all(jobs);
    expect(codes).toContain('billing_busy');
    expect(codes).toContain('billing_invalid_argument');
    const busy = await Promise.all(
      Array.from({ length: 20 }, () => run({ mode: 'spin' }, 300).catch((e: BillingError) => e as BillingError)),
    );
    expect(busy.find((e) => (e as BillingError).code === 'billing_busy')).toMatchObject({
      status: 503,
      data: { retry_after: expect.any(Number) },
    });
  });
});
