import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openEmbedded } from '../core/db/embedded.ts';
import { Kernel } from '../core/kernel.ts';
import pino from 'pino';
import { createLogger } from '../core/log.ts';

const run = promisify(execFile);
const AUTOCANNON = resolve(import.meta.dirname, '../node_modules/autocannon/autocannon.js');

/** One measured side of a comparison. `throughput` is per second, in `unit`; latencies in ms. */
export interface Measure {
  throughput: number;
  p50: number;
  p99: number;
  unit: string;
  errors: number;
}

/** Ours next to a bare baseline measured in the same run; ratio = ours / baseline throughput. */
export interface Comparison {
  scenario: string;
  ours: Measure;
  baseline: Measure;
  baselineName: string;
  note?: string;
  /** When measured by `alternate`: the lowest and highest of the runs' ratios, and how many runs. */
  spread?: { low: number; high: number; runs: number };
}

export interface Scenario {
  name: string;
  description: string;
  /** Left out of a plain `npm run bench` (minutes long): run with `npm run bench -- <name>`. */
  onlyWhenNamed?: boolean;
  run(env: BenchEnv): Promise<Comparison[]>;
}

export interface HttpLoad {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  seconds?: number;
  /** A number of requests to send instead of a duration (autocannon's `--amount`). */
  amount?: number;
  /** Skip autocannon's one-second warm-up. */
  noWarmup?: boolean;
}

/** Settings for a whole run: short and light by default so `npm run bench` fits a CI minute. */
export interface BenchEnv {
  seconds: number;
  connections: number;
  /** Runs of each side that `alternate` makes (BENCH_RUNS, default 3): medians are reported. */
  runs: number;
  /** A fresh database for a scenario: BENCH_DATABASE_URL's server, or an in-memory PGlite. */
  database(): Promise<{ url: string; close(): Promise<void> }>;
  /** A full service on that database, serving HTTP, with the bench plugins discoverable. */
  kernel(url: string, env?: Record<string, string>): Promise<Kernel>;
}

/**
 * Drives HTTP load from a separate process (autocannon's CLI), so the load generator does not share
 * the event loop of the server it measures; on two cores each gets one.
 */
export async function measureHttp(load: HttpLoad, env: BenchEnv): Promise<Measure> {
  const args = [
    AUTOCANNON,
    '-j',
    '-c',
    String(load.connections ?? env.connections),
    ...(load.amount !== undefined ? ['-a', String(load.amount)] : ['-d', String(load.seconds ?? env.seconds)]),
    '-m',
    load.method ?? 'GET',
  ];
  for (const [k, v] of Object.entries(load.headers ?? {})) args.push('-H', `${k}: ${v}`);
  if (load.body !== undefined) args.push('-b', load.body);
  if (!load.noWarmup) args.push('--warmup', '[', '-c', '2', '-d', '1', ']');
  args.push(load.url);
  const { stdout } = await run(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 });
  const r = JSON.parse(stdout.trim().split('\n').at(-1)!); // the warm-up prints a line of its own first
  return {
    throughput: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    unit: 'req/s',
    errors: r.errors + r.non2xx + r.timeouts,
  };
}

/** Runs `op` with `concurrency` callers for `seconds`; for work that is not an HTTP request. */
export async function measureOps(
  op: () => Promise<unknown>,
  opts: { seconds: number; concurrency: number; unit: string },
): Promise<Measure> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + opts.seconds * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          await op();
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { throughput: latencies.length / elapsed, p50: q(0.5), p99: q(0.99), unit: opts.unit, errors };
}

/**
 * Ours and the baseline measured alternately, `env.runs` times each (ours, baseline, ours, …), so a
 * slow minute of a shared machine falls on both sides: each figure is the median of its runs, and the
 * spread is the lowest and highest ratio of a run of ours to the baseline run next to it.
 */
export async function alternate(
  ours: () => Promise<Measure>,
  baseline: () => Promise<Measure>,
  env: BenchEnv,
): Promise<Pick<Comparison, 'ours' | 'baseline' | 'spread'>> {
  const o: Measure[] = [];
  const b: Measure[] = [];
  for (let i = 0; i < env.runs; i++) {
    o.push(await ours());
    b.push(await baseline());
  }
  const ratios = o.map((m, i) => m.throughput / b[i]!.throughput);
  return { ours: median(o), baseline: median(b), spread: { low: Math.min(...ratios), high: Math.max(...ratios), runs: env.runs } };
}

/** The median of each figure of several runs (errors summed). */
function median(runs: Measure[]): Measure {
  const mid = (pick: (m: Measure) => number) => {
    const v = runs.map(pick).sort((x, y) => x - y);
    return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
  };
  return {
    throughput: mid((m) => m.throughput),
    p50: mid((m) => m.p50),
    p99: mid((m) => m.p99),
    unit: runs[0]!.unit,
    errors: runs.reduce((sum, m) => sum + m.errors, 0),
  };
}

export function benchEnv(): BenchEnv {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
  let n = 0;
  return {
    seconds,
    connections,
    runs,
    async database() {
      const server = process.env.BENCH_DATABASE_URL;
      if (!server) {
        const emb = await openEmbedded('memory://', mkdtempSync(join(tmpdir(), 'billing-bench-')));
        return { url: emb.url, close: () => emb.close() };
      }
      const pg = (await import('pg')).default;
      const name = `billing_bench_${process.pid}_${++n}`;
      const admin = new pg.Client({ connectionString: server });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(server);
      url.pathname = `/${name}`;
      return {
        url: url.toString(),
        async close() {
          const c = new pg.Client({ connectionString: server });
          await c.connect();
          await c.query(`drop database if exists ${name} with (force)`);
          await c.end();
        },
      };
    },
    async kernel(url) {
      const port = 20000 + Math.floor(Math.random() * 20000);
      const config = loadConfig(
        {},
        {
          port,
          baseUrl: `http://127.0.0.1:${port}`,
          databaseUrl: url,
          dataDir: mkdtempSync(join(tmpdir(), 'billing-bench-data-')),
          pluginDirs: [resolve(import.meta.dirname, '../plugins'), resolve(import.meta.dirname, 'plugins')],
        },
      );
      // Logs as in production (a JSON line per request), written to /dev/null: their cost is measured.
      return Kernel.boot(config, {
        serve: true,
        announce: () => {},
        log: createLogger('info', pino.destination({ dest: '/dev/null', sync: false })),
      });
    },
  };
}

export function formatRow(c: Comparison): string {
  const m = (x: Measure) => `${x.throughput.toFixed(0).padStart(7)} ${x.unit.padEnd(6)} p99 ${x.p99.toFixed(1).padStart(6)} ms`;
  const ratio = c.ours.throughput / c.baseline.throughput;
  const errs = c.ours.errors || c.baseline.errors ? `  (errors: ours ${c.ours.errors}, baseline ${c.baseline.errors})` : '';
  const spread = c.spread ? ` (${c.spread.low.toFixed(2)}–${c.spread.high.toFixed(2)}, median of ${c.spread.runs})` : '';
  return `${c.scenario.padEnd(44)} ours ${m(c.ours)} | ${c.baselineName}: ${m(c.baseline)} | ratio ${ratio.toFixed(2)}x${spread}${errs}${c.note ? `  ${c.note}` : ''}`;
}
