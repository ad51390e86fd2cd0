// A bounded worker thread: loads one parser module (its default export) once, then runs it on each
// input it is sent. The pool that started it enforces the bounds from outside (core/workers/bounded-worker.ts).
//
// Node loads this file itself: no jest transform reaches it, so it (and the modules it runs) must stay
// within what Node's type stripping runs as it is.
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { FromThread, ToThread } from './bounded-protocol.ts';

const port = parentPort!;

// Parsing yields the CPU to the event loop that answers requests: on Linux this sets the calling
// thread's priority only (see core/pdf/render-worker.ts). Elsewhere it is a no-op or refused.
try {
  setPriority(constants.priority.PRIORITY_LOW);
} catch {
  // not permitted here: the default priority
}

const mod = (await import((workerData as { moduleUrl: string }).moduleUrl)) as { default?: unknown };
const run = mod.default;
if (typeof run !== 'function') throw new Error(`${(workerData as { moduleUrl: string }).moduleUrl} has no default export to run`);
port.postMessage({ type: 'ready' } satisfies FromThread);

port.on('message', async (msg: ToThread) => {
  try {
    const output: unknown = await (run as (input: unknown) => unknown)(msg.input);
    port.postMessage({ type: 'done', id: msg.id, output } satisfies FromThread);
  } catch (err) {
    const e = (err instanceof Error ? err : new Error(String(err))) as Error & { code?: unknown; status?: unknown; data?: unknown };
    const billing = e.name === 'BillingError' && typeof e.code === 'string';
    port.postMessage({
      type: 'failed',
      id: msg.id,
      error: {
        message: e.message,
        stack: e.stack,
        ...(billing ? { code: e.code as string, status: Number(e.status), data: (e.data ?? {}) as Record<string, unknown> } : {}),
      },
    } satisfies FromThread);
  }
});
