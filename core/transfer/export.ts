import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import type { Tx } from '../db/database.ts';
import { sqlLiterals } from '../db/sql-literals.ts';
import { documentFromRow, DOCUMENT_COLUMNS } from '../documents/document.ts';
import type { ExportSection } from '../hooks/hook-map.ts';
import { ARCHIVE_FORMAT, FORMAT_VERSION, MANIFEST_FILE, type Manifest, type ManifestFile } from './manifest.ts';
import { NO_PROGRESS, type Progress } from './progress.ts';
import { sectionFile } from './sections.ts';
import { tableColumns, type TransferDeps } from './transfer-deps.ts';

export interface ExportOptions {
  /** Adds every live document's PDF (`pdfs/<kind>/<number>.pdf`). */
  withPdfs?: boolean;
  /** Adds password hashes, application passwords, the service's secret and secret options. */
  includeSecrets?: boolean;
  progress?: Progress;
  /** A lock name: when another export holds it (a backup on another instance), nothing is written and the answer is null. */
  exclusive?: string;
}

export interface ExportResult {
  path: string;
  bytes: number;
  files: number;
  rows: number;
}

/** Rows read per query: keyset pages of the key's order, so each page costs the same however deep. */
const PAGE = 1000;
const PDF_FOLDER = { invoice: 'invoices', quote: 'quotes', credit_note: 'credit_notes' } as const;

/**
 * Writes the whole instance to one `.tar.gz` at `path` (docs/import-export.md): every section's rows
 * as stored, read in one snapshot (a repeatable-read transaction, so the files agree with each other)
 * in keyset pages, each section spooled to a file beside the archive (a tar entry states its size
 * first) and streamed into the archive; the manifest goes last, with every file's checksum. The archive
 * appears under its name only once complete.
 */
export async function exportArchive(d: TransferDeps, path: string, opts: ExportOptions = {}): Promise<ExportResult | null> {
  const progress = opts.progress ?? NO_PROGRESS;
  const spool = await mkdtemp(join(dirname(path), '.billing-export-'));
  const partial = join(dirname(path), `.${basename(path)}.partial`);
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(partial));
  const discard = async () => {
    pack.destroy();
    await written.catch(() => {});
    await rm(partial, { force: true });
  };
  try {
    const files: Record<string, ManifestFile> = {};
    let rows = 0;
    const meta = await d.db.transaction(async (tx) => {
      // a read-only snapshot meets no conflict, so is never tried twice (entries already packed would repeat)
      await tx.query('set transaction isolation level repeatable read, read only');
      if (opts.exclusive) {
        const [lock] = await tx.query<{ ok: boolean }>('select pg_try_advisory_xact_lock(hashtext($1)) as ok', [opts.exclusive]);
        if (!lock!.ok) return null;
      }
      const sections = await d.sections();
      for (const section of sections) {
        if (section.secret && !opts.includeSecrets) continue;
        const name = sectionFile(section);
        const spooled = join(spool, name.replaceAll('/', '__'));
        const file = await spoolSection(tx, d, section, spooled, opts, progress);
        await addFile(pack, name, spooled, file.size);
        await rm(spooled);
        files[name] = file;
        rows += file.rows ?? 0;
      }
      if (opts.withPdfs) await addPdfs(tx, d, pack, files, progress);
      const schema: Record<string, string[]> = {};
      for (const r of await tx.query<{ owner: string; name: string }>(
        'select owner, name from billing_migrations order by owner, applied_at, name',
      )) {
        (schema[r.owner] ??= []).push(r.name);
      }
      const plugins = await tx.query<{ name: string; version: string | null }>(
        'select name, version from billing_plugins where active order by name',
      );
      return { schema, plugins };
    });
    if (!meta) {
      await discard();
      return null;
    }
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      format_version: FORMAT_VERSION,
      service_version: d.serviceVersion,
      created: new Date().toISOString(),
      includes_secrets: opts.includeSecrets === true,
      schema: meta.schema,
      plugins: meta.plugins,
      files,
    };
    await addBuffer(pack, MANIFEST_FILE, Buffer.from(JSON.stringify(manifest, null, 1)));
    pack.finalize();
    await written;
    await rename(partial, path);
    return { path, bytes: (await stat(path)).size, files: Object.keys(files).length, rows };
  } catch (err) {
    await discard();
    throw err;
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

/** One section's rows into `file` (one JSON object per line), hashed and counted as they are written. */
async function spoolSection(
  tx: Tx,
  d: TransferDeps,
  section: ExportSection,
  file: string,
  opts: ExportOptions,
  progress: Progress,
): Promise<ManifestFile> {
  const all = await tableColumns(tx, section.table);
  const omitted = opts.includeSecrets ? [] : Object.keys(section.secretColumns ?? {});
  const columns = all.map((c) => c.name).filter((c) => !omitted.includes(c));
  const conditions = [section.where ?? 'true'];
  // options declared secret (gateway keys, signing secrets) travel only with the secrets
  if (section.table === 'billing_options' && !opts.includeSecrets) {
    const secret = d.secretOptions();
    if (secret.length) conditions.push(`key not in (${sqlLiterals(secret)})`);
  }
  const where = conditions.map((c) => `(${c})`).join(' and ');
  const keyTypes = section.key.map((k) => all.find((c) => c.name === k)?.type ?? 'text');
  const keys = section.key.map((k) => `t.${k}`).join(', ');
  const pageRows = section.pageRows ?? PAGE;
  const total = Number((await tx.query<{ n: string }>(`select count(*) as n from ${section.table} t where ${where}`))[0]!.n);
  progress.begin(sectionFile(section), total);

  const out = createWriteStream(file);
  const hash = createHash('sha256');
  let size = 0;
  let rows = 0;
  let last: string[] | null = null;
  try {
    for (;;) {
      const params: unknown[] = [omitted];
      const after: string = last ? `and (${keys}) > (${last.map((v, i) => `$${params.push(v)}::${keyTypes[i]}`).join(', ')})` : '';
      const page: Array<Record<string, string>> = await tx.query<Record<string, string>>(
        `select ${section.key.map((k, i) => `t.${k}::text as k${i}`).join(', ')}, (to_jsonb(t) - $1::text[])::text as row
           from ${section.table} t where ${where} ${after} order by ${keys} limit ${pageRows}`,
        params,
      );
      if (!page.length) break;
      const text = page.map((r) => r.row).join('\n') + '\n';
      const bytes = Buffer.from(text, 'utf8');
      hash.update(bytes);
      size += bytes.length;
      rows += page.length;
      if (!out.write(bytes)) await once(out, 'drain');
      progress.advance(page.length);
      const end: Record<string, string> = page[page.length - 1]!;
      last = section.key.map((_, i) => end[`k${i}`]!);
      if (page.length < pageRows) break;
    }
  } finally {
    out.end();
    await once(out, 'close');
    progress.end();
  }
  return { size, sha256: hash.digest('hex'), rows, columns };
}

function addFile(pack: tar.Pack, name: string, file: string, size: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const entry = pack.entry({ name, size, mode: 0o644 }, (err) => (err ? reject(err) : resolve()));
    pipeline(createReadStream(file), entry).catch(reject);
  });
}

