import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { BillingError } from '../errors.ts';
import { runBounded } from '../workers/bounded-worker.ts';
import type { PngBounds, PngCheck } from './png.ts';

export type { PngBounds, PngCheck } from './png.ts';

/**
 * A PNG decode's bounds beyond the image's own: a few megapixels decode and encode in well under a
 * second; one that takes longer, or more memory, is refused as the image it is.
 */
const CLEAN_TIMEOUT_MS = 5_000;
const CLEAN_MEMORY_MB = 128;
/** Answers kept (by the SHA-256 of the bytes and bounds): a document's images are checked once, not per render. */
const CACHE_ENTRIES = 64;

const cache = new LRUCache<string, PngCheck>({ max: CACHE_ENTRIES });

/**
 * Checks, decodes in full and re-encodes an untrusted PNG in a bounded worker (core/images/png.ts):
 * `{ ok: true, bytes }` is a clean image to store or draw, `{ ok: false, reason }` says what was wrong
 * in words for the person who sent it. 503 `billing_busy` when every image worker is busy.
 */
export async function cleanPng(bytes: Uint8Array, bounds: PngBounds): Promise<PngCheck> {
  // refused by size before anything else: nothing larger is even hashed or sent to a worker
  if (bytes.length > bounds.maxBytes) return { ok: false, reason: `larger than ${Math.floor(bounds.maxBytes / 1024)} KB` };
  const key = createHash('sha256').update(bytes).update(JSON.stringify(bounds)).digest('base64url');
  const known = cache.get(key);
  if (known) return known;
  let check: PngCheck;
  try {
    check = await runBounded<{ bytes: Uint8Array; bounds: PngBounds }, PngCheck>(
      new URL('./clean-png-worker.ts', import.meta.url),
      { bytes, bounds },
      { timeoutMs: CLEAN_TIMEOUT_MS, maxMemoryMb: CLEAN_MEMORY_MB, refuse: (hit) => new TooCostly(hit) },
    );
  } catch (e) {
    // not remembered: under heavy load a good image could hit the deadline once
    if (e instanceof TooCostly) return { ok: false, reason: e.message };
    throw e;
  }
  if (check.ok) check = { ...check, bytes: Buffer.from(check.bytes.buffer, check.bytes.byteOffset, check.bytes.byteLength) };
  cache.set(key, check);
  return check;
}

/** The worker's bound was hit: the image is refused, in the same words as any other bad image. */
class TooCostly extends BillingError {
  constructor(hit: 'time' | 'memory') {
    super(
      'billing_invalid_argument',
      hit === 'time' ? 'an image that takes too long to decode' : 'an image that needs too much memory to decode',
    );
  }
}
