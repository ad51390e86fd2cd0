import { execFile } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import tar from 'tar-stream';
import type { BenchEnv, Comparison, Measure, Scenario } from '../harness.ts';
import { seedScale } from './scale.ts';

const BIN = resolve(import.meta.dirname, '../../bin/billing.js');
const TIME = '/usr/bin/time';
/** Invoices per size (BENCH_TRANSFER_SIZES): the largest is measured, the smallest is what its RSS is compared with. */
const SIZES = (process.env.BENCH_TRANSFER_SIZES ?? '10000,100000').split(',').map(Number);

interface Run {
  seconds: number;
  /** Peak resident memory of the command's process, in MB. */
  peakMb: number;
}

/** Runs `billing …` in its own process (as a user would), timed, with its peak RSS from /usr/bin/time. */
function billing(databaseUrl: string, args: string[]): Promise<Run> {
  return new Promise((res, rej) => {
    const started = performance.now();
    execFile(
      TIME,
      ['-f', 'peak-rss-kb %M', process.execPath, BIN, ...args],
      { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' }, maxBuffer: 64 * 1024 * 1024 },
      (err, _stdout, stderr) => {
        if (err)
          return rej(
            new Error(
              `billing ${args.join(' ')}: ${
                stderr
                  .split('\n')
                  .filter((l) => l.startsWith('Error'))
                  .join('; ') || err.message
              }`,
            ),
          );
        const kb = Number(/peak-rss-kb (\d+)/.exec(stderr)?.[1] ?? NaN);
        res({ seconds: (performance.now() - started) / 1000, peakMb: kb / 1024 });
      },
    );
  });
}

const rate = (n: number, seconds: number, unit = 'inv/s'): Measure => ({
  throughput: n / seconds,
  p50: 0,
  p99: seconds * 1000,
  unit,
  errors: 0,
});
const rss = (mb: number): Measure => ({ throughput: mb, p50: 0, p99: 0, unit: 'MB', errors: 0 });

/**
 * A bare load of an archive's rows, as `pg_restore --disable-triggers` loads a dump: one reading, no
 * checksum, no checks, triggers and foreign keys off for the session (then the aggregates rebuilt once),
 * each file's rows inserted in batches in one transaction. What a restore is compared with.
 */
async function bareLoad(databaseUrl: string, archive: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    await client.query('begin');
    await client.query('set local session_replication_role = replica');
    for (const table of ['billing_users', 'billing_options', 'billing_sequences', 'billing_audit_log'])
      await client.query(`delete from ${table}`);
    const tables: Record<string, string> = {
      options: 'billing_options',
      sequences: 'billing_sequences',
      users: 'billing_users',
      clients: 'billing_users',
      quotes: 'billing_documents',
      invoices: 'billing_documents',
      credit_notes: 'billing_documents',
      payments: 'billing_payments',
      payment_refunds: 'billing_payment_refunds',
      payment_events: 'billing_payment_events',
      gateway_deliveries: 'billing_gateway_deliveries',
      mail_log: 'billing_mail_log',
      audit_log: 'billing_audit_log',
    };
    const extract = tar.extract();
    const feeding = pipeline(createReadStream(archive), createGunzip(), extract);
    for await (const entry of extract) {
      const table = tables[entry.header.name.replace(/\.ndjson$/, '')];
      let rest = '';
      let batch: string[] = [];
      const flush = async () => {
        if (!batch.length || !table) return;
        await client.query(`insert into ${table} select * from jsonb_populate_recordset(null::${table}, $1::jsonb)`, [
          `[${batch.join(',')}]`,
        ]);
        batch = [];
      };
      for await (const chunk of entry) {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop()!;
        batch.push(...lines);
        if (batch.length >= 1000) await flush();
      }
      await flush();
    }
    await feeding;
    await client.query('select billing_rebuild_document_aggregates()');
    await client.query('commit');
    return (performance.now() - started) / 1000;
  } finally {
    await client.end();
  }
}

