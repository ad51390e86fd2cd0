import type { Database, Tx } from '../db/database.ts';
import type { BillingDocument } from '../documents/types.ts';
import type { ExportSection } from '../hooks/hook-map.ts';

/** What export and restore are given: narrow, so each can be run by the CLI, a job or a test alike. */
export interface TransferDeps {
  db: Database;
  serviceVersion: string;
  /** Every section to export or restore now: the core's and the loaded plugins' (`billing_export_sections`). */
  sections(): Promise<readonly ExportSection[]>;
  /** The keys of the options declared secret. */
  secretOptions(): string[];
  /** A document's PDF as the service renders it (`parent`: a credit note's invoice). */
  renderPdf(doc: BillingDocument, parent?: BillingDocument): Promise<Buffer>;
}

export interface TableColumn {
  name: string;
  /** The type's internal name (`int8`, `text`, `uuid`), to cast keyset values with. */
  type: string;
}

/** A table's columns in order, as the catalog has them. */
export async function tableColumns(tx: Tx | Database, table: string): Promise<TableColumn[]> {
  return tx.query<TableColumn>(
    `select column_name as name, udt_name as type from information_schema.columns
      where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
    [table],
  );
}
