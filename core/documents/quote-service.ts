import { createHash, randomBytes } from 'node:crypto';
import { audit, type Actor } from '../audit/audit.ts';
import type { Tx } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import type { DocumentInput } from './document-schema.ts';
import { documentInput } from './document-input.ts';
import { DOCUMENT_COLUMNS, documentFromRow, type BillingDocument } from './document.ts';
import { DocumentService, notFound, type CreateContext, type ServiceDeps } from './document-service.ts';
import type { InvoiceService } from './invoice-service.ts';
import { listDocuments, type ListQuery, type ListResult } from './list-query.ts';
import { quoteStatus } from './representation.ts';
import { siteDate, siteDateTime } from '../time/site-time.ts';

/** How long an Accept / Decline token of the public page stays good (docs/ajax.md). */
export const QUOTE_TOKEN_DAYS = 7;
/**
 * Refused acceptances (a signature that fails its check) a page's token takes; the last one spends it,
 * and the visitor opens the page again. Each refusal costs an image decode: an anonymous caller holding
 * one token cannot make the service decode without end.
 */
export const QUOTE_TOKEN_REFUSALS = 5;

export interface QuoteAnswer {
  token: string;
  reason?: string;
  signature?: string;
  ip?: string;
  userAgent?: string;
  /** Every posted text field, for `billing_quote_acceptance` listeners (an addon's own fields). */
  fields?: Record<string, string>;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

const invalidToken = () => new BillingError('billing_invalid_token', 'This link is no longer valid.');

/** An acceptance a `billing_quote_acceptance` listener refused: counted against the token once rolled back. */
class RefusedAcceptance extends BillingError {}

/**
 * Quotes: their own sequence (`QUO-`), statuses draft → available → accepted / declined (expired is
 * derived from `expiry_date`), and the visitor's answer through a single-use token minted by each
 * rendering of the public page. Accepting converts the quote per option `quote_accept_action`.
 */
export class QuoteService extends DocumentService {
  private readonly invoices: InvoiceService;

  constructor(deps: ServiceDeps, invoices: InvoiceService) {
    super(deps, 'quote');
    this.invoices = invoices;
  }

  async create(input: DocumentInput, ctx: CreateContext): Promise<BillingDocument> {
    const status = input.status ?? 'draft';
    return this.db.transaction(async (tx) => {
      const doc = await this.insert(tx, input, status, ctx.actor);
      await this.hooks.fire(tx, 'billing_quote_created', doc.id, doc);
      return doc;
    });
  }

  list(query: ListQuery): Promise<ListResult> {
    return listDocuments(this.db, this.options, 'quote', query, this.hooks);
  }

  /** Saves the builder's state while the quote is open (draft or available, expired or not). */
  async update(id: number, input: DocumentInput, actor: Actor): Promise<BillingDocument> {
    return this.db.transaction(async (tx) => {
      const doc = await this.find(id, tx, true);
      if (!doc || doc.trashed) throw notFound();
      if (doc.status !== 'draft' && doc.status !== 'available') {
        throw new BillingError('billing_rest_invalid_state', `A ${doc.status} quote can no longer be changed.`);
      }
      let updated = await this.rewrite(tx, doc, input, actor);
      if (input.status && input.status !== updated.status) {
        await tx.query('update billing_documents set status = $2 where id = $1', [id, input.status]);
        updated = { ...updated, status: input.status };
      }
      return updated;
    });
  }

  trash(id: number, actor: Actor): Promise<BillingDocument> {
    return this.moveToTrash(id, actor);
  }

  async restore(id: number, actor: Actor): Promise<BillingDocument> {
    return (await this.restoreFromTrash(id, actor)).doc;
  }

  /** Issues a draft in `tx` (sending it does, once the mail server took it); other statuses stay as they are. */
  async issue(tx: Tx, doc: BillingDocument, actor: Actor): Promise<BillingDocument> {
    if (doc.status !== 'draft') return doc;
    await tx.query(`update billing_documents set status = 'available', updated_at = now() where id = $1`, [doc.id]);
    await audit(tx, actor, { action: 'quote.status', objectType: 'quote', objectId: doc.id, details: { from: 'draft', to: 'available' } });
    return { ...doc, status: 'available' };
  }

  /** A fresh one-time token for the public page's forms. Older unused tokens stay good. */
  async mintToken(quoteId: number): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await this.db.query(
      `insert into billing_quote_tokens (token_hash, quote_id, expires_at) values ($1, $2, now() + make_interval(days => $3))`,
      [hash(token), quoteId, QUOTE_TOKEN_DAYS],
    );
    return token;
  }

  /** Deletes the tokens that can no longer be spent (the cleanup job): each view of a quote page makes one. */
  async pruneTokens(): Promise<number> {
    return (await this.db.query('delete from billing_quote_tokens where expires_at <= now() returning 1')).length;
  }

  /** The visitor accepts: the token is spent, the quote converted per `quote_accept_action`. */
  accept(quoteId: number, answer: QuoteAnswer): Promise<{ quote: BillingDocument; invoice: BillingDocument | null }> {
    return this.answer(quoteId, answer, 'accepted');
  }

