import { audit, type Actor } from '../audit/audit.ts';
import type { Tx } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import { invalidParam } from '../validation/invalid-param.ts';
import type { DocumentInput } from './document-schema.ts';
import { documentInput } from './document-input.ts';
import { DOCUMENT_COLUMNS, documentFromRow, type BillingDocument } from './document.ts';
import { DocumentService, notFound, type CreateContext, type ServiceDeps } from './document-service.ts';
import { listDocuments, type ListQuery, type ListResult } from './list-query.ts';
import { Decimal, Money, type CurrencyCode } from '../money/index.ts';
import { invoiceStatusAfter } from '../payments/invoice-status.ts';
import { sqlLiterals } from '../db/sql-literals.ts';
import { RECEIVED_PAYMENT_STATUSES } from '../payments/statuses.ts';
import { vatCategory, type TaxBreakdownEntry } from '../tax/index.ts';
import { withCharge } from './instalments.ts';

/** Payments whose money was received, as SQL literals. */
const RECEIVED = sqlLiterals(RECEIVED_PAYMENT_STATUSES);

/**
 * Invoices, in process: the one path REST, AJAX, the CLI, the recurring addon and quote conversion all
 * take, so every creation is numbered the same way and fires `billing_invoice_created`.
 */
export class InvoiceService extends DocumentService {
  constructor(deps: ServiceDeps) {
    super(deps, 'invoice');
  }

  async create(input: DocumentInput, ctx: CreateContext): Promise<BillingDocument> {
    return this.db.transaction((tx) => this.createIn(tx, input, ctx));
  }

  /** Creates inside a caller's transaction (quote conversion); the action fires after that commits. */
  async createIn(tx: Tx, input: DocumentInput, ctx: CreateContext): Promise<BillingDocument> {
    const status = input.status ?? 'draft';
    if (status !== 'draft' && status !== 'available') {
      throw invalidParam('status', 'status must be draft or available: payment statuses are set by recording payments.');
    }
    const doc = await this.insert(tx, input, status, ctx.actor, {
      ...(ctx.recurringId ? { recurring_id: ctx.recurringId } : {}),
      ...(ctx.owner !== undefined ? { created_by: ctx.owner } : {}),
    });
    if (status === 'available') await this.checkIssuable(doc, 'create', tx);
    await this.hooks.fire(tx, 'billing_invoice_created', doc.id, doc, { source: ctx.source });
    return doc;
  }

  list(query: ListQuery): Promise<ListResult> {
    return listDocuments(this.db, this.options, 'invoice', query, this.hooks);
  }

  /**
   * Saves the builder's state. A draft takes every field; an issued invoice is locked except its notes
   * (corrections are credit notes). Saving with status `available` issues a draft.
   */
  async update(id: number, input: DocumentInput, actor: Actor): Promise<BillingDocument> {
    return this.db.transaction(async (tx) => {
      const doc = await this.find(id, tx, true);
      if (!doc || doc.trashed) throw notFound();
      let updated: BillingDocument;
      if (doc.status === 'draft') {
        updated = await this.rewrite(tx, doc, input, actor);
        if (input.status === 'available') {
          await this.checkIssuable(updated, 'update', tx);
          updated = await this.setStatus(tx, updated, 'available', actor);
        }
      } else {
        if (await this.changesMoreThanNotes(tx, doc, input)) {
          throw new BillingError(
            'billing_rest_invalid_state',
            'An issued invoice can only change its notes; correct it with a credit note.',
          );
        }
        const rows = await tx.query(
          `update billing_documents set notes = $2, updated_at = now() where id = $1 returning ${DOCUMENT_COLUMNS}`,
          [id, input.notes ?? doc.notes],
        );
        await audit(tx, actor, { action: 'invoice.update', objectType: 'invoice', objectId: id, details: { notes: true } });
        updated = documentFromRow(rows[0]!);
      }
      const final = updated;
      await this.hooks.fire(tx, 'billing_invoice_updated', id, final);
      return final;
    });
  }

  async trash(id: number, actor: Actor): Promise<BillingDocument> {
    return this.moveToTrash(id, actor, (tx, doc) => this.hooks.fire(tx, 'billing_invoice_trashed', id, doc));
  }

  async restore(id: number, actor: Actor): Promise<BillingDocument> {
    const { doc } = await this.restoreFromTrash(id, actor, (tx, restored) => this.hooks.fire(tx, 'billing_invoice_restored', id, restored));
    return doc;
  }

  /** A new draft with the same customer, items and terms, numbered anew. */
  async duplicate(id: number, ctx: CreateContext): Promise<BillingDocument> {
    return this.create(documentInput(await this.get(id)), ctx);
  }

