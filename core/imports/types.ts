import type { Actor } from '../audit/audit.ts';

/** A field a resource takes from a CSV column (`item_quantity`), with the column names that mean it. */
export interface ImportField {
  name: string;
  /** Shown in the mapping selects. */
  label: string;
  /**
   * Other column names that mean this field (`Qty`, `Unit Price`), matched as the field's own name is:
   * case, spaces, `_`, `-` and `.` ignored.
   */
  synonyms?: readonly string[];
}

/** One data row of the file as a resource sees it: its 1-based data row number and its mapped fields. */
export interface ImportRow {
  row: number;
  /** field → the cell's text, trimmed; fields no column maps to are absent. */
  values: Readonly<Record<string, string>>;
}

/** A preset's rows to leave out (a ledger's own total and bank rows): a column's value among `values`. */
export interface SkipRule {
  column: string;
  values: readonly string[];
}

/** How a product exports one resource: column → field, and rows that are not records. */
export interface ImportPreset {
  columns: Readonly<Record<string, string>>;
  skip?: readonly SkipRule[];
}

/** What writing one record did; a failure carries the message the caller sees for its first row. */
export type ImportWriteResult = 'created' | 'updated' | 'skipped' | { failed: string };

/**
 * The reading helpers a resource parses cells with: amounts (with the import's decimal separator,
 * currency symbols and thousands separators dropped), dates (the import's date format, or detected),
 * yes/no values. Each throws an ImportRowError naming the field for text it cannot read.
 */
export interface ImportReaders {
  /** An amount as an exact decimal string (`1.234,50` → `1234.50` with separator `,`). */
  amount(text: string, field: string): string;
  /** A date as `Y-m-d`. */
  date(text: string, field: string): string;
  /** `true`/`false` from yes/no, 1/0, true/false, x (empty: `fallback`). */
  bool(text: string, field: string, fallback: boolean): boolean;
}

/** What a resource's code is given while an import commits: who imports, and the cell readers. */
export interface ImportEnv {
  actor: Actor;
  read: ImportReaders;
}

/**
 * A kind of record a CSV can bring in (clients, invoices, payments; a plugin's items), declared as data
 * and offered through the `billing_import_resources` filter. The core reads the file, maps columns to
 * `fields` and groups rows; the resource checks and writes records through its own services.
 *
 * Re-importing the same file must create nothing: `write` finds the record the row already made (by a
 * key the file carries — an invoice number, an e-mail) and answers `skipped` or `updated`.
 */
export interface ImportResource<P = unknown> {
  /** The `resource` query value, snake_case (`clients`). */
  name: string;
  label: string;
  fields: readonly ImportField[];
  /** Presets beyond `generic` (which is `fields` by their own names), by name: `freshbooks`, `zoho`, … */
  presets?: Readonly<Record<string, ImportPreset>>;
  /** Rows with the same value of this field, one after another, form one record (an invoice's lines). */
  groupBy?: string;
  /** The most rows one record may have (a group longer than this is a row error). */
  maxGroup?: number;
  /** Records written per `write` call (default 100): each call's transactions are the resource's. */
  batchSize?: number;
  /**
   * Checks one record's rows and makes what `write` takes; pure (no database). Throws an ImportRowError
   * (or any BillingError) for a record that cannot be imported: that becomes a `failed` row.
   */
  prepare(rows: readonly ImportRow[], env: ImportEnv): P;
  /** Writes prepared records, answering one result per record, in order. */
  write(records: readonly P[], env: ImportEnv): Promise<ImportWriteResult[]>;
}

/** A row that cannot be imported, with why; `column` is the field it is about, when one is. */
export class ImportRowError extends Error {
  readonly field: string | null;
  constructor(message: string, field: string | null = null) {
    super(message);
    this.field = field;
  }
}

/** An import as `GET /imports/{id}` shows it. */
export interface ImportState {
  id: number;
  resource: string;
  preset: string | null;
  /** `previewed`, then `queued` once committed, `running`, and `done` or `failed`. */
  status: 'previewed' | 'queued' | 'running' | 'done' | 'failed';
  /** Share of the file's rows handled, 0–1. */
  progress: number;
  rows: number;
  created: number;
  updated: number;
  skipped: number;
  failed: Array<{ row: number; message: string }>;
  /** Why the import as a whole stopped (`status: failed`), else null. */
  error: string | null;
}
