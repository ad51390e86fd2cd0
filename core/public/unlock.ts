import type { Database } from '../db/database.ts';
import { documentFromRow, DOCUMENT_COLUMNS, type BillingDocument } from '../documents/document.ts';
import { safeEqual } from '../identity/safe-equal.ts';
import type { Kind } from './public-templates.ts';

/** The document when `key` is its access key (compared in constant time); null in every other case. */
export async function unlock(db: Database, kind: Kind, id: string, key: unknown): Promise<BillingDocument | null> {
  if (!/^\d{1,15}$/.test(id) || typeof key !== 'string' || key.length < 16 || key.length > 200) return null;
  const rows = await db.query(
    `select ${DOCUMENT_COLUMNS}, access_key from billing_documents where id = $1 and kind = $2 and trashed_at is null`,
    [Number(id), kind],
  );
  if (!rows.length || !safeEqual(rows[0]!.access_key, key)) return null;
  return documentFromRow(rows[0]!);
}
