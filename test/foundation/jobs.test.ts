import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import { Database } from '../../core/db/database.ts';
import { JobScheduler, type JobDefinition } from '../../core/jobs/scheduler.ts';
import type { Kernel } from '../../core/kernel.ts';
import { silentLogger } from '../../core/log.ts';
import { bootKernel, useService, waitFor } from '../../testing/index.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';

const svc = useService({ pluginDirs: [FIXTURE_PLUGINS] });
let a: Kernel;
let b: Kernel;

beforeAll(async () => {
  a = svc.kernel;
  b = await bootKernel(svc.databaseUrl, { pluginDirs: [FIXTURE_PLUGINS] });
  svc.beforeStop(() => b.stop());
});

/** A daily job whose work is counted in a table, so runs by any scheduler show up in one place. */
function countingJob(hook: string, work: () => Promise<unknown> = async () => 'done'): JobDefinition {
  return { hook, schedule: '0 3 * * *', run: work };
}

describe('scheduled jobs', () => {
  it('run once per due time across two instances', async () => {
    await a.plugins.activate('hello', CLI);
    await waitFor(() => b.jobs.jobs.get('hello_tick') !== undefined, { what: 'the other instance to schedule hello_tick' });
    // the fixture ticks every second; let both instances race for a few due times
    await new Promise((r) => setTimeout(r, 3500));
    await a.plugins.deactivate('hello', CLI);
    // a run claimed just before is still working (the claim commits before the work): count once every
    // instance has dropped the job and every claimed run has finished
    await waitFor(() => b.jobs.jobs.get('hello_tick') === undefined, { what: 'the other instance to drop hello_tick' });
    await waitFor(
      async () => (await a.db.query(`select 1 from billing_job_runs where hook = 'hello_tick' and finished_at is null`)).length === 0,
      { what: 'every claimed hello_tick run to finish' },
    );
    const runs = await a.db.query<{ due_at: string; instance: string }>(
      `select due_at, instance from billing_job_runs where hook = 'hello_tick' and reason = 'scheduled'`,
    );
    const ticks = await a.db.query<{ n: number }>(`select count(*)::int as n from hello_events where kind = 'tick:scheduled'`);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(new Set(runs.map((r) => r.due_at)).size).toBe(runs.length);
    expect(ticks[0]!.n).toBe(runs.length); // the work ran exactly once per claimed due time
  });

  it('catch up once after downtime, whichever instance starts first, however many were missed', async () => {
    const log = silentLogger();
    // the job last ran for a due time three days ago: three due times were missed while nothing ran
    await a.db.query(`insert into billing_job_runs (hook, due_at, reason, instance, status, finished_at)
                      values ('nightly', now() - interval '3 days', 'scheduled', 'old', 'succeeded', now() - interval '3 days')`);
    let ran = 0;
    const job = countingJob('nightly', async () => {
      ran++;
      await new Promise((r) => setTimeout(r, 50));
      return { ran };
    });
    const db1 = await Database.connect({ url: svc.databaseUrl, poolMax: 2, log });
    const db2 = await Database.connect({ url: svc.databaseUrl, poolMax: 2, log });
    const s1 = new JobScheduler(db1, log, 'one');
    const s2 = new JobScheduler(db2, log, 'two');
    try {
      s1.add('test', job);
      s2.add('test', job);
      s1.start();
      s2.start();
      await waitFor(
        async () =>
          (await a.db.query(`select 1 from billing_job_runs where hook = 'nightly' and reason = 'catch-up' and status = 'succeeded'`))
            .length === 1,
        { what: 'one catch-up run of nightly' },
      );
      await s1.stop();
      await s2.stop();
      expect(ran).toBe(1);
      const rows = await a.db.query<{ reason: string }>(`select reason from billing_job_runs where hook = 'nightly' order by due_at`);
      expect(rows.map((r) => r.reason)).toEqual(['scheduled', 'catch-up']);
    } finally {
      await s1.stop();
      await s2.stop();
      await db1.close();
      await db2.close();
    }
  });

  it('do not catch up a job that has never run (a fresh install starts on schedule)', async () => {
    const log = silentLogger();
    const s = new JobScheduler(a.db, log, 'fresh');
    let ran = 0;
    s.add(
      'test',
      countingJob('brand_new', async () => {
        ran++;
      }),
    );
    s.start();
    await new Promise((r) => setTimeout(r, 300));
    await s.stop();
    expect(ran).toBe(0);
  });

  it('run on demand, recording result or error', async () => {
    const s = new JobScheduler(a.db, silentLogger(), 'manual');
    s.add(
      'test',
      countingJob('works', async () => ({ checked: 3 })),
    );
    s.add(
      'test',
      countingJob('breaks', async () => {
        throw new Error('gateway unreachable');
      }),
    );
    expect(await s.runNow('works')).toEqual({ ran: true, status: 'succeeded', result: { checked: 3 } });
    expect(await s.runNow('breaks')).toEqual({ ran: true, status: 'failed', error: 'gateway unreachable' });
    await expect(s.runNow('missing')).rejects.toMatchObject({ code: 'billing_unknown_job' });
    const rows = await a.db.query(`select hook, status, result, error from billing_job_runs where reason = 'manual' order by id`);
    expect(rows).toEqual([
      { hook: 'works', status: 'succeeded', result: { checked: 3 }, error: null },
      { hook: 'breaks', status: 'failed', result: null, error: 'gateway unreachable' },
    ]);
    const status = await s.status();
    expect(status.map((j) => [j.hook, j.schedule, j.last_result])).toEqual([
      ['breaks', '0 3 * * *', 'failed'],
      ['works', '0 3 * * *', 'succeeded'],
    ]);
    expect(new Date(status[0]!.next_run!).getUTCHours()).toBe(3);
    await s.stop();
  });

  it('run a due time that the busy event loop reached late, and say nothing on the console', async () => {
    const warn = jest.spyOn(console, 'warn');
    const s = new JobScheduler(a.db, silentLogger(), 'busy');
    // one due time a couple of seconds ahead (once a minute, at that second): nothing else runs meanwhile
    const due = Math.ceil((Date.now() + 2000) / 1000) * 1000;
    const runs: Array<{ due: number; at: number }> = [];
    s.add('test', {
      hook: 'busy_once',
      schedule: `${new Date(due).getUTCSeconds()} * * * * *`,
      run: async (r) => {
        runs.push({ due: r.dueAt.getTime(), at: Date.now() });
      },
    });
    try {
      s.start();
      // a blocked loop (PGlite's WASM, a saturated machine) across the due time: its timer fires 2.5 s
      // late, which node-cron took for a missed execution and dropped with a console warning
      while (Date.now() < due + 2500);
      await waitFor(() => runs.length > 0, { timeoutMs: 10000, everyMs: 10, what: 'the late run' });
      await s.stop();
      expect(runs).toEqual([{ due, at: expect.any(Number) }]);
      expect(runs[0]!.at - due).toBeGreaterThan(2000);
      expect(warn.mock.calls).toEqual([]);
    } finally {
      await s.stop();
      warn.mockRestore();
    }
  });

  it('refuse an invalid schedule when declared', () => {
    const s = new JobScheduler(a.db, silentLogger());
    for (const schedule of ['every tuesday', '* * * *', '0 0 0 * * * *', '61 * * * *'])
      expect(() => s.add('test', { hook: 'bad', schedule, run: async () => null })).toThrow(/invalid schedule/);
  });
});