/** One size: a database seeded with `n` invoices (with their clients and payments), exported, restored into a fresh one, and bare-loaded into another. */
async function measure(env: BenchEnv, n: number, dir: string) {
  const source = await env.database();
  const kernel = await env.kernel(source.url);
  const targets: Array<{ close(): Promise<void> }> = [];
  try {
    await seedScale(kernel, 0, n);
    await kernel.stop();
    const archive = join(dir, `export-${n}.tar.gz`);
    const exported = await billing(source.url, ['export', '--output', archive]);
    const target = await env.database();
    targets.push(target);
    await billing(target.url, ['migrate']);
    const restored = await billing(target.url, ['import', archive]);
    const bare = await env.database();
    targets.push(bare);
    await billing(bare.url, ['migrate']);
    const bareSeconds = await bareLoad(bare.url, archive);
    return { exported, restored, bareSeconds };
  } finally {
    for (const t of targets) await t.close();
    await source.close();
  }
}

let results: Promise<Map<number, Awaited<ReturnType<typeof measure>>>> | null = null;

/** Both scenarios read one set of measurements (a failure fails both): the seeding is most of the work, done once per size. */
function measured(env: BenchEnv) {
  results ??= (async () => {
    if (!existsSync(TIME)) throw new Error(`${TIME} is needed to read the peak RSS of a command`);
    const dir = mkdtempSync(join(tmpdir(), 'billing-bench-transfer-'));
    try {
      const out = new Map<number, Awaited<ReturnType<typeof measure>>>();
      for (const n of [...SIZES].sort((a, b) => a - b)) out.set(n, await measure(env, n, dir));
      return out;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })();
  return results;
}

const fmt = (n: number) => n.toLocaleString('en');

export const exportBench: Scenario = {
  name: 'export',
  onlyWhenNamed: true,
  description: `billing export of ${SIZES.map(fmt).join(' and ')} seeded invoices (BENCH_TRANSFER_SIZES): time, and peak RSS from the smallest to the largest`,
  async run(env) {
    const r = await measured(env);
    const [small, large] = [Math.min(...SIZES), Math.max(...SIZES)];
    const a = r.get(large)!.exported;
    const b = r.get(small)!.exported;
    return [
      {
        scenario: `export ${fmt(large)} invoices`,
        ours: rate(large, a.seconds),
        baseline: rate(small, b.seconds),
        baselineName: `${fmt(small)} invoices`,
        note: `${a.seconds.toFixed(1)} s, peak RSS ${a.peakMb.toFixed(0)} MB (p99 column: the run's ms)`,
      },
      {
        scenario: `export peak RSS ${fmt(large)} vs ${fmt(small)}`,
        ours: rss(a.peakMb),
        baseline: rss(b.peakMb),
        baselineName: `${fmt(small)} invoices`,
        note: 'aim ≤ 1.2x (flat)',
      },
    ] satisfies Comparison[];
  },
};

export const importBench: Scenario = {
  name: 'import',
  onlyWhenNamed: true,
  description: `billing import <archive> of the export's archives into fresh databases, against a bare load of the same rows`,
  async run(env) {
    const r = await measured(env);
    const [small, large] = [Math.min(...SIZES), Math.max(...SIZES)];
    const a = r.get(large)!;
    const b = r.get(small)!;
    return [
      {
        scenario: `restore ${fmt(large)} invoices`,
        ours: rate(large, a.restored.seconds),
        baseline: rate(large, a.bareSeconds),
        baselineName: 'bare load (triggers off)',
        note: `${a.restored.seconds.toFixed(1)} s vs ${a.bareSeconds.toFixed(1)} s (aim: within 3x); peak RSS ${a.restored.peakMb.toFixed(0)} MB`,
      },
      {
        scenario: `restore peak RSS ${fmt(large)} vs ${fmt(small)}`,
        ours: rss(a.restored.peakMb),
        baseline: rss(b.restored.peakMb),
        baselineName: `${fmt(small)} invoices`,
        note: 'aim ≤ 1.2x (flat)',
      },
    ] satisfies Comparison[];
  },
};
