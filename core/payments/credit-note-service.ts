import { audit, type Actor } from '../audit/audit.ts';
import type { Database } from '../db/database.ts';
import { DOCUMENT_COLUMNS, documentFromRow, type BillingDocument } from '../documents/document.ts';
import { documentPdf } from '../documents/document-pdf.ts';
import { newAccessKey } from '../documents/document-service.ts';
import type { InvoiceService } from '../documents/invoice-service.ts';
import { takeNumber } from '../documents/numbering.ts';
import { servicePeriod } from '../documents/service-period.ts';
import { siteDate } from '../time/site-time.ts';
import { BillingError } from '../errors.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import { InvalidAmountError, Money, type CurrencyCode } from '../money/index.ts';
import type { OptionsStore } from '../options/options.ts';
import type { Translations } from '../i18n/translations.ts';
import type { PdfRenderer, RenderedPdf } from '../pdf/pdf-renderer.ts';
import { creditParts } from '../tax/index.ts';
import { invalidParam } from '../validation/invalid-param.ts';
import { amountExceeds, invalidState, notFound } from './payment-core.ts';
import { lockInvoice, settleInvoice } from './settlement.ts';

export interface CreditNoteInput {
  amount: number | string;
  reason: string;
  /** The service period credited (`Y-m-d`); each end not given is the invoice's. */
  period_start?: string;
  period_end?: string;
}

export interface CreditNoteDeps {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
  pdf: PdfRenderer;
  translations: Translations;
  invoices: InvoiceService;
}

/**
 * Credit notes (`api.creditNotes`): documents of kind `credit_note` in `billing_documents`, each with
 * its parent invoice (`parent_id`), its own gapless sequence (`CN-0001`, option `credit_note_prefix`),
 * an amount of at most the invoice's total less what is already credited, a required reason, the
 * invoice's service period unless another is given, and a PDF.
 * Creating one locks the invoice, recomputes its totals (`credited`) and status in the same
 * transaction, and fires `billing_credit_note_created` after commit.
 */
export class CreditNoteService {
  private readonly d: CreditNoteDeps;

  constructor(deps: CreditNoteDeps) {
    this.d = deps;
  }

