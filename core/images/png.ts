// PNG images from untrusted hands (a customer's signature, a logo), made safe to draw: the file's
// structure is checked first (one header, first; chunk lengths and CRCs; a bounded number of chunks;
// dimensions within bounds; nothing after the end), then the image is decoded in full by pngjs — every
// row's filter, the exact pixel count, the inflate capped at the size the header promises — and encoded
// again. Only the re-encoded image is kept or drawn: whatever else the file carried is gone.
//
// A decode of a few megapixels is CPU work, so `cleanPng` runs it in a bounded worker (clean-png-worker.ts);
// `cleanPngNow` is the same check on the calling thread, for that worker. Nothing here imports the rest of
// the core: the worker loads only this file and pngjs.
import { crc32, inflateSync } from 'node:zlib';
import pngjs from 'pngjs';

export interface PngBounds {
  /** The largest file taken, in bytes. */
  maxBytes: number;
  maxWidth: number;
  maxHeight: number;
}

export type PngCheck = { ok: true; bytes: Buffer; width: number; height: number } | { ok: false; reason: string };

/** Chunks a PNG may have; a drawing has four or five (IDAT may be split, but not into thousands). */
export const MAX_CHUNKS = 1024;

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Colour types (PNG spec 11.2.2) and the bit depths each allows. */
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Samples per pixel of each colour type. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Checks, decodes and re-encodes a PNG on the calling thread (see cleanPng for the bounded one). */
export function cleanPngNow(input: Uint8Array, bounds: PngBounds): PngCheck {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const structure = checkStructure(bytes, bounds);
  if (!structure.ok) return structure;
  let decoded: { width: number; height: number; data: Buffer };
  try {
    decoded = pngjs.PNG.sync.read(bytes, { checkCRC: true });
  } catch (e) {
    return { ok: false, reason: `PNG image data that does not decode (${(e as Error).message.slice(0, 80)})` };
  }
  // the checked header is the only one, so these agree; a decoder that said otherwise is not trusted
  if (
    decoded.width !== structure.width ||
    decoded.height !== structure.height ||
    decoded.data.length !== decoded.width * decoded.height * 4
  ) {
    return { ok: false, reason: 'PNG image data that does not decode to its dimensions' };
  }
  // no per-row filter search: encoding stays a few tens of milliseconds for the largest image allowed
  const clean = pngjs.PNG.sync.write(decoded as pngjs.PNG, {
    colorType: 6,
    inputColorType: 6,
    bitDepth: 8,
    inputHasAlpha: true,
    filterType: 0,
  });
  return { ok: true, bytes: clean, width: decoded.width, height: decoded.height };
}

function checkStructure(bytes: Buffer, bounds: PngBounds): { ok: true; width: number; height: number } | { ok: false; reason: string } {
  if (bytes.length > bounds.maxBytes) return { ok: false, reason: `larger than ${Math.floor(bounds.maxBytes / 1024)} KB` };
  if (bytes.length < SIGNATURE.length + 12 + 13 || !bytes.subarray(0, 8).equals(SIGNATURE)) return { ok: false, reason: 'not a PNG image' };
  let at = 8;
  let header: { width: number; height: number } | null = null;
  let chunks = 0;
  const idat: Buffer[] = [];
  let rowBytes = 0;
  let ended = false;
  while (at < bytes.length && !ended) {
    if (++chunks > MAX_CHUNKS) return { ok: false, reason: `a PNG of more than ${MAX_CHUNKS} chunks` };
    if (at + 12 > bytes.length) return { ok: false, reason: 'a truncated PNG chunk' };
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (length > bytes.length - at - 12) return { ok: false, reason: 'a truncated PNG chunk' };
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(at + 8 + length)) {
      return { ok: false, reason: `a damaged PNG chunk (${type.replace(/[^A-Za-z]/g, '?')})` };
    }
    if (!header) {
      if (type !== 'IHDR' || length !== 13) return { ok: false, reason: 'a PNG without its header' };
      const width = data.readUInt32BE(0);
      const height = data.readUInt32BE(4);
      if (!DEPTHS[data[9]!]?.includes(data[8]!) || data[10] !== 0 || data[11] !== 0 || data[12]! > 1) {
        return { ok: false, reason: 'a PNG header that is not valid' };
      }
      if (data[12] !== 0) return { ok: false, reason: 'an interlaced PNG' };
      if (width < 1 || height < 1 || width > bounds.maxWidth || height > bounds.maxHeight) {
        return { ok: false, reason: `dimensions ${width}×${height} outside 1×1 to ${bounds.maxWidth}×${bounds.maxHeight}` };
      }
      header = { width, height };
      rowBytes = Math.ceil((width * CHANNELS[data[9]!]! * data[8]!) / 8);
    } else if (type === 'IHDR') {
      // a second header: decoders disagree on which one counts (one took the last, and a render stalled)
      return { ok: false, reason: 'a PNG with more than one header' };
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') ended = true;
    at += 12 + length;
  }
  if (!header || !idat.length || !ended || at !== bytes.length) return { ok: false, reason: 'an incomplete PNG' };
  // exactly the bytes the header promises, a filter byte per row: the inflate stops at one byte too many
  const expected = header.height * (1 + rowBytes);
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch {
    return { ok: false, reason: 'PNG image data that does not decode to its dimensions' };
  }
  if (pixels.length !== expected) return { ok: false, reason: 'PNG image data that does not decode to its dimensions' };
  return { ok: true, ...header };
}
