import { crc32, inflateSync } from 'node:zlib';

/** What a signature may be (contract §9.5): a PNG of at most 200 KB, of a pad's size. */
export const MAX_BYTES = 200 * 1024;
export const MAX_WIDTH = 2000;
export const MAX_HEIGHT = 1000;

const DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Channels per colour type (PNG spec 11.2.2), and the bit depths each allows. */
const COLOR_TYPES: Record<number, { channels: number; depths: number[] }> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
};

export type PngCheck = { ok: true; bytes: Buffer; width: number; height: number } | { ok: false; reason: string };

/**
 * Checks a signature sent as a `data:image/png;base64,…` URL: the size before decoding anything, then
 * the PNG itself — signature, chunk lengths and CRCs, a valid header, the dimensions, and image data
 * that inflates to exactly the size the header promises (bounded, so a compression bomb stops at the
 * first byte too many). What passes is a PNG every renderer here (browsers, pdfmake) reads.
 */
export function checkSignaturePng(dataUrl: string): PngCheck {
  // base64 is 4/3 of the bytes: refuse by length before decoding
  if (dataUrl.length > 30 + Math.ceil((MAX_BYTES * 4) / 3)) return { ok: false, reason: `larger than ${MAX_BYTES / 1024} KB` };
  const m = DATA_URL.exec(dataUrl);
  if (!m) return { ok: false, reason: 'not a data:image/png;base64 URL' };
  const bytes = Buffer.from(m[1]!, 'base64');
  if (bytes.length > MAX_BYTES) return { ok: false, reason: `larger than ${MAX_BYTES / 1024} KB` };
  if (bytes.length < SIGNATURE.length + 12 + 13 || !bytes.subarray(0, 8).equals(SIGNATURE)) return { ok: false, reason: 'not a PNG image' };

  let at = 8;
  let header: { width: number; height: number; depth: number; colorType: number; interlace: number } | null = null;
  const idat: Buffer[] = [];
  let ended = false;
  while (at < bytes.length) {
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
      header = {
        width: data.readUInt32BE(0),
        height: data.readUInt32BE(4),
        depth: data[8]!,
        colorType: data[9]!,
        interlace: data[12]!,
      };
      const kind = COLOR_TYPES[header.colorType];
      if (!kind || !kind.depths.includes(header.depth) || data[10] !== 0 || data[11] !== 0 || header.interlace > 1) {
        return { ok: false, reason: 'a PNG header that is not valid' };
      }
      if (header.width < 1 || header.height < 1 || header.width > MAX_WIDTH || header.height > MAX_HEIGHT) {
        return { ok: false, reason: `dimensions ${header.width}×${header.height} outside 1×1 to ${MAX_WIDTH}×${MAX_HEIGHT}` };
      }
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') {
      ended = true;
      at += 12 + length;
      break;
    }
    at += 12 + length;
  }
  if (!header || !ended || !idat.length || at !== bytes.length) return { ok: false, reason: 'an incomplete PNG' };
  if (header.interlace !== 0) return { ok: false, reason: 'an interlaced PNG' };
  const rowBytes = Math.ceil((header.width * COLOR_TYPES[header.colorType]!.channels * header.depth) / 8);
  const expected = header.height * (1 + rowBytes);
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch {
    return { ok: false, reason: 'PNG image data that does not decode to its dimensions' };
  }
  if (pixels.length !== expected) return { ok: false, reason: 'PNG image data that does not decode to its dimensions' };
  return { ok: true, bytes, width: header.width, height: header.height };
}
