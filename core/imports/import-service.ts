import type { Actor } from '../audit/audit.ts';
import type { Database } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { OutboxWriter } from '../outbox/outbox.ts';
import { runBounded } from '../workers/bounded-worker.ts';
import { invalidParam } from '../validation/invalid-param.ts';
import { cellReaders, type DateFormat, type DecimalSeparator } from './cell-readers.ts';
import { CsvReadError, readRecords, type CsvShape } from './csv-reader.ts';
import { mappingProblems, mapRecord, proposeMapping, withChanges, type Mapping } from './mapping.ts';
import type { CsvPreview } from './preview-worker.ts';
import { ImportRowError, type ImportEnv, type ImportPreset, type ImportResource, type ImportRow, type ImportState } from './types.ts';

/** The largest CSV taken (the route's body limit). */
export const IMPORT_BODY_LIMIT = 50 * 1024 * 1024;
/** The first read of an upload: every byte once, in a worker. 50 MiB read in about a second. */
const PREVIEW_TIMEOUT_MS = 30_000;
const PREVIEW_MEMORY_MB = 256;
/** Uploads a user keeps at once; beyond, the oldest not running is dropped. */
const KEPT_PER_USER = 5;
/** Failed rows listed, at most (the rest are counted in one last entry). */
const MAX_FAILURES_LISTED = 1000;
/** Bytes read from the stored upload at a time. */
const READ_CHUNK = 1024 * 1024;
/** A running import not heard of for this long is taken over by the next try (its process died). */
const STALE_RUNNING_S = 120;
/** How long a commit's answer waits for the import to finish before answering 202 with its progress. */
const COMMIT_WAIT_MS = 3000;

export const IMPORT_TOPIC = 'billing_import_commit';

export interface ImportPreviewAnswer {
  id: number;
  resource: string;
  preset: string | null;
  columns: string[];
  mapping: Mapping;
  rows: number;
  sample: Array<Record<string, string>>;
  errors: Array<{ row: number; column: string | null; message: string }>;
}

export interface CommitOptions {
  mapping?: Record<string, string | null>;
  date_format?: DateFormat;
  decimal_separator?: DecimalSeparator;
}

interface ImportRowDb {
  id: string;
  resource: string;
  preset: string | null;
  shape: CsvShape;
  columns: string[];
  mapping: Mapping;
  rows: number;
  status: ImportState['status'];
  options: CommitOptions & { actor?: Actor };
  progress: number;
  result: { created: number; updated: number; skipped: number; failed: Array<{ row: number; message: string }> };
  error: string | null;
}

const COLUMNS = 'id, resource, preset, shape, columns, mapping, rows, status, options, progress, result, error';

/**
 * CSV imports (docs/import-export.md): an upload is read once in a bounded worker and kept in the
 * database with its proposed mapping (nothing else is written); a commit queues it on its own outbox
 * topic, where any instance reads it again as a stream and hands its records to the resource in
 * batches, keeping its progress and counts on the row.
 */
export class ImportService {
  private readonly db: Database;
  private readonly hooks: HookRegistry;
  private readonly outbox: OutboxWriter;
  private readonly core: () => ImportResource<any>[];

  constructor(deps: { db: Database; hooks: HookRegistry; outbox: OutboxWriter; resources: () => ImportResource<any>[] }) {
    this.db = deps.db;
    this.hooks = deps.hooks;
    this.outbox = deps.outbox;
    this.core = deps.resources;
  }

  /** Every resource a CSV can be imported as now: the core's and the loaded plugins'. */
  async resources(): Promise<ImportResource<any>[]> {
    const list = await this.hooks.applyFilters('billing_import_resources', this.core());
    return Array.isArray(list) ? list : this.core();
  }

  async resource(name: string): Promise<ImportResource<any>> {
    const r = (await this.resources()).find((x) => x.name === name);
    if (!r) throw invalidParam('resource', `resource must be one of: ${(await this.resources()).map((x) => x.name).join(', ')}.`);
    return r;
  }

  private preset(resource: ImportResource, name: string | null): ImportPreset | null {
    if (!name || name === 'generic') return null;
    const p = resource.presets?.[name];
    if (!p) {
      throw invalidParam(
        'preset',
        `preset must be one of: generic, ${Object.keys(resource.presets ?? {}).join(', ')} (for ${resource.name}).`,
      );
    }
    return p;
  }

