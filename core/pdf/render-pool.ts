// A small pool of worker threads that render pdfmake definitions, so that laying out and compressing a
// PDF (tens of milliseconds of pure CPU) never runs on the event loop that serves requests.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { BillingError } from '../errors.ts';
import { workerExecArgv } from '../workers/exec-argv.ts';
import type { FromWorker, ToWorker } from './worker-protocol.ts';

const WORKER_URL = new URL('./render-worker.ts', import.meta.url);

export interface RenderPoolOptions {
  /** Worker threads; default min(2, available cores − 1), at least 1. */
  size?: number;
  /** Renders waiting for a worker beyond which a new one is refused (503 + Retry-After); default 32 per worker. */
  maxQueue?: number;
}

/** What a refused render tells the caller to wait, in seconds: about what the queue ahead of it takes. */
const RETRY_AFTER_S = 2;

interface Job {
  id: number;
  json: string;
  resolve(bytes: Buffer): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
}

export class PdfRenderPool {
  readonly size: number;
  readonly maxQueue: number;
  #slots: Slot[] = [];
  #queue: Job[] = [];
  #nextId = 1;
  #closed = false;
  #readyWaiters: Array<{ resolve(): void; reject(err: Error): void }> = [];
  #fontSharing = true;

  constructor(options: RenderPoolOptions = {}) {
    // one core stays with the event loop that answers requests: renders never take every core
    this.size = Math.max(1, Math.floor(options.size ?? Math.min(2, availableParallelism() - 1)));
    this.maxQueue = Math.max(1, Math.floor(options.maxQueue ?? 32 * this.size));
  }

  /** Renders a definition given as JSON text; resolves to the PDF's bytes. */
  render(json: string): Promise<Buffer> {
    if (this.#closed) return Promise.reject(new BillingError('billing_internal', 'The PDF renderer is closed.'));
    // Back-pressure: past the bound, a caller is told to come back rather than queued for ever longer
    // (and the memory of the waiting definitions stays bounded).
    if (this.#queue.length >= this.maxQueue) {
      return Promise.reject(
        new BillingError('billing_pdf_busy', 'Too many PDFs are being rendered right now. Please try again shortly.', {
          retry_after: RETRY_AFTER_S,
        }),
      );
    }
    return new Promise<Buffer>((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, json, resolve, reject });
      this.#fill();
      this.#dispatch();
    });
  }

  /** Starts every worker and waits until each has loaded pdfmake and the fonts. */
  warmUp(): Promise<void> {
    if (this.#closed) return Promise.reject(new BillingError('billing_internal', 'The PDF renderer is closed.'));
    this.#fill();
    if (this.#slots.every((s) => s.ready)) return Promise.resolve();
    const ready = new Promise<void>((resolve, reject) => this.#readyWaiters.push({ resolve, reject }));
    this.#holdOpen();
    return ready;
  }

  /** Worker threads currently running. */
  get threads(): number {
    return this.#slots.length;
  }

  /** Whether every worker reported that pdfkit reuses parsed fonts (the per-process saving). */
  get fontSharing(): boolean {
    return this.#fontSharing;
  }

  /** Rejects whatever is still queued or rendering and terminates the workers. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closed = new BillingError('billing_internal', 'The PDF renderer was closed before the document was rendered.');
    for (const job of this.#queue.splice(0)) job.reject(closed);
    for (const w of this.#readyWaiters.splice(0)) w.reject(closed);
    const slots = this.#slots.splice(0);
    for (const slot of slots) slot.job?.reject(closed);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  #fill(): void {
    while (this.#slots.length < this.size) this.#spawn();
  }

  #spawn(): void {
    const worker = new Worker(WORKER_URL, { execArgv: workerExecArgv() });
    const slot: Slot = { worker, ready: false, job: null };
    this.#slots.push(slot);
    worker.on('message', (msg: FromWorker) => {
      if (msg.type === 'ready') {
        slot.ready = true;
        this.#fontSharing &&= msg.fontSharing;
        if (this.#slots.length === this.size && this.#slots.every((s) => s.ready)) {
          for (const w of this.#readyWaiters.splice(0)) w.resolve();
        }
        this.#dispatch();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      slot.job = null;
      if (msg.type === 'done') job.resolve(Buffer.from(msg.bytes.buffer, msg.bytes.byteOffset, msg.bytes.byteLength));
      else job.reject(renderError(msg.message, msg.stack));
      this.#dispatch();
    });
    worker.on('error', (err) => this.#lost(slot, err));
    worker.on('exit', (code) => this.#lost(slot, new Error(`PDF render worker exited with code ${code}`)));
  }

  /** A worker died: fail its job (and, if it never became ready, everything waiting), replace it later. */
  #lost(slot: Slot, err: Error): void {
    const at = this.#slots.indexOf(slot);
    if (at < 0) return; // already handled (error is followed by exit), or closing
    this.#slots.splice(at, 1);
    const failure = renderError(err.message, err.stack ?? '');
    slot.job?.reject(failure);
    slot.job = null;
    if (!slot.ready) {
      // It could not even start (fonts missing, a broken install): retrying in a loop would not help.
      for (const job of this.#queue.splice(0)) job.reject(failure);
      for (const w of this.#readyWaiters.splice(0)) w.reject(failure);
      this.#holdOpen();
      return;
    }
    if (!this.#closed && this.#queue.length) {
      this.#fill();
      this.#dispatch();
    }
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (!this.#queue.length) break;
      if (!slot.ready || slot.job) continue;
      const job = this.#queue.shift()!;
      slot.job = job;
      slot.worker.postMessage({ id: job.id, json: job.json } satisfies ToWorker);
    }
    this.#holdOpen();
  }

  /**
   * Workers keep the process alive only while someone waits on them (a render, a warm-up): an idle pool
   * never holds a process open, and a script awaiting its PDF does not exit under it.
   */
  #holdOpen(): void {
    const waiting = this.#queue.length > 0 || this.#readyWaiters.length > 0;
    for (const slot of this.#slots) {
      if (slot.job || (!slot.ready && waiting)) slot.worker.ref();
      else slot.worker.unref();
    }
  }
}

function renderError(message: string, stack: string): BillingError {
  const err = new BillingError('billing_internal', `PDF rendering failed: ${message}`);
  err.stack = `${err.name}: ${err.message}\n--- in the render worker ---\n${stack}`;
  return err;
}