  /**
   * Refuses to issue `doc` when a listener of `billing_invoice_issue_refusals` says so, with the first
   * refusal's error (inside `tx`, so the creation or save rolls back).
   */
  async checkIssuable(doc: BillingDocument, via: 'create' | 'update' | 'send', tx: Tx | null = null): Promise<void> {
    const refusals = await this.hooks.applyFilters('billing_invoice_issue_refusals', [], doc, { via, tx });
    const first = Array.isArray(refusals) ? refusals[0] : undefined;
    if (first) throw new BillingError(first.code, first.message, first.data ?? {});
  }

  /**
   * Adds a non-taxable charge line (a late fee) to an issued invoice in `tx`: subtotal, total and due
   * grow by exactly `amount`, tax and the discount stay as they were (the charge comes after both), the
   * breakdown's untaxed group grows, and the status follows the money. The invoice is locked first, so
   * the caller's once-only guard and this change commit together. Audited; fires
   * `billing_invoice_updated` (and `billing_invoice_status_changed` if the status moves) after commit.
   */
  async addCharge(tx: Tx, id: number, charge: { name: string; amount: string }, actor: Actor): Promise<BillingDocument> {
    const doc = await this.find(id, tx, true);
    if (!doc || doc.trashed) throw notFound();
    if (doc.status === 'draft' || doc.status === 'cancelled') {
      throw new BillingError('billing_rest_invalid_state', `A ${doc.status} invoice takes no charge.`);
    }
    const currency = doc.currency as CurrencyCode;
    const m = (v: string) => Money.parse(v, currency);
    const amount = m(charge.amount);
    if (!amount.isPositive()) throw invalidParam('amount', 'A charge must be above zero.');
    const subtotal = m(doc.totals.subtotal).plus(amount);
    const total = m(doc.totals.total).plus(amount);
    const paid = m(doc.totals.paid);
    const credited = m(doc.totals.credited);
    const due = Money.max(Money.zero(currency), total.minus(paid).minus(credited));
    const item = { name: charge.name, description: '', quantity: '1', price: amount.toString(), amount: amount.toString(), taxable: false };
    const category = vatCategory(doc.tax.category, false, Decimal.ZERO);
    const breakdown: TaxBreakdownEntry[] = doc.taxBreakdown.map((e) => ({ ...e }));
    const untaxed = breakdown.find((e) => e.category === category && Number(e.rate) === 0);
    if (untaxed) {
      untaxed.amount = m(untaxed.amount).plus(amount).toString();
      untaxed.basis = m(untaxed.basis).plus(amount).toString();
    } else {
      const statement =
        category === 'E' && doc.tax.category === 'standard' ? await this.options.get('tax_exempt_items_statement', tx) : doc.tax.statement;
      breakdown.push({ category, rate: '0', amount: amount.toString(), discount: '0', basis: amount.toString(), tax: '0', statement });
    }
    const received =
      !paid.isZero() ||
      (await tx.query(`select 1 from billing_payments where invoice_id = $1 and status in (${RECEIVED}) limit 1`, [id])).length > 0;
    const status = invoiceStatusAfter(doc.status, { paid, credited, due, received });
    const schedule = doc.schedule ? withCharge(doc.schedule, paid.plus(credited), amount) : null;
    const rows = await tx.query(
      `update billing_documents set items = items || $2::jsonb, subtotal = $3, total = $4, due = $5, tax_breakdown = $6,
         status = $7, schedule = $8, updated_at = now() where id = $1 returning ${DOCUMENT_COLUMNS}`,
      [
        id,
        JSON.stringify([item]),
        subtotal.toString(),
        total.toString(),
        due.toString(),
        JSON.stringify(breakdown),
        status,
        schedule && JSON.stringify(schedule),
      ],
    );
    await audit(tx, actor, {
      action: 'invoice.charge',
      objectType: 'invoice',
      objectId: id,
      details: { name: charge.name, amount: amount.toString(), total: total.toString(), due: due.toString() },
    });
    const updated = documentFromRow(rows[0]!);
    if (status !== doc.status) await this.hooks.fire(tx, 'billing_invoice_status_changed', id, updated, doc.status, status);
    await this.hooks.fire(tx, 'billing_invoice_updated', id, updated);
    return updated;
  }

  /** Changes the stored status in `tx`, firing `billing_invoice_status_changed` after commit. */
  async setStatus(tx: Tx, doc: BillingDocument, status: string, actor: Actor): Promise<BillingDocument> {
    if (doc.status === status) return doc;
    await tx.query('update billing_documents set status = $2, updated_at = now() where id = $1', [doc.id, status]);
    await audit(tx, actor, {
      action: 'invoice.status',
      objectType: 'invoice',
      objectId: doc.id,
      details: { from: doc.status, to: status },
    });
    const updated = { ...doc, status };
    await this.hooks.fire(tx, 'billing_invoice_status_changed', doc.id, updated, doc.status, status);
    return updated;
  }
}
