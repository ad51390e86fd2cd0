import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { BillingError } from '../errors.ts';
import { ARCHIVE_LIMITS, allowedEntryName, MANIFEST_FILE, parseManifest, type Manifest, type ManifestFile } from './manifest.ts';

const invalid = (message: string) => new BillingError('billing_archive_invalid', message);

/** What a reader of an entry's content is handed: its lines (NDJSON), whole and bounded. */
export interface EntryVisitor {
  /** Called for each NDJSON entry whose rows the caller wants (`null`: hash it only). */
  section(name: string): ((lines: string[]) => Promise<void>) | null;
}

/** Rows handed to a visitor at once: a batch is at most this many lines or this many bytes. */
const BATCH_ROWS = 1000;
const BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Reads an export archive once from start to end: each entry hashed, counted and checked against the
 * limits, NDJSON entries split into lines (handed to `visitor` in batches when it asks for them).
 * Answers the manifest and what was found; throws `billing_archive_invalid` for a corrupt, truncated
 * or oversized archive. The archive is read as a stream: memory holds one batch, whatever its size.
 */
export async function readArchive(
  path: string,
  visitor: EntryVisitor | null,
  /** A manifest read before: each entry is checked against it as soon as it ends (a restore's second reading). */
  expect?: Manifest,
): Promise<{ manifest: Manifest; found: Map<string, ManifestFile>; order: string[] }> {
  const extract = tar.extract();
  const found = new Map<string, ManifestFile>();
  const order: string[] = [];
  let manifest: Manifest | null = null;
  let total = 0;
  // what the visitor threw (a row the database refused) is its own error, not the archive's
  let visitorError: unknown = null;
  const hand = async (take: (lines: string[]) => Promise<void>, lines: string[]) => {
    try {
      await take(lines);
    } catch (err) {
      throw (visitorError = err);
    }
  };
  const feeding = pipeline(createReadStream(path), createGunzip(), extract).catch((err: Error) => {
    throw invalid(`the archive is corrupt or truncated (${err.message})`);
  });
  const reading = (async () => {
    for await (const entry of extract) {
      const { name, size, type } = entry.header;
      if (type !== 'file') throw invalid(`the archive holds "${name}", which is not a plain file`);
      const kind = allowedEntryName(name);
      if (!kind) throw invalid(`the archive holds "${name}", which no billing export has`);
      if (found.has(name) || (name === MANIFEST_FILE && manifest)) throw invalid(`the archive holds "${name}" twice`);
      if (manifest) throw invalid(`"${name}" comes after manifest.json, which is the archive's last entry`);
      if (found.size + 1 > ARCHIVE_LIMITS.entries) throw invalid(`the archive holds more than ${ARCHIVE_LIMITS.entries} files`);
      const limit = kind === 'manifest' ? ARCHIVE_LIMITS.manifestBytes : ARCHIVE_LIMITS.entryBytes;
      if ((size ?? 0) > limit) throw invalid(`"${name}" is larger than ${limit} bytes`);
      total += size ?? 0;
      if (total > ARCHIVE_LIMITS.totalBytes) throw invalid(`the archive holds more than ${ARCHIVE_LIMITS.totalBytes} bytes`);

      const hash = createHash('sha256');
      let bytes = 0;
      if (kind === 'manifest') {
        const chunks: Buffer[] = [];
        for await (const chunk of entry) {
          chunks.push(chunk);
          bytes += chunk.length;
        }
        manifest = parseManifest(Buffer.concat(chunks));
        continue;
      }
      const take = kind === 'section' ? (visitor?.section(name.slice(0, -'.ndjson'.length)) ?? null) : null;
      const lines = kind === 'section' ? new LineSplitter(name) : null;
      let batch: string[] = [];
      let batchBytes = 0;
      for await (const chunk of entry as AsyncIterable<Buffer>) {
        hash.update(chunk);
        bytes += chunk.length;
        if (!lines) continue;
        for (const line of lines.push(chunk)) {
          if (!take) continue;
          batch.push(line);
          batchBytes += line.length;
          if (batch.length >= BATCH_ROWS || batchBytes >= BATCH_BYTES) {
            await hand(take, batch);
            batch = [];
            batchBytes = 0;
          }
        }
      }
      if (bytes !== size) throw invalid(`"${name}" is truncated`);
      const file: ManifestFile = { size: bytes, sha256: hash.digest('hex') };
      if (lines) {
        lines.end();
        file.rows = lines.count;
      }
      if (expect) checkFile(expect, name, file);
      if (take && batch.length) await hand(take, batch);
      found.set(name, file);
      order.push(name);
    }
  })();
  // the reader's error is the telling one (the feeder then fails for want of a reader)
  const [read, fed] = await Promise.allSettled([reading, feeding]);
  if (read.status === 'rejected') {
    extract.destroy();
    const err = read.reason as unknown;
    if (err === visitorError || err instanceof BillingError) throw err;
    throw invalid(`the archive is corrupt or truncated (${(err as Error)?.message ?? err})`);
  }
  if (fed.status === 'rejected') throw fed.reason;
  if (!manifest) throw invalid('the archive has no manifest.json (it is truncated, or not a billing export)');
  return { manifest, found, order };
}

/**
 * Checks what was read against the manifest: the same files, each with the checksum, size and row
 * count the manifest gives. A flipped byte, a file added, removed or cut short: refused.
 */
export function checkAgainstManifest(manifest: Manifest, found: Map<string, ManifestFile>): void {
  for (const [name, file] of found) checkFile(manifest, name, file);
  for (const name of Object.keys(manifest.files)) if (!found.has(name)) throw invalid(`"${name}" is listed in the manifest but missing`);
}

function checkFile(manifest: Manifest, name: string, file: ManifestFile): void {
  const listed = Object.hasOwn(manifest.files, name) ? manifest.files[name] : undefined;
  if (!listed) throw invalid(`"${name}" is not listed in the manifest`);
  if (listed.sha256 !== file.sha256 || listed.size !== file.size) throw invalid(`"${name}" does not match its checksum in the manifest`);
  if (file.rows !== undefined && listed.rows !== file.rows)
    throw invalid(`"${name}" has ${file.rows} rows; the manifest says ${listed.rows}`);
}

/** Splits NDJSON bytes into lines, each at most `rowBytes` long; the last one must end with a newline too. */
class LineSplitter {
  count = 0;
  private rest: Buffer[] = [];
  private restBytes = 0;
  private readonly name: string;

  constructor(name: string) {
    this.name = name;
  }

  *push(chunk: Buffer): Generator<string> {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      this.grow(piece.length);
      const line = this.rest.length ? Buffer.concat([...this.rest, piece]) : piece;
      this.rest = [];
      this.restBytes = 0;
      start = nl + 1;
      this.count++;
      yield line.toString('utf8');
    }
    if (start < chunk.length) {
      const piece = chunk.subarray(start);
      this.grow(piece.length);
      this.rest.push(Buffer.from(piece));
      this.restBytes += piece.length;
    }
  }

  end(): void {
    if (this.restBytes) throw invalid(`"${this.name}" ends in the middle of a row`);
  }

  private grow(n: number): void {
    if (this.restBytes + n > ARCHIVE_LIMITS.rowBytes)
      throw invalid(`a row of "${this.name}" is longer than ${ARCHIVE_LIMITS.rowBytes} bytes`);
  }
}
