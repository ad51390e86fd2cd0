import { createHash } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import { BillingError } from '../../errors.ts';
import { safeFilename, sniffFileType } from './file-type.ts';

/** The largest file one attachment may be. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** The most all of one document's attachments may hold together (a mail stays deliverable). */
export const DOCUMENT_ATTACHMENTS_MAX_BYTES = 25 * 1024 * 1024;

/** An attachment as the API answers it (without its bytes). */
export interface Attachment {
  id: number;
  document_id: number;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  created: string;
}

/** An attachment with its bytes: a download, a mail's part, an e-invoice's embedded document. */
export interface AttachmentFile extends Attachment {
  body: Buffer;
}

/** The columns of an attachment's representation, of table alias `a`. */
const COLUMNS = `a.id, a.document_id, a.filename, a.content_type, a.size, a.sha256,
  to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as created`;

/**
 * Files attached to invoices and quotes (docs/documents.md, Attachments), kept in the database with
 * their document (docs/decisions.md): every instance serves them and the export carries them.
 */
export class AttachmentService {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /**
   * Attaches `bytes` to document `documentId` of `kind`: recognised by content (415
   * `billing_attachment_type` otherwise), at most 10 MiB, and 25 MiB for all of the document's files.
   */
  async add(
    kind: 'invoice' | 'quote',
    documentId: number,
    bytes: Buffer,
    givenName: string,
    createdBy: number | null,
  ): Promise<Attachment> {
    if (bytes.length > ATTACHMENT_MAX_BYTES) throw new BillingError('rest_payload_too_large', 'An attachment may be at most 10 MiB.');
    const type = sniffFileType(bytes, givenName);
    if (!type)
      throw new BillingError(
        'billing_attachment_type',
        'Only PDF, PNG, JPEG, CSV, plain text and XLSX files can be attached (recognised by their content).',
      );
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return this.db.transaction(async (tx) => {
      // the document's row is locked, so two uploads at once cannot both pass the per-document total
      const docs = await tx.query<{ id: string }>(
        `select id from billing_documents where id = $1 and kind = $2 and trashed_at is null for update`,
        [documentId, kind],
      );
      if (!docs.length) throw new BillingError('billing_rest_not_found', 'No document has this id.');
      const [used] = await tx.query<{ total: string }>(
        'select coalesce(sum(size), 0)::text as total from billing_attachments where document_id = $1',
        [documentId],
      );
      if (Number(used!.total) + bytes.length > DOCUMENT_ATTACHMENTS_MAX_BYTES)
        throw new BillingError('rest_payload_too_large', "A document's attachments may hold at most 25 MiB together.");
      const rows = await tx.query<Attachment>(
        `insert into billing_attachments as a (document_id, filename, content_type, size, sha256, body, created_by)
         values ($1, $2, $3, $4, $5, $6, $7) returning ${COLUMNS}`,
        [documentId, safeFilename(givenName, type), type.contentType, bytes.length, sha256, bytes, createdBy],
      );
      return attachment(rows[0]!);
    });
  }

  /** The id of a document of `kind` that is not in the trash; 404 otherwise. */
  async documentOf(kind: 'invoice' | 'quote', id: number): Promise<number> {
    const rows = await this.db.query('select id from billing_documents where id = $1 and kind = $2 and trashed_at is null', [id, kind]);
    if (!rows.length) throw new BillingError('billing_rest_not_found', 'No document has this id.');
    return id;
  }

  /** A document's attachments, oldest first, without their bytes. */
  async list(documentId: number): Promise<Attachment[]> {
    const rows = await this.db.query<Attachment>(`select ${COLUMNS} from billing_attachments a where a.document_id = $1 order by a.id`, [
      documentId,
    ]);
    return rows.map(attachment);
  }

  /** A document's attachments with their bytes (its mail, its e-invoice). */
  async files(documentId: number): Promise<AttachmentFile[]> {
    const rows = await this.db.query<AttachmentFile>(
      `select ${COLUMNS}, body from billing_attachments a where a.document_id = $1 order by a.id`,
      [documentId],
    );
    return rows.map((r) => ({ ...attachment(r), body: r.body }));
  }

  /** One attachment with its bytes, when its document is not in the trash; 404 otherwise. */
  async file(id: number): Promise<AttachmentFile> {
    const rows = await this.db.query<AttachmentFile>(
      `select ${COLUMNS}, a.body from billing_attachments a
         join billing_documents d on d.id = a.document_id and d.trashed_at is null
        where a.id = $1`,
      [id],
    );
    if (!rows.length) throw new BillingError('billing_rest_not_found', 'No attachment has this id.');
    return { ...attachment(rows[0]!), body: rows[0]!.body };
  }

  /**
   * Removes an attachment of a draft. An issued document's attachments were part of what the customer
   * received: they stay (409 `billing_rest_invalid_state`); cancel and re-issue instead.
   */
  async remove(id: number): Promise<Attachment> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<Attachment & { status: string }>(
        `select ${COLUMNS}, d.status from billing_attachments a
           join billing_documents d on d.id = a.document_id and d.trashed_at is null
          where a.id = $1 for update of d`,
        [id],
      );
      const row = rows[0];
      if (!row) throw new BillingError('billing_rest_not_found', 'No attachment has this id.');
      if (row.status !== 'draft')
        throw new BillingError(
          'billing_rest_invalid_state',
          'Attachments of an issued document cannot be deleted: they are part of what the customer received.',
        );
      await tx.query('delete from billing_attachments where id = $1', [id]);
      return attachment(row);
    });
  }
}

function attachment(r: Attachment): Attachment {
  return {
    id: Number(r.id),
    document_id: Number(r.document_id),
    filename: r.filename,
    content_type: r.content_type,
    size: Number(r.size),
    sha256: r.sha256,
    created: r.created,
  };
}