  async decline(quoteId: number, answer: QuoteAnswer): Promise<{ quote: BillingDocument }> {
    const { quote } = await this.answer(quoteId, answer, 'declined');
    return { quote };
  }

  private async answer(quoteId: number, answer: QuoteAnswer, outcome: 'accepted' | 'declined') {
    try {
      return await this.answerIn(quoteId, answer, outcome);
    } catch (err) {
      // the answer rolled back, so the token is unused: count the refusal, and spend the token at the last
      // (a refusal for the service's state, a 5xx such as every checker busy, is not the answer's fault)
      if (err instanceof RefusedAcceptance && err.status < 500) await this.countRefusal(quoteId, answer.token);
      throw err;
    }
  }

  private answerIn(quoteId: number, answer: QuoteAnswer, outcome: 'accepted' | 'declined') {
    return this.db.transaction(async (tx) => {
      const quote = await this.find(quoteId, tx, true);
      if (!quote || quote.trashed) throw invalidToken();
      // the token first: without a good one, nothing about the quote is told
      await this.spend(tx, quoteId, answer.token);
      const { timezone, quote_accept_action: onAccept } = await this.options.getMany(['timezone', 'quote_accept_action'], tx);
      const status = quoteStatus(quote, siteDate(new Date(), timezone));
      if (status !== 'available') {
        throw new BillingError('billing_rest_invalid_state', `This quote is ${status} and cannot be ${outcome} now.`);
      }
      let record: Record<string, unknown> = {
        at: siteDateTime(new Date(), timezone),
        by: quote.customer.name || quote.customer.email || 'customer',
        ...(answer.reason ? { reason: answer.reason } : {}),
        ...(answer.signature ? { signature: answer.signature } : {}),
      };
      if (outcome === 'accepted') {
        // before the invoice is made: a refusal here leaves no invoice, no number and an unused token
        const acceptance = await this.hooks.applyFilters('billing_quote_acceptance', { record, refusals: [] }, quote, {
          tx,
          fields: answer.fields ?? {},
          ip: answer.ip ?? null,
          userAgent: answer.userAgent ?? null,
        });
        const refusal = acceptance.refusals[0];
        if (refusal) throw new RefusedAcceptance(refusal.code, refusal.message, refusal.data ?? {});
        record = acceptance.record;
      }
      let invoice: BillingDocument | null = null;
      if (outcome === 'accepted' && onAccept !== 'none') {
        // the visitor acts, but the invoice is the quote creator's: under an own scope they see what their quote made
        const [made] = await tx.query<{ created_by: number | null }>('select created_by from billing_documents where id = $1', [quoteId]);
        invoice = await this.invoices.createIn(tx, documentInput(quote, { status: onAccept === 'convert_draft' ? 'draft' : 'available' }), {
          actor: { id: null, name: 'visitor', ip: answer.ip ?? null },
          source: 'quote',
          owner: made!.created_by,
        });
      }
      const rows = await tx.query(
        `update billing_documents set status = $2, ${outcome} = $3, invoice_id = $4, updated_at = now() where id = $1
         returning ${DOCUMENT_COLUMNS}`,
        [quoteId, outcome, JSON.stringify(record), invoice?.id ?? null],
      );
      const updated = documentFromRow(rows[0]!);
      await audit(
        tx,
        { id: null, name: 'visitor', ip: answer.ip ?? null },
        {
          action: `quote.${outcome === 'accepted' ? 'accept' : 'decline'}`,
          objectType: 'quote',
          objectId: quoteId,
          details: { invoice_id: invoice?.id ?? null },
        },
      );
      if (outcome === 'accepted') await this.hooks.fire(tx, 'billing_quote_accepted', quoteId, updated, invoice);
      else await this.hooks.fire(tx, 'billing_quote_declined', quoteId, updated);
      return { quote: updated, invoice };
    });
  }

  private async countRefusal(quoteId: number, token: string): Promise<void> {
    await this.db.query(
      `update billing_quote_tokens
          set refusals = refusals + 1, used_at = case when refusals + 1 >= $3 then now() else used_at end
        where token_hash = $1 and quote_id = $2 and used_at is null`,
      [hash(token), quoteId, QUOTE_TOKEN_REFUSALS],
    );
  }

  /**
   * Marks the token used; a reused, foreign or expired token is refused the same way. If the answer
   * then fails (a closed quote), the transaction rolls back and the token stays unused.
   */
  private async spend(tx: Tx, quoteId: number, token: string): Promise<void> {
    if (typeof token !== 'string' || token.length < 16 || token.length > 100) throw invalidToken();
    const rows = await tx.query(
      `update billing_quote_tokens set used_at = now()
        where token_hash = $1 and quote_id = $2 and used_at is null and expires_at > now() returning 1`,
      [hash(token), quoteId],
    );
    if (!rows.length) throw invalidToken();
  }
}