function addBuffer(pack: tar.Pack, name: string, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name, size: bytes.length, mode: 0o644 }, bytes, (err) => (err ? reject(err) : resolve()));
  });
}

/** Every live document's PDF, rendered as the service renders it (one at a time: memory holds one PDF). */
async function addPdfs(tx: Tx, d: TransferDeps, pack: tar.Pack, files: Record<string, ManifestFile>, progress: Progress): Promise<void> {
  for (const kind of ['invoice', 'quote', 'credit_note'] as const) {
    const total = Number(
      (await tx.query<{ n: string }>('select count(*) as n from billing_documents where kind = $1 and trashed_at is null', [kind]))[0]!.n,
    );
    progress.begin(`pdfs/${PDF_FOLDER[kind]}`, total);
    for (let last = 0; ;) {
      const page = await tx.query(
        `select ${DOCUMENT_COLUMNS} from billing_documents where kind = $1 and trashed_at is null and id > $2 order by id limit 100`,
        [kind, last],
      );
      for (const row of page) {
        const doc = documentFromRow(row);
        const parentRow =
          doc.parentId === null ? [] : await tx.query(`select ${DOCUMENT_COLUMNS} from billing_documents where id = $1`, [doc.parentId]);
        const pdf = await d.renderPdf(doc, parentRow.length ? documentFromRow(parentRow[0]!) : undefined);
        const name = `pdfs/${PDF_FOLDER[kind]}/${doc.number.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf`;
        if (files[name]) continue; // two numbers that read alike once made safe: the first one's PDF
        await addBuffer(pack, name, pdf);
        files[name] = { size: pdf.length, sha256: createHash('sha256').update(pdf).digest('hex') };
        progress.advance(1);
      }
      if (page.length < 100) break;
      last = Number(page[page.length - 1]!.id);
    }
    progress.end();
  }
}
