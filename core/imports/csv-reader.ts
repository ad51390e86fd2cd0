// Reading CSV files as the products people leave write them: a streaming parser (csv-parse) over the
// bytes, decoded as UTF-8 or, where the bytes are not UTF-8, as Windows-1252 (what Excel on Windows
// saves); `,`, `;` or tab as the delimiter, detected from the first lines; a UTF-8 BOM dropped; a
// title block above the header (Invoice Ninja's exports) passed over.
import { parse } from 'csv-parse';
import { Readable } from 'node:stream';

export type CsvEncoding = 'utf-8' | 'windows-1252';
export type CsvDelimiter = ',' | ';' | '\t';

/** How a file is written: what the preview finds and the commit reads it with. */
export interface CsvShape {
  encoding: CsvEncoding;
  delimiter: CsvDelimiter;
  /** Records before the header (a title block), passed over. */
  headerIndex: number;
}

/** The longest record read (a cell of a whole letter is fine; a file of one endless cell is not). */
export const MAX_RECORD_BYTES = 1024 * 1024;
/** The most columns a file may have. */
export const MAX_COLUMNS = 500;
/** Records looked at for the header, at most (a title block is a few lines). */
const HEADER_SEARCH = 10;
/** Bytes looked at to choose the delimiter. */
const SNIFF_BYTES = 64 * 1024;
const CHUNK = 1024 * 1024;

/** UTF-8 when every byte sequence is valid UTF-8 (checked chunk by chunk, nothing kept), else Windows-1252. */
export async function detectEncoding(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<CsvEncoding> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of chunks) decoder.decode(chunk, { stream: true });
    decoder.decode();
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/**
 * The delimiter whose count per line is the most regular over the first lines (quotes respected): the
 * share of lines with the most common non-zero count first, then that count. `1.234,50` in a `;` file
 * puts a comma in some lines only; the semicolons are in every one.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const lines = splitLines(text.slice(0, SNIFF_BYTES)).slice(0, 50);
  let best: { d: CsvDelimiter; share: number; count: number } = { d: ',', share: -1, count: 0 };
  for (const d of [',', ';', '\t'] as const) {
    const counts = lines.map((l) => countOutsideQuotes(l, d)).filter((_, i) => lines[i]!.trim() !== '');
    const freq = new Map<number, number>();
    for (const c of counts) if (c > 0) freq.set(c, (freq.get(c) ?? 0) + 1);
    let mode = 0;
    let modeFreq = 0;
    for (const [c, f] of freq) if (f > modeFreq || (f === modeFreq && c > mode)) [mode, modeFreq] = [c, f];
    const share = counts.length ? modeFreq / counts.length : 0;
    if (share > best.share || (share === best.share && mode > best.count)) best = { d, share, count: mode };
  }
  return best.d;
}

function splitLines(text: string): string[] {
  // a quoted cell may hold a line break: join such lines back
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const line of text.split(/\r\n|\n|\r/)) {
    current = current ? `${current}\n${line}` : line;
    for (const ch of line) if (ch === '"') quoted = !quoted;
    if (!quoted) {
      out.push(current);
      current = '';
    }
  }
  if (current) out.push(current);
  return out;
}

function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === d && !quoted) n++;
  }
  return n;
}

/** The first bytes of a file decoded, to choose its delimiter. */
export function sniffText(first: Uint8Array, encoding: CsvEncoding): string {
  return new TextDecoder(encoding).decode(first.subarray(0, SNIFF_BYTES));
}

/** A buffer as chunks of at most 1 MiB (views, not copies). */
export function* chunksOf(bytes: Uint8Array): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += CHUNK) yield bytes.subarray(i, Math.min(bytes.length, i + CHUNK));
}

/** Thrown for a file the parser cannot read, with the 1-based data row where it stopped (0: the header). */
export class CsvReadError extends Error {
  readonly row: number;
  constructor(message: string, row: number) {
    super(message);
    this.row = row;
  }
}

/**
 * The file's records as arrays of cells, streamed: text decoded chunk by chunk, each record handed on
 * before the next is read, so memory holds one chunk and one record whatever the file's size.
 */
export async function* readRecords(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  shape: Pick<CsvShape, 'encoding' | 'delimiter'>,
): AsyncGenerator<string[]> {
  const decoder = new TextDecoder(shape.encoding);
  async function* text() {
    for await (const chunk of chunks) {
      const s = decoder.decode(chunk, { stream: true });
      if (s) yield s;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  }
  const parser = Readable.from(text()).pipe(
    parse({
      delimiter: shape.delimiter,
      bom: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      max_record_size: MAX_RECORD_BYTES,
    }),
  );
  let n = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      n++;
      if (record.length > MAX_COLUMNS) throw new CsvReadError(`A record has more than ${MAX_COLUMNS} columns.`, n);
      yield record;
    }
  } catch (err) {
    if (err instanceof CsvReadError) throw err;
    throw new CsvReadError(`The file could not be read as CSV: ${(err as Error).message.split('\n')[0]}`, n + 1);
  } finally {
    parser.destroy();
  }
}

/**
 * Which of the first records is the header: the first with at least two cells filled and no more than
 * half of them empty. A title block above it (a product's name, a blank line, a section name) is not.
 */
export function isHeader(record: readonly string[]): boolean {
  const filled = record.filter((c) => c.trim() !== '').length;
  return filled >= 2 && filled * 2 >= record.length;
}

export { HEADER_SEARCH };

/** Header cells as column names: trimmed, a BOM dropped, empty ones named by position, repeats numbered. */
export function columnNames(header: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return header.map((raw, i) => {
    let name = raw.replace(/^\uFEFF/, '').trim() || `Column ${i + 1}`;
    const n = (seen.get(name.toLowerCase()) ?? 0) + 1;
    seen.set(name.toLowerCase(), n);
    if (n > 1) name = `${name} (${n})`;
    return name;
  });
}
