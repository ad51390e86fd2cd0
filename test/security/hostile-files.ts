// Hostile files, generated (never copied into the project): the shapes an attacker sends to the parsers
// of untrusted input. Each is small to send and expensive to parse naively.
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import { pngBytes, pngChunk } from '../quote-signatures/png-fixture.ts';

/** A PDF's bytes from its objects (`n 0 obj … endobj` bodies, numbered from 1) and its catalog's number. */
function pdf(objects: Array<string | Buffer>, root = 1): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(at);
    const obj = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'),
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(obj);
    at += obj.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root ${root} 0 R >>\nstartxref\n${at}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/**
 * A PDF whose attachment name tree has `n` nodes, each listing all `n` as its kids: a few hundred bytes
 * that a walk bounded only by depth visits n^depth times.
 */
export function selfReferencingPdf(n: number): Buffer {
  const kids = `[${Array.from({ length: n }, (_, i) => `${i + 3} 0 R`).join(' ')}]`;
  return pdf([
    '<< /Type /Catalog /Names 2 0 R >>',
    '<< /EmbeddedFiles 3 0 R >>',
    ...Array.from({ length: n }, () => `<< /Kids ${kids} >>`),
  ]);
}

/** A PDF whose attachment name tree has one leaf of `entries` names that lead nowhere: a wide, flat walk. */
export function wideNameTreePdf(entries: number): Buffer {
  const names = Array.from({ length: entries }, (_, i) => `(n${i}) null`).join(' ');
  return pdf(['<< /Type /Catalog /Names 2 0 R >>', '<< /EmbeddedFiles 3 0 R >>', `<< /Names [${names}] >>`]);
}

/**
 * A zlib stream of `size` zero bytes, built without compressing them all: after a full flush the
 * compressor starts afresh, so the block for one chunk of zeros is the block for every chunk; it is
 * repeated, and the Adler-32 of zeros is computed directly.
 */
export function zeroBomb(size: number): Buffer {
  const CHUNK = 4 * 1024 * 1024;
  if (size % CHUNK) throw new Error('size must be a multiple of 4 MiB');
  const block = deflateRawSync(Buffer.alloc(CHUNK), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE((((size % 65521) << 16) | 1) >>> 0);
  // zlib header, the blocks, an empty final stored block, the checksum
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array<Buffer>(size / CHUNK).fill(block),
    Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]),
    trailer,
  ]);
}

/** A PDF with an object stream that inflates to `size` bytes (pdf-lib decodes object streams as it loads). */
export function streamBombPdf(size = 1024 * 1024 * 1024): Buffer {
  const bomb = zeroBomb(size);
  return pdf([
    '<< /Type /Catalog >>',
    Buffer.concat([
      Buffer.from(`<< /Type /ObjStm /N 1 /First 4 /Length ${bomb.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
      bomb,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ]);
}

/** A UBL-looking XML that declares entities expanding to gigabytes ("billion laughs"). */
export function billionLaughsXml(): string {
  const levels = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i < 10; i++) levels.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0"?>\n<!DOCTYPE Invoice [${levels.join('')}]>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&lol9;</Invoice>`;
}

/** An XML whose external entity would read a local file. */
export function externalEntityXml(): string {
  return `<?xml version="1.0"?>\n<!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&xxe;</ID></Invoice>`;
}

/** The chunks of a PNG (after its 8-byte signature), as [type, data]. */
function chunks(png: Buffer): Array<[string, Buffer]> {
  const out: Array<[string, Buffer]> = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    out.push([png.toString('latin1', at + 4, at + 8), png.subarray(at + 8, at + 8 + length)]);
    at += 12 + length;
  }
  return out;
}

function assemble(list: Array<[string, Buffer]>): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...list.map(([t, d]) => pngChunk(t, d))]);
}

function ihdr(width: number, height: number): Buffer {
  const h = Buffer.alloc(13);
  h.writeUInt32BE(width, 0);
  h.writeUInt32BE(height, 4);
  h[8] = 8;
  h[9] = 6;
  return h;
}

/**
 * A small, valid-looking PNG with a second header chunk after its first: the second declares a far larger
 * image, which a decoder that takes the last header then tries to draw.
 */
export function duplicateHeaderPng(): Buffer {
  const [head, ...rest] = chunks(pngBytes(60, 20));
  return assemble([head!, ['IHDR', ihdr(20000, 20000)], ...rest]);
}

/** A PNG whose first row names filter type 7 (there are five, 0–4): a decoder must refuse it. */
export function badFilterPng(): Buffer {
  const width = 60;
  const height = 20;
  const raw = Buffer.alloc((1 + width * 4) * height);
  raw[0] = 7;
  return assemble([
    ['IHDR', ihdr(width, height)],
    ['IDAT', deflateSync(raw)],
    ['IEND', Buffer.alloc(0)],
  ]);
}

/** A PNG that declares 100000×100000 pixels (40 GB of RGBA) in a few hundred bytes. */
export function hugePng(): Buffer {
  return assemble([
    ['IHDR', ihdr(100_000, 100_000)],
    ['IDAT', deflateSync(Buffer.alloc(1024 * 1024))],
    ['IEND', Buffer.alloc(0)],
  ]);
}
