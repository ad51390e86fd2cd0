import { cleanPng, type PngBounds, type PngCheck } from '../../core/plugin-api.ts';

/** What a signature may be: a PNG of at most 200 KB, of a pad's size. */
export const MAX_BYTES = 200 * 1024;
export const MAX_WIDTH = 2000;
export const MAX_HEIGHT = 1000;

export const SIGNATURE_BOUNDS: PngBounds = { maxBytes: MAX_BYTES, maxWidth: MAX_WIDTH, maxHeight: MAX_HEIGHT };

const DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * Checks a signature sent as a `data:image/png;base64,…` URL: the size before decoding anything, then
 * the image decoded in full and encoded again in a bounded worker (the core's cleanPng). What passes is
 * the re-encoded image, the only one ever stored or drawn.
 */
export async function checkSignaturePng(dataUrl: string): Promise<PngCheck> {
  // base64 is 4/3 of the bytes: refuse by length before decoding
  if (dataUrl.length > 30 + Math.ceil((MAX_BYTES * 4) / 3)) return { ok: false, reason: `larger than ${MAX_BYTES / 1024} KB` };
  const m = DATA_URL.exec(dataUrl);
  if (!m) return { ok: false, reason: 'not a data:image/png;base64 URL' };
  return cleanPng(Buffer.from(m[1]!, 'base64'), SIGNATURE_BOUNDS);
}
