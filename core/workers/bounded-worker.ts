// Bounded work for untrusted input: a parser of something a caller sent (a PDF, an image, an XML file,
// and the CSV and bank statements to come) runs on a worker thread with a wall-clock deadline and a
// memory ceiling, never on the event loop that answers requests. Past either bound the thread is
// terminated — which stops even a busy loop inside a library — and the caller answers its own 4xx.
//
// Workers are kept warm per parser module (loading pdf-lib and the core takes ~0.5 s, more than most
// parses), a few per process so that parallel bombs cannot take every core or all memory: beyond them
// jobs queue, and beyond a short queue they are refused with 503 `billing_busy` and Retry-After.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { BillingError, errorStatus, type ErrorCode } from '../errors.ts';
import { workerExecArgv } from './exec-argv.ts';
import type { FromThread, ToThread } from './bounded-protocol.ts';

const THREAD_URL = new URL('./bounded-thread.ts', import.meta.url);
const MiB = 1024 * 1024;

/** Which bound a job hit. */
export type BoundHit = 'time' | 'memory';

export interface BoundedRunOptions {
  /** How long the job may run once a worker has it, in ms; the thread is terminated after. */
  timeoutMs: number;
  /**
   * The worker's memory ceiling in MiB: its JavaScript heap (a V8 limit) and, polled while it runs,
   * heap plus external memory (the ArrayBuffers a decompressor fills), which V8 does not limit.
   */
  maxMemoryMb: number;
  /** The caller's refusal when the input made the job exceed a bound (its own code, a 4xx). */
  refuse(hit: BoundHit): BillingError;
  /**
   * Buffers handed to the worker instead of copied (a large upload): they are unusable here afterwards.
   * A buffer that shares its memory with others (Node's small-buffer pool) is copied instead.
   */
  transfer?: Uint8Array[];
}

/** A module a bounded worker runs: its default export takes the input and returns the output. */
export type BoundedJob<I, O> = (input: I) => O | Promise<O>;

/** Worker threads per parser module: one core always stays with the event loop. */
const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));
/** Jobs waiting beyond the running ones before new ones are refused. */
const MAX_QUEUE = 4 * POOL_SIZE;
/** A worker idle this long is ended: its memory goes back, the next job pays the start again. */
const IDLE_MS = 60_000;
/** How often a running job's memory is read. */
const MEMORY_POLL_MS = 25;
/** What a refused job tells the caller to wait, in seconds. */
const RETRY_AFTER_S = 2;

const pools = new Map<string, BoundedPool>();

/**
 * Runs the default export of `moduleUrl` on `input` in a worker thread, within `timeoutMs` and
 * `maxMemoryMb`; resolves to what it returned. A BillingError it throws arrives as the same error; past a
 * bound, `refuse(hit)`; with every worker busy and the queue full, 503 `billing_busy`.
 *
 * The module runs as Node loads it (no build step, type stripping only) and must stay pure: bytes in,
 * data out. Input and output cross by structured clone.
 */
export function runBounded<I, O>(moduleUrl: URL, input: I, options: BoundedRunOptions): Promise<O> {
  const key = `${moduleUrl.href}\n${options.maxMemoryMb}`;
  let pool = pools.get(key);
  if (!pool) pools.set(key, (pool = new BoundedPool(moduleUrl, options.maxMemoryMb)));
  return pool.run(input, options) as Promise<O>;
}

/** Ends every bounded worker (shutdown, tests); jobs still running or queued are rejected. */
export async function closeBoundedWorkers(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}

interface Job {
  id: number;
  input: unknown;
  options: BoundedRunOptions;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  timers: Array<ReturnType<typeof setTimeout>>;
}

class BoundedPool {
  #slots: Slot[] = [];
  #queue: Job[] = [];
  #nextId = 1;
  #closed = false;
  readonly #moduleUrl: URL;
  readonly #maxMemoryMb: number;

  constructor(moduleUrl: URL, maxMemoryMb: number) {
    this.#moduleUrl = moduleUrl;
    this.#maxMemoryMb = maxMemoryMb;
  }