  /** Reads an upload, keeps it, and answers its columns, proposed mapping and first rows. Nothing else is written. */
  async preview(body: Buffer, resourceName: string, presetName: string | null, actor: Actor): Promise<ImportPreviewAnswer> {
    const resource = await this.resource(resourceName);
    const preset = this.preset(resource, presetName);
    if (body.length === 0)
      throw new BillingError('billing_import_unreadable', 'Send the CSV file itself as the body (Content-Type text/csv).');
    const read = await runBounded<Uint8Array, CsvPreview>(new URL('./preview-worker.ts', import.meta.url), new Uint8Array(body), {
      timeoutMs: PREVIEW_TIMEOUT_MS,
      maxMemoryMb: PREVIEW_MEMORY_MB,
      refuse: (hit) =>
        new BillingError(
          'billing_import_unreadable',
          hit === 'time'
            ? 'The file is too complex to read: it took too long.'
            : 'The file is too complex to read: it needed too much memory.',
        ),
    });
    if (!read.columns.length) throw new BillingError('billing_import_unreadable', read.error?.message ?? 'The file has no header row.');
    const mapping = proposeMapping(read.columns, resource, preset);
    const id = await this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ id: string }>(
        `insert into billing_imports (resource, preset, body, size, shape, columns, mapping, rows, created_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
        [
          resource.name,
          presetName,
          body,
          body.length,
          JSON.stringify(read.shape),
          JSON.stringify(read.columns),
          JSON.stringify(mapping),
          read.rows,
          actor.id,
        ],
      );
      // each user keeps a few uploads; older ones not under way go (the cleanup job drops expired ones)
      await tx.query(
        `delete from billing_imports where id in (
           select id from billing_imports where created_by is not distinct from $1 and status not in ('queued', 'running')
           order by id desc offset $2)`,
        [actor.id, KEPT_PER_USER],
      );
      return Number(row!.id);
    });
    const errors: ImportPreviewAnswer['errors'] = read.error ? [{ row: read.error.row, column: null, message: read.error.message }] : [];
    const env: ImportEnv = { actor, read: cellReaders('.', 'auto') };
    const sample: Array<Record<string, string>> = [];
    // the first rows' records checked as the commit will check them (a record still going on past the
    // sample, the file's last rows unseen, is not: its rows are not all here)
    const groups: ImportRow[][] = [];
    read.sample.forEach((record, i) => {
      const values = mapRecord(record, read.columns, mapping, preset);
      if (!values) return;
      sample.push(values);
      const last = groups[groups.length - 1];
      const by = resource.groupBy;
      if (by && last && (last[0]!.values[by] ?? '') === (values[by] ?? '')) last.push({ row: i + 1, values });
      else groups.push([{ row: i + 1, values }]);
    });
    const complete = resource.groupBy && read.rows > read.sample.length ? groups.slice(0, -1) : groups;
    for (const rows of complete) {
      try {
        resource.prepare(rows, env);
      } catch (err) {
        if (!(err instanceof ImportRowError || err instanceof BillingError)) throw err;
        errors.push({ row: rows[0]!.row, column: err instanceof ImportRowError ? err.field : null, message: err.message });
      }
    }
    return { id, resource: resource.name, preset: presetName, columns: read.columns, mapping, rows: read.rows, sample, errors };
  }

  async state(id: number): Promise<ImportState> {
    const row = await this.load(id);
    return stateOf(row);
  }

  private async load(id: number): Promise<ImportRowDb> {
    const [row] = await this.db.query<ImportRowDb>(`select ${COLUMNS} from billing_imports where id = $1`, [id]);
    if (!row) throw new BillingError('billing_rest_not_found', 'No import has this id.');
    return row;
  }

  /**
   * Queues an upload for import with its final mapping (the proposed one, changed by `mapping`'s
   * columns) and reading options. `inline` runs it here and now (the CLI, which serves no queue); else
   * answers once it is done or after a few seconds, whichever comes first.
   */
  async commit(id: number, opts: CommitOptions, actor: Actor, inline = false): Promise<ImportState> {
    const row = await this.load(id);
    if (row.status !== 'previewed')
      throw new BillingError('billing_rest_invalid_state', `This import was committed already (${row.status}).`);
    const resource = await this.resource(row.resource);
    const changes = opts.mapping ?? {};
    const problems = mappingProblems(row.columns, resource, changes);
    if (Object.keys(problems).length) {
      throw new BillingError('rest_invalid_param', 'Invalid parameter(s): mapping', {
        params: { mapping: Object.values(problems).join(' ') },
        details: { mapping: problems },
      });
    }
    const mapping = withChanges(row.mapping, changes);
    const options = { date_format: opts.date_format ?? 'auto', decimal_separator: opts.decimal_separator ?? '.', actor };
    const queued = await this.db.transaction(async (tx) => {
      const done = await tx.query(
        `update billing_imports set status = 'queued', mapping = $2, options = $3, updated_at = now(), expires_at = now() + interval '7 days'
          where id = $1 and status = 'previewed' returning id`,
        [id, JSON.stringify(mapping), JSON.stringify(options)],
      );
      if (done.length && !inline) await this.outbox.enqueue(tx, IMPORT_TOPIC, { import: id }, { key: `import:${id}` });
      return done.length > 0;
    });
    if (!queued) throw new BillingError('billing_rest_invalid_state', 'This import was committed already.');
    if (inline) {
      await this.run(id);
      return this.state(id);
    }
    const until = Date.now() + COMMIT_WAIT_MS;
    for (;;) {
      const s = await this.state(id);
      if (s.status === 'done' || s.status === 'failed' || Date.now() > until) return s;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * Imports a queued upload: reads it back from the database a chunk at a time, maps and groups its
   * rows, and hands records to the resource in batches. Memory holds one chunk, one record's rows and
   * one batch, whatever the file's size. A try that finds the import taken by a live run leaves it.
   */
  async run(id: number): Promise<void> {
    const [claimed] = await this.db.query<ImportRowDb>(
      `update billing_imports set status = 'running', updated_at = now()
        where id = $1 and (status = 'queued' or (status = 'running' and updated_at < now() - make_interval(secs => $2)))
        returning ${COLUMNS}`,
      [id, STALE_RUNNING_S],
    );
    if (!claimed) return;
    const result = { created: 0, updated: 0, skipped: 0, failed: [] as Array<{ row: number; message: string }> };
    let failures = 0;
    const fail = (row: number, message: string) => {
      failures++;
      if (result.failed.length < MAX_FAILURES_LISTED) result.failed.push({ row, message });
    };
    let rowNo = 0;
    const save = async (status: ImportState['status'], error: string | null = null) => {
      const shown =
        failures > result.failed.length
          ? [...result.failed, { row: 0, message: `${failures - result.failed.length} more rows failed.` }]
          : result.failed;
      await this.db.query(
        `update billing_imports set status = $2, progress = $3, result = $4, error = $5, updated_at = now() where id = $1`,
        [id, status, claimed.rows ? Math.min(1, rowNo / claimed.rows) : 1, JSON.stringify({ ...result, failed: shown }), error],
      );
    };
    try {
      const resource = await this.resource(claimed.resource);
      const preset = this.preset(resource, claimed.preset);
      const o = claimed.options;
      const env: ImportEnv = {
        actor: o.actor ?? { id: null, name: 'import' },
        read: cellReaders(o.decimal_separator ?? '.', o.date_format ?? 'auto'),
      };
      const batchSize = resource.batchSize ?? 100;
      let batch: Array<{ row: number; record: unknown }> = [];
      const writeBatch = async () => {
        if (!batch.length) return;
        const outcomes = await resource.write(
          batch.map((b) => b.record),
          env,
        );
        outcomes.forEach((o, i) => {
          if (o === 'created' || o === 'updated' || o === 'skipped') result[o]++;
          else fail(batch[i]!.row, o.failed);
        });
        batch = [];
        await save('running');
      };
      const prepare = async (rows: ImportRow[]) => {
        try {
          batch.push({ row: rows[0]!.row, record: resource.prepare(rows, env) });
        } catch (err) {
          if (err instanceof ImportRowError || err instanceof BillingError) fail(rows[0]!.row, err.message);
          else throw err;
        }
        if (batch.length >= batchSize) await writeBatch();
      };
      let group: ImportRow[] = [];
      let groupKey: string | null = null;
      // keys of the records already handed on: rows of one record must stand together
      const done = new Set<string>();
      let seen = 0;
      for await (const record of readRecords(this.chunks(id), claimed.shape)) {
        if (seen++ <= claimed.shape.headerIndex) continue;
        rowNo++;
        const values = mapRecord(record, claimed.columns, claimed.mapping, preset);
        if (!values) continue;
        if (!resource.groupBy) {
          await prepare([{ row: rowNo, values }]);
          continue;
        }
        const key = values[resource.groupBy] ?? '';
        if (group.length && key !== groupKey) {
          done.add(groupKey!);
          await prepare(group);
          group = [];
        }
        if (key && done.has(key)) {
          fail(rowNo, `Rows of ${key} must stand together; this one comes after others.`);
          continue;
        }
        groupKey = key;
        group.push({ row: rowNo, values });
        if (resource.maxGroup && group.length > resource.maxGroup) {
          fail(rowNo, `${key} has more than ${resource.maxGroup} rows.`);
          group.pop();
        }
      }
      if (group.length) await prepare(group);
      await writeBatch();
      await save('done');
    } catch (err) {
      const message =
        err instanceof CsvReadError ? `Row ${err.row}: ${err.message}` : err instanceof BillingError ? err.message : 'The import stopped.';
      await save('failed', message);
      if (!(err instanceof CsvReadError) && !(err instanceof BillingError)) throw err;
    }
  }

  /** The stored upload, a chunk at a time. */
  private async *chunks(id: number): AsyncGenerator<Uint8Array> {
    for (let offset = 1; ; offset += READ_CHUNK) {
      const [row] = await this.db.query<{ chunk: Uint8Array | null }>(
        'select substring(body from $2 for $3) as chunk from billing_imports where id = $1',
        [id, offset, READ_CHUNK],
      );
      const chunk = row?.chunk;
      if (!chunk || chunk.length === 0) return;
      yield chunk;
      if (chunk.length < READ_CHUNK) return;
    }
  }

  /** Drops expired imports (their uploads with them); answers how many. */
  async cleanup(): Promise<number> {
    const rows = await this.db.query(`delete from billing_imports where expires_at < now() and status <> 'running' returning id`);
    return rows.length;
  }
}

function stateOf(row: ImportRowDb): ImportState {
  return {
    id: Number(row.id),
    resource: row.resource,
    preset: row.preset,
    status: row.status,
    progress: row.status === 'done' ? 1 : Number(row.progress),
    rows: row.rows,
    created: row.result.created,
    updated: row.result.updated,
    skipped: row.result.skipped,
    failed: row.result.failed,
    error: row.error,
  };
}
