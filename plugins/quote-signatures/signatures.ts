import { createHash } from 'node:crypto';
import { siteDateTime, type BillingDocument, type PluginContext, type Translator, type Tx } from '../../core/plugin-api.ts';

/** A stored signature: who, when, from where, over which content, and the drawing. */
export interface StoredSignature {
  quote_id: number;
  signer_name: string;
  signed_at: Date;
  ip: string | null;
  user_agent: string | null;
  content_sha256: string;
  image: Buffer;
  image_sha256: string;
}

/**
 * The SHA-256 of what the customer agreed to: the quote's number, parties, dates, lines, discount, tax
 * and totals, as canonical JSON (keys sorted), so the same content always gives the same hash and any
 * change of it a different one.
 */
export function contentSha256(quote: BillingDocument): string {
  const content = {
    number: quote.number,
    currency: quote.currency,
    issue_date: quote.issueDate,
    expiry_date: quote.expiryDate,
    customer: quote.customer,
    items: quote.items,
    discount: quote.discount,
    tax: quote.tax,
    totals: quote.totals,
    title: quote.title,
    notes: quote.notes,
    terms: quote.terms,
  };
  return createHash('sha256').update(canonical(content)).digest('hex');
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

const COLUMNS = 's.quote_id, s.signer_name, s.signed_at, s.ip, s.user_agent, s.content_sha256, s.image, s.image_sha256';

function fromRow(r: Record<string, any>): StoredSignature {
  return { ...r, quote_id: Number(r.quote_id), signed_at: new Date(r.signed_at) } as StoredSignature;
}

export async function insertSignature(tx: Tx, s: Omit<StoredSignature, 'signed_at'>): Promise<StoredSignature> {
  const rows = await tx.query(
    `insert into quote_signatures (quote_id, signer_name, ip, user_agent, content_sha256, image, image_sha256)
     values ($1, $2, $3, $4, $5, $6, $7) returning signed_at`,
    [s.quote_id, s.signer_name, s.ip, s.user_agent, s.content_sha256, s.image, s.image_sha256],
  );
  return { ...s, signed_at: new Date(rows[0]!.signed_at) };
}

/** The signature shown on a document: a quote's own, or, for an invoice, that of the quote it was made from. */
export async function signatureFor(ctx: PluginContext, doc: { id: number; kind: string }): Promise<StoredSignature | null> {
  if (doc.kind !== 'quote' && doc.kind !== 'invoice') return null;
  const rows =
    doc.kind === 'quote'
      ? await ctx.db.query(`select ${COLUMNS} from quote_signatures s where s.quote_id = $1`, [doc.id])
      : await ctx.db.query(
          `select ${COLUMNS} from quote_signatures s join billing_documents q on q.id = s.quote_id
            where q.kind = 'quote' and q.invoice_id = $1`,
          [doc.id],
        );
  return rows.length ? fromRow(rows[0]!) : null;
}

/** "Signed by <name> on <date>", the date in the site's timezone. */
/** "Signed by … on …" in the language of `tr` (the document's); the moment in the site's time zone. */
export async function signedLine(ctx: PluginContext, s: StoredSignature, tr: Pick<Translator, 't'>): Promise<string> {
  return tr.t('quote_signatures.signed_by', { name: s.signer_name, when: siteDateTime(s.signed_at, await ctx.options.get('timezone')) });
}

export const dataUrl = (s: StoredSignature) => `data:image/png;base64,${s.image.toString('base64')}`;