  run(input: unknown, options: BoundedRunOptions): Promise<unknown> {
    if (this.#closed) return Promise.reject(new BillingError('billing_internal', 'The bounded workers are closed.'));
    if (this.#queue.length >= MAX_QUEUE) {
      return Promise.reject(
        new BillingError('billing_busy', 'Too many files are being read right now. Please try again shortly.', {
          retry_after: RETRY_AFTER_S,
        }),
      );
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, input, options, resolve, reject });
      this.#fill();
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const closed = new BillingError('billing_internal', 'The bounded workers were closed before the job ran.');
    for (const job of this.#queue.splice(0)) job.reject(closed);
    const slots = this.#slots.splice(0);
    for (const slot of slots) {
      this.#clearTimers(slot);
      slot.job?.reject(closed);
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /** Starts workers for what waits, up to the pool's size. */
  #fill(): void {
    const idle = this.#slots.filter((s) => !s.job).length;
    for (let n = this.#queue.length - idle; n > 0 && this.#slots.length < POOL_SIZE; n--) this.#spawn();
  }

  #spawn(): void {
    const worker = new Worker(THREAD_URL, {
      workerData: { moduleUrl: this.#moduleUrl.href },
      execArgv: workerExecArgv(),
      // the heap ceiling V8 enforces itself; external memory is watched while a job runs (#watch)
      resourceLimits: { maxOldGenerationSizeMb: this.#maxMemoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    const slot: Slot = { worker, ready: false, job: null, timers: [] };
    this.#slots.push(slot);
    worker.on('message', (msg: FromThread) => {
      if (msg.type === 'ready') {
        slot.ready = true;
        this.#dispatch();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      this.#clearTimers(slot);
      slot.job = null;
      if (msg.type === 'done') job.resolve(msg.output);
      else job.reject(fromThread(msg.error));
      this.#dispatch();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      // V8 stopped the thread at its heap ceiling: the input's fault, refused as it says
      const job = slot.job;
      if (job && err.code === 'ERR_WORKER_OUT_OF_MEMORY') this.#end(slot, job.options.refuse('memory'));
      else this.#end(slot, internal(`The worker failed: ${err.message}`));
    });
    worker.on('exit', (code) => this.#end(slot, internal(`The worker exited with code ${code}.`)));
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (!this.#queue.length) break;
      if (!slot.ready || slot.job) continue;
      const job = this.#queue.shift()!;
      this.#clearTimers(slot);
      slot.job = job;
      const transfer: ArrayBuffer[] = [];
      for (const b of job.options.transfer ?? []) {
        // only a buffer that owns all of its memory can move; one in the shared pool would take its neighbours along
        if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer) transfer.push(b.buffer);
      }
      try {
        slot.worker.postMessage({ id: job.id, input: job.input } satisfies ToThread, transfer);
      } catch (err) {
        slot.job = null;
        job.reject(internal(`The input could not be sent to the worker: ${(err as Error).message}`));
        continue;
      }
      this.#watch(slot, job);
    }
    this.#fill();
    for (const slot of this.#slots) {
      // an idle pool never holds the process open; one running or starting for a job does
      if (slot.job || (!slot.ready && this.#queue.length)) slot.worker.ref();
      else slot.worker.unref();
      if (!slot.job && slot.ready && !slot.timers.length) slot.timers.push(setTimeout(() => this.#end(slot, null), IDLE_MS).unref());
    }
  }

  /** The job's bounds: the deadline, and the memory read while it runs (the thread may never yield). */
  #watch(slot: Slot, job: Job): void {
    const limit = this.#maxMemoryMb * MiB;
    slot.timers.push(setTimeout(() => slot.job === job && this.#end(slot, job.options.refuse('time')), job.options.timeoutMs));
    const poll = setInterval(() => {
      slot.worker
        .getHeapStatistics()
        .then((s) => {
          if (slot.job === job && s.used_heap_size + s.external_memory > limit) this.#end(slot, job.options.refuse('memory'));
        })
        .catch(() => {}); // the thread is already gone: its exit says so
    }, MEMORY_POLL_MS);
    slot.timers.push(poll as unknown as ReturnType<typeof setTimeout>);
  }

  /** Ends a worker (terminated: a bound was hit, it failed, or it idled), rejecting its job with `err`. */
  #end(slot: Slot, err: Error | null): void {
    const at = this.#slots.indexOf(slot);
    if (at < 0) return; // already ended (an error is followed by exit)
    this.#slots.splice(at, 1);
    this.#clearTimers(slot);
    const job = slot.job;
    slot.job = null;
    if (job) job.reject(err ?? internal('The worker ended.'));
    void slot.worker.terminate();
    if (!slot.ready && !job && err) {
      // it could not even start (the module does not load): whatever waits would fail the same way
      for (const queued of this.#queue.splice(0)) queued.reject(err);
      return;
    }
    if (!this.#closed) this.#dispatch();
  }

  #clearTimers(slot: Slot): void {
    for (const t of slot.timers.splice(0)) clearTimeout(t);
  }
}

function internal(message: string): BillingError {
  return new BillingError('billing_internal', message);
}

/**
 * An error as the thread sent it: a BillingError stays one (its code and data; its status is this
 * process's, where the plugins' codes are declared), anything else is internal.
 */
function fromThread(e: Extract<FromThread, { type: 'failed' }>['error']): BillingError {
  if (e.code && errorStatus(e.code) !== undefined) return new BillingError(e.code as ErrorCode, e.message, e.data ?? {});
  const err = internal(`The worker failed: ${e.message}`);
  err.stack = `${err.name}: ${err.message}\n--- in the worker ---\n${e.stack ?? ''}`;
  return err;
}