  async create(
    invoiceId: number,
    input: CreditNoteInput,
    actor: Actor,
  ): Promise<{ creditNote: BillingDocument; invoice: BillingDocument }> {
    const reason = typeof input.reason === 'string' ? input.reason.trim() : '';
    if (!reason) throw invalidParam('reason', 'A credit note needs a reason.');
    // the note's line is worded in the invoice's language, read before the transaction (the texts come
    // from outside it)
    const [language] = await this.d.db.query<{ locale: string | null }>('select locale from billing_documents where id = $1', [invoiceId]);
    const tr = await this.d.translations.translator(language?.locale);
    return this.d.db.transaction(async (tx) => {
      const invoice = await lockInvoice(tx, invoiceId);
      if (!invoice || invoice.trashed) throw notFound('invoice');
      if (invoice.status === 'draft') throw invalidState('A draft is not issued: change it instead of crediting it.');
      const period = servicePeriod(input.period_start ?? invoice.period.start, input.period_end ?? invoice.period.end);
      const currency = invoice.currency as CurrencyCode;
      const amount = Money.parse(input.amount, currency, 'amount');
      if (!amount.isPositive()) throw new InvalidAmountError('amount', 'not_positive', 'amount must be greater than 0.');
      const total = Money.parse(invoice.totals.total, currency);
      const left = total.minus(Money.parse(invoice.totals.credited, currency));
      if (amount.greaterThan(left)) {
        throw amountExceeds(
          `The credit note (${amount}) is above what is left to credit on ${invoice.number} (${left} ${currency}).`,
          left,
        );
      }
      // the credited amount carries the invoice's tax in proportion, per category and rate, so the note
      // restates both parts of each
      const parts = creditParts(amount, invoice.taxBreakdown);
      const net = Money.sum(
        parts.map((p) => p.net),
        currency,
      );
      const tax = Money.sum(
        parts.map((p) => p.tax),
        currency,
      );
      const o = await this.d.options.getMany(['timezone'], tx);
      const number = await takeNumber(tx, this.d.options, 'credit_note');
      const items = parts.map((p) => ({
        name: `${tr.t('document.credit_on_invoice', { number: invoice.number })}${parts.length > 1 ? ` (${p.entry.category} ${p.entry.rate} %)` : ''}`,
        description: reason,
        quantity: '1',
        price: p.net.toString(),
        amount: p.net.toString(),
        taxable: p.entry.category === 'S' || p.entry.category === 'Z' || p.tax.isPositive(),
        ...((p.entry.category === 'S' || p.entry.category === 'Z') && p.entry.rate !== invoice.tax.rate ? { tax_rate: p.entry.rate } : {}),
      }));
      const cols: Record<string, unknown> = {
        kind: 'credit_note',
        number,
        status: 'issued',
        title: '',
        currency,
        issue_date: siteDate(new Date(), o.timezone),
        client_id: invoice.clientId,
        customer_name: invoice.customer.name,
        customer_email: invoice.customer.email,
        customer_country: invoice.customer.country,
        customer_vat: invoice.customer.vat,
        customer_company: invoice.customer.company,
        customer_address: invoice.customer.address,
        items: JSON.stringify(items),
        tax_category: invoice.tax.category,
        tax_statement: invoice.tax.statement,
        tax_rate: invoice.tax.rate,
        tax_breakdown: JSON.stringify(parts.map((p) => p.entry)),
        subtotal: net.toString(),
        discount: Money.zero(currency).toString(),
        tax: tax.toString(),
        total: amount.toString(),
        paid: Money.zero(currency).toString(),
        credited: Money.zero(currency).toString(),
        due: Money.zero(currency).toString(),
        parent_id: invoice.id,
        locale: invoice.locale,
        reason,
        period_start: period.start,
        period_end: period.end,
        access_key: newAccessKey(),
        created_by: actor.id,
      };
      const names = Object.keys(cols);
      const rows = await tx.query(
        `insert into billing_documents (${names.join(', ')}) values (${names.map((_, i) => `$${i + 1}`).join(', ')}) returning ${DOCUMENT_COLUMNS}`,
        Object.values(cols),
      );
      const creditNote = documentFromRow(rows[0]!);
      await audit(tx, actor, {
        action: 'credit_note.create',
        objectType: 'credit_note',
        objectId: creditNote.id,
        details: { number, invoice_id: invoice.id, amount: amount.toString(), reason },
      });
      const settled = await settleInvoice(tx, this.d.invoices, invoice, actor, { credits: true });
      await this.d.hooks.fire(tx, 'billing_credit_note_created', settled.id, settled, creditNote);
      return { creditNote, invoice: settled };
    });
  }

  /** The credit notes of a live invoice, oldest first (404 when the invoice does not exist or is trashed). */
  async forInvoice(invoiceId: number): Promise<BillingDocument[]> {
    await this.d.invoices.get(invoiceId);
    const rows = await this.d.db.query(
      `select ${DOCUMENT_COLUMNS} from billing_documents where kind = 'credit_note' and parent_id = $1 and trashed_at is null order by id`,
      [invoiceId],
    );
    return rows.map(documentFromRow);
  }

  async get(id: number): Promise<BillingDocument> {
    const rows =
      Number.isSafeInteger(id) && id > 0
        ? await this.d.db.query(
            `select ${DOCUMENT_COLUMNS} from billing_documents where id = $1 and kind = 'credit_note' and trashed_at is null`,
            [id],
          )
        : [];
    if (!rows.length) throw new BillingError('billing_rest_not_found', 'No credit note has this id.');
    return documentFromRow(rows[0]!);
  }

  /** The credit note's PDF, naming the invoice it credits and why. */
  async pdf(id: number): Promise<{ creditNote: BillingDocument; pdf: RenderedPdf }> {
    const creditNote = await this.get(id);
    const parent = await this.d.invoices.find(creditNote.parentId!);
    return { creditNote, pdf: await documentPdf(creditNote, this.d, parent ?? undefined) };
  }
}
