// A CSV of 100 000 rows imports with flat memory: the upload is read back from the database a chunk at a
// time and handed on a record at a time, so what the import holds does not grow with the file. Measured
// as the growth of this process's live heap (the service runs in it; garbage collected before each
// sample, so what is counted is what the import keeps) while 10 000 and then 100 000 rows are imported:
// the larger file may not need more than a bounded margin over the smaller one.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { closeBoundedWorkers } from '../../core/workers/bounded-worker.ts';
import { useService, waitFor, type TestUser } from '../../testing/index.ts';

const svc = useService();
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The heap still in use after a full collection. */
function liveHeap(): number {
  gc();
  return process.memoryUsage().heapUsed;
}
let admin: TestUser;

beforeAll(async () => {
  admin = await svc.makeUser('bulk', 'administrator');
}, 60_000);

afterAll(() => closeBoundedWorkers());

/** `rows` invoice lines, 500 to an invoice (the most one takes), numbered under `prefix`. */
function bigCsv(rows: number, prefix: string): Buffer {
  const lines = ['number,customer_name,item_name,item_quantity,item_price'];
  for (let i = 0; i < rows; i++)
    lines.push(`${prefix}-${Math.floor(i / 500)},Bulk client ${Math.floor(i / 500) % 7},Line ${i},1,${(i % 97) + 1}.25`);
  return Buffer.from(lines.join('\n') + '\n');
}

/** Imports the file; answers the import's end state and how far the heap rose above where it stood before the commit. */
async function importMeasured(body: Buffer): Promise<{ state: Record<string, any>; growthMb: number }> {
  const p = await svc.rest(admin).post('/imports?resource=invoices', { raw: body, type: 'text/csv' });
  expect(p.status).toBe(201);
  const base = liveHeap();
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, liveHeap());
  }, 500);
  try {
    await svc.rest(admin).post(`/imports/${p.body.id}/commit`, {});
    const state = await waitFor(
      async () => {
        const s = await svc.rest(admin).get(`/imports/${p.body.id}`);
        return s.body.status === 'done' || s.body.status === 'failed' ? s.body : null;
      },
      { timeoutMs: 900_000, what: 'the import to finish' },
    );
    const growthMb = (peak - base) / 1024 / 1024;
    process.stderr.write(`rows ${state.rows}: live heap grew ${growthMb.toFixed(1)} MiB\n`);
    return { state, growthMb };
  } finally {
    clearInterval(sampler);
  }
}

describe('a large CSV', () => {
  it('imports 100 000 rows with memory no larger than for 10 000 (within a bounded margin)', async () => {
    const small = await importMeasured(bigCsv(10_000, 'S'));
    expect(small.state).toMatchObject({ status: 'done', rows: 10_000, created: 20, failed: [] });
    const large = await importMeasured(bigCsv(100_000, 'L'));
    expect(large.state).toMatchObject({ status: 'done', rows: 100_000, created: 200, failed: [], progress: 1 });
    // holding the rows would cost far more than this: 100 000 rows as objects are over 40 MiB
    expect(large.growthMb).toBeLessThan(small.growthMb + 16);
    expect(large.growthMb).toBeLessThan(48);
  }, 1_200_000);
});
