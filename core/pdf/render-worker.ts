// A render worker: sets up pdfmake and the fonts once, warms them, then renders definitions (sent as
// JSON text, exactly the text the cache key was computed from) one message at a time.
//
// This file runs as a worker thread, which Node loads itself: no jest transform reaches it, so it (and
// what it imports) must stay within what Node 22's type stripping runs as it is.
import { constants, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { canonicalJson } from './canonical-json.ts';
import { pdfDefinition } from './document-definition.ts';
import { pdfmakeEngine } from './pdfmake-engine.ts';
import { sampleInvoice } from './sample-document.ts';
import type { FromWorker, ToWorker } from './worker-protocol.ts';

const port = parentPort!;
const engine = pdfmakeEngine();

// Renders yield the CPU to everything else: on Linux a thread has a priority of its own, and
// setpriority() for "this process" from a thread sets the calling thread's only. With every core busy,
// the event loop that answers requests and the database then run first, and a render waits; GET p99
// while PDFs render stays near its idle p99 (bench `documents`). Elsewhere it is a no-op or refused.
try {
  setPriority(constants.priority.PRIORITY_LOW); // nice 19
} catch {
  // not permitted here: renders keep the default priority
}

// The first documents of a process pay for decoding font tables and compiling the layout code (~0.5 s):
// pay it before any request, on a document that uses every style and script.
for (const status of ['paid', 'draft', 'cancelled'] as const) {
  await engine.render(JSON.parse(canonicalJson(pdfDefinition(sampleInvoice({ status })))) as TDocumentDefinitions);
}
port.postMessage({ type: 'ready', fontSharing: engine.fontSharing() } satisfies FromWorker);

port.on('message', async (msg: ToWorker) => {
  try {
    const pdf = await engine.render(JSON.parse(msg.json) as TDocumentDefinitions);
    // Transfer, not copy: a Buffer may sit in a shared pool slab, so give it an ArrayBuffer of its own.
    const bytes = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf : Uint8Array.prototype.slice.call(pdf);
    port.postMessage({ type: 'done', id: msg.id, bytes } satisfies FromWorker, [bytes.buffer as ArrayBuffer]);
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    port.postMessage({ type: 'failed', id: msg.id, message: e.message, stack: e.stack ?? '' } satisfies FromWorker);
  }
});
