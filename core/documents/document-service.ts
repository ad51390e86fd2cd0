import { randomBytes } from 'node:crypto';
import { audit, auditFrom, type Actor } from '../audit/audit.ts';
import { shapedStatement, statement, type Database, type Tx } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import type { CreationSource } from '../hooks/hook-map.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import { computeTotals, Decimal, isCurrency, LINE_DECIMALS, type CurrencyCode } from '../money/index.ts';
import type { OptionsStore } from '../options/options.ts';
import { normalizeVatNumber, taxBreakdown, taxTreatment, type TaxBreakdownEntry } from '../tax/index.ts';
import { canonicalLocale } from '../i18n/locale-tag.ts';
import { invalidParam } from '../validation/invalid-param.ts';
import {
  DOCUMENT_COLUMNS,
  documentFromRow,
  type BillingDocument,
  type Customer,
  type DocumentItem,
  type ServicePeriod,
  type StoredTotals,
} from './document.ts';
import { servicePeriod } from './service-period.ts';
import { resolveSchedule, type Instalment } from './instalments.ts';
import type { DocumentInput } from './document-schema.ts';
import { claimNumber, nextNumberSql, numberingTerms, settleNumber, type DocumentKind, type NumberingTerms } from './numbering.ts';
import { addDays, siteDate } from '../time/site-time.ts';

export interface ServiceDeps {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
}

export interface CreateContext {
  actor: Actor;
  source: CreationSource;
  /** The recurring profile generating it (`source: 'recurring'`). */
  recurringId?: number;
  /**
   * Whose document it is when that is not the actor's (`created_by`, what an own scope goes by): the
   * creator of the recurring profile or of the accepted quote that produced it. Default: the actor.
   */
  owner?: number | null;
}

/** Columns written when a document is created or its builder state saved (the totals under their column names). */
export interface PreparedDocument extends StoredTotals {
  title: string;
  currency: CurrencyCode;
  issue_date: string;
  due_date: string | null;
  expiry_date: string | null;
  period: ServicePeriod;
  schedule: Instalment[] | null;
  client_id: number | null;
  customer: Customer;
  items: DocumentItem[];
  discount_type: 'percent' | 'fixed' | null;
  discount_value: string | null;
  tax_category: string;
  tax_statement: string;
  tax_rate: string;
  tax_breakdown: TaxBreakdownEntry[];
  notes: string;
  terms: string;
  locale: string | null;
}

/** 128 bits is the floor (docs/documents.md); 192 bits, as URL-safe text. */
export function newAccessKey(): string {
  return randomBytes(24).toString('base64url');
}

const DOCUMENT_BY_ID = statement('document_by_id', `select ${DOCUMENT_COLUMNS} from billing_documents where id = $1 and kind = $2`);
const DOCUMENT_BY_ID_LOCKED = statement(
  'document_by_id_locked',
  `select ${DOCUMENT_COLUMNS} from billing_documents where id = $1 and kind = $2 for update`,
);

/**
 * What invoices and quotes share: preparing a document from its input (defaults from the options, the
 * customer from the client, tax treatment, exact totals), numbering, reading, listing, trash.
 * `InvoiceService` and `QuoteService` add their kind's rules and events.
 */
export class DocumentService {
  protected readonly db: Database;
  protected readonly options: OptionsStore;
  protected readonly hooks: HookRegistry;
  readonly kind: DocumentKind;

  constructor(deps: ServiceDeps, kind: DocumentKind) {
    this.db = deps.db;
    this.options = deps.options;
    this.hooks = deps.hooks;
    this.kind = kind;
  }

  /** The document of this kind, not trashed; otherwise 404 `billing_rest_not_found`. */
  async get(id: number, tx?: Tx): Promise<BillingDocument> {
    const doc = await this.find(id, tx);
    if (!doc || doc.trashed) throw notFound();
    return doc;
  }

  /** The document of this kind, trashed or not, or null. */
  async find(id: number, tx?: Tx, lock = false): Promise<BillingDocument | null> {
    if (!Number.isSafeInteger(id) || id < 1) return null;
    const rows = await (tx ?? this.db).query(lock ? DOCUMENT_BY_ID_LOCKED : DOCUMENT_BY_ID, [id, this.kind]);
    return rows.length ? documentFromRow(rows[0]!) : null;
  }

  /** The bearer key of the document's public pages. Only links for e-mails and screens use it. */
  async accessKey(id: number): Promise<string> {
    const rows = await this.db.query<{ access_key: string }>('select access_key from billing_documents where id = $1 and kind = $2', [
      id,
      this.kind,
    ]);
    if (!rows.length) throw notFound();
    return rows[0]!.access_key;
  }

  /**
   * Revokes the document's public link at once: a new access key replaces the old one, which every
   * instance stops accepting at its next request (the public pages read the key from the row each time).
   * Answers the new key. Audited; trashed documents are 404.
   */
  async rotateKey(id: number, actor: Actor): Promise<string> {
    return this.db.transaction(async (tx) => {
      const doc = await this.find(id, tx, true);
      if (!doc || doc.trashed) throw notFound();
      const key = newAccessKey();
      await tx.query('update billing_documents set access_key = $2, updated_at = now() where id = $1', [id, key]);
      await audit(tx, actor, { action: `${this.kind}.rotate_key`, objectType: this.kind, objectId: id });
      return key;
    });
  }

  /**
   * Inserts a new document of this kind in `tx`, numbered from the sequence (or the given number), with
   * its audit row. The sequence's row lock, which every creation of the kind waits for, is taken by the
   * statement that inserts the document, as late as the transaction allows: after the preparation's
   * reads, with only the actions' outbox rows and the commit after it (docs/benchmarks.md).
   */
  protected async insert(
    tx: Tx,
    input: DocumentInput,
    status: string,
    actor: Actor,
    extra: Record<string, unknown> = {},
  ): Promise<BillingDocument> {
    const p = await this.prepare(input, tx);
    const cols: Record<string, unknown> = {
      kind: this.kind,
      status,
      title: p.title,
      currency: p.currency,
      issue_date: p.issue_date,
      due_date: p.due_date,
      expiry_date: p.expiry_date,
      period_start: p.period.start,
      period_end: p.period.end,
      schedule: p.schedule ? JSON.stringify(p.schedule) : null,
      client_id: p.client_id,
      customer_name: p.customer.name,
      customer_email: p.customer.email,
      customer_country: p.customer.country,
      customer_vat: p.customer.vat,
      customer_company: p.customer.company,
      customer_address: p.customer.address,
      items: JSON.stringify(p.items),
      discount_type: p.discount_type,
      discount_value: p.discount_value,
      tax_category: p.tax_category,
      tax_statement: p.tax_statement,
      tax_rate: p.tax_rate,
      tax_breakdown: JSON.stringify(p.tax_breakdown),
      subtotal: p.subtotal,
      discount: p.discount,
      tax: p.tax,
      total: p.total,
      paid: p.paid,
      credited: p.credited,
      due: p.due,
      notes: p.notes,
      terms: p.terms,
      locale: p.locale,
      access_key: newAccessKey(),
      created_by: actor.id,
      ...extra,
    };
    if (input.number) return (await this.insertRow(tx, cols, actor, { number: await claimNumber(tx, this.kind, input.number) })).doc!;
    const terms = await numberingTerms(tx, this.options, this.kind);
    const taken = await this.insertRow(tx, cols, actor, { terms });
    if (taken.doc) return taken.doc;
    // the sequence's next number was given by hand: pass over the numbers in use (from the one taken)
    const number = await settleNumber(tx, this.kind, terms, taken.value!);
    return (await this.insertRow(tx, cols, actor, { number })).doc!;
  }

  /**
   * One statement: the document (numbered as given, or from the sequence) and its audit row. From the
   * sequence, a number some document already bears inserts nothing (`on conflict`, which sees rows
   * committed after the statement began) and answers the value it took instead.
   */
  private async insertRow(
    tx: Tx,
    cols: Record<string, unknown>,
    actor: Actor,
    numbering: { number: string } | { terms: NumberingTerms },
  ): Promise<{ doc: BillingDocument | null; value: bigint | null }> {
    const params: unknown[] = Object.values(cols);
    const values = params.map((_, i) => `$${i + 1}`);
    const parts: string[] = [];
    if ('number' in numbering) {
      values.push(`$${params.push(numbering.number)}`);
    } else {
      const next = nextNumberSql(params, this.kind, numbering.terms);
      parts.push(`seq as (${next.seq})`);
      values.push(`(select ${next.number} from seq)`);
    }
    parts.push(`doc as (insert into billing_documents (${Object.keys(cols).join(', ')}, number) values (${values.join(', ')})
      ${'terms' in numbering ? 'on conflict do nothing' : ''} returning ${DOCUMENT_COLUMNS})`);
    parts.push(
      `logged as (${auditFrom(params, actor, {
        action: `${this.kind}.create`,
        objectType: this.kind,
        source: 'doc',
        objectIdSql: 'id::text',
        detailsSql: `jsonb_build_object('number', number, 'status', status)`,
      })})`,
    );
    const rows = await tx.query(
      shapedStatement(
        'document_insert',
        'terms' in numbering
          ? `with ${parts.join(', ')} select seq.value::text as taken_value, doc.* from seq left join doc on true`
          : `with ${parts.join(', ')} select * from doc`,
      ),
      params,
    );
    const row = rows[0];
    if (!row) throw new Error('a numbered insert returned no row');
    return { doc: row.id == null ? null : documentFromRow(row), value: row.taken_value == null ? null : BigInt(row.taken_value) };
  }

  /** Rewrites a document's builder state (items, customer, dates…) and recomputes its totals. */
  protected async rewrite(tx: Tx, doc: BillingDocument, input: DocumentInput, actor: Actor): Promise<BillingDocument> {
    const p = await this.prepare(input, tx, doc);
    if (input.number && input.number !== doc.number) await claimNumber(tx, this.kind, input.number);
    const rows = await tx.query(
      `update billing_documents set number = $2, title = $3, currency = $4, issue_date = $5, due_date = $6, expiry_date = $7,
         client_id = $8, customer_name = $9, customer_email = $10, customer_country = $11, customer_vat = $12,
         customer_company = $13, customer_address = $14, items = $15, discount_type = $16, discount_value = $17,
         tax_category = $18, tax_statement = $19, tax_rate = $20, subtotal = $21, discount = $22, tax = $23, total = $24,
         due = greatest(0, $24::numeric - paid - credited), notes = $25, terms = $26, tax_breakdown = $27,
         period_start = $28, period_end = $29, locale = $30, schedule = $31, updated_at = now()
       where id = $1 returning ${DOCUMENT_COLUMNS}`,
      [
        doc.id,
        input.number || doc.number,
        p.title,
        p.currency,
        p.issue_date,
        p.due_date,
        p.expiry_date,
        p.client_id,
        p.customer.name,
        p.customer.email,
        p.customer.country,
        p.customer.vat,
        p.customer.company,
        p.customer.address,
        JSON.stringify(p.items),
        p.discount_type,
        p.discount_value,
        p.tax_category,
        p.tax_statement,
        p.tax_rate,
        p.subtotal,
        p.discount,
        p.tax,
        p.total,
        p.notes,
        p.terms,
        JSON.stringify(p.tax_breakdown),
        p.period.start,
        p.period.end,
        p.locale,
        p.schedule ? JSON.stringify(p.schedule) : null,
      ],
    );
    // a draft renumbered leaves its old number unused: the log tells where it went (docs/decisions.md, Numbers)
    const renumbered = input.number && input.number !== doc.number ? { number: { from: doc.number, to: input.number } } : undefined;
    await audit(tx, actor, { action: `${this.kind}.update`, objectType: this.kind, objectId: doc.id, details: renumbered });
    return documentFromRow(rows[0]!);
  }

  /**
   * What saving `input` would compute (customer, tax treatment, exact totals) without saving anything:
   * the builder's live totals are the server's own, never a second rounding rule in the browser.
   */
  async preview(input: DocumentInput): Promise<PreparedDocument> {
    return this.db.transaction((tx) => this.prepare(input, tx));
  }

  /**
   * Turns input into columns: defaults from the options, the customer from the client record (each
   * field overridable), the tax treatment (through `billing_tax_treatment`) and exact totals.
   */
  protected async prepare(input: DocumentInput, tx: Tx, existing?: BillingDocument): Promise<PreparedDocument> {
    const o = await this.options.getMany(
      ['currency', 'timezone', 'payment_terms_days', 'tax_rate', 'business_country', 'tax_exempt_statement', 'tax_exempt_items_statement'],
      tx,
    );
    const currency = input.currency ?? existing?.currency ?? o.currency;
    if (!isCurrency(currency)) throw invalidParam('currency', `currency ${currency} is not an ISO 4217 code.`);
    const issueDate = input.issue_date ?? existing?.issueDate ?? siteDate(new Date(), o.timezone);
    let dueDate: string | null = null;
    let expiryDate: string | null = null;
    if (this.kind === 'invoice') {
      dueDate = input.due_date ?? addDays(issueDate, o.payment_terms_days);
      if (dueDate < issueDate) throw invalidParam('due_date', 'due_date must not be before issue_date.');
    } else {
      expiryDate = input.expiry_date ?? addDays(issueDate, o.payment_terms_days);
      if (expiryDate < issueDate) throw invalidParam('expiry_date', 'expiry_date must not be before issue_date.');
    }
    // like the due date, the period is what the input says: the builder sends its whole state
    const period = this.kind === 'invoice' ? servicePeriod(input.period_start, input.period_end) : { start: null, end: null };

    const { customer, locale: clientLocale } = await this.customer(input, tx);
    let locale: string | null = existing ? existing.locale : clientLocale;
    if (input.locale !== undefined) {
      locale = input.locale === null ? null : canonicalLocale(input.locale);
      if (locale === null && input.locale !== null) throw invalidParam('locale', `locale ${input.locale} is not a BCP 47 language tag.`);
    }
    const base = taxTreatment({
      taxRate: o.tax_rate,
      businessCountry: o.business_country,
      taxExemptStatement: o.tax_exempt_statement,
      customerCountry: customer.country,
      customerVat: customer.vat,
    });
    const treatment = await this.hooks.applyFilters(
      'billing_tax_treatment',
      { category: base.category, statement: base.statement, rate: String(base.rate) },
      { kind: this.kind, customer, currency },
    );

    const items = input.items.map((i) => ({ ...i, taxable: i.taxable ?? true }));
    // an item's own rate counts only where the document is taxed at all (reverse charge, export and
    // exemption charge no tax on any line); it is kept on the item either way
    const standard = treatment.category === 'standard';
    const totals = computeTotals({
      currency,
      items: items.map((i) => ({
        quantity: i.quantity,
        price: i.price,
        taxable: i.taxable,
        taxRate: standard || !i.taxable ? i.tax_rate : null,
      })),
      discount: input.discount ?? null,
      taxRate: treatment.rate,
      payments: existing ? [{ amount: existing.totals.paid, status: 'completed' }] : [],
      creditNotes: existing ? [{ amount: existing.totals.credited }] : [],
    });
    // like the period, the schedule is what the input says; its last instalment is the invoice's due date
    const schedule = this.kind === 'invoice' ? resolveSchedule(input.schedule, totals.total, issueDate) : null;
    if (schedule) dueDate = schedule[schedule.length - 1]!.due_date;
    return {
      title: input.title ?? existing?.title ?? '',
      currency,
      issue_date: issueDate,
      due_date: dueDate,
      expiry_date: expiryDate,
      period,
      schedule,
      client_id: input.client_id ?? null,
      customer,
      items: items.map((i, n) => ({
        name: i.name.trim(),
        description: i.description ?? '',
        quantity: Decimal.parse(i.quantity, { maxDecimals: LINE_DECIMALS }).toString(),
        price: Decimal.parse(i.price, { maxDecimals: LINE_DECIMALS }).toString(),
        amount: totals.lines[n]!.amount.toString(),
        ...(i.unit ? { unit: i.unit } : {}),
        taxable: i.taxable,
        ...(i.tax_rate === undefined || i.tax_rate === null
          ? {}
          : { tax_rate: Decimal.parse(i.tax_rate, { maxDecimals: LINE_DECIMALS }).toString() }),
      })),
      discount_type: input.discount?.type ?? null,
      discount_value: input.discount ? Decimal.parse(input.discount.value, { maxDecimals: LINE_DECIMALS }).toString() : null,
      tax_category: treatment.category,
      tax_statement: treatment.statement,
      tax_rate: treatment.rate,
      tax_breakdown: taxBreakdown({ treatment, groups: totals.taxGroups, exemptItemsStatement: o.tax_exempt_items_statement }),
      subtotal: totals.subtotal.toString(),
      discount: totals.discount.toString(),
      tax: totals.tax.toString(),
      total: totals.total.toString(),
      paid: totals.paid.toString(),
      credited: totals.credited.toString(),
      due: totals.due.toString(),
      notes: input.notes ?? existing?.notes ?? '',
      terms: input.terms ?? existing?.terms ?? '',
      locale,
    };
  }

  /** The client's details, each overridden by the document's own customer fields when given. */
  private async customer(input: DocumentInput, tx: Tx): Promise<{ customer: Customer; locale: string | null }> {
    let base: Customer = { name: '', email: '', country: '', vat: '', company: '', address: '' };
    let locale: string | null = null;
    if (input.client_id !== undefined && input.client_id !== null) {
      const rows = await tx.query<Customer>(
        `select display_name as name, email, country, vat, company, address, locale from billing_users
          where id = $1 and role = 'billing_client'`,
        [input.client_id],
      );
      // the answer the scoped resolver gives for a client outside the caller's scope (core/scope/object-scope.ts):
      // which of them answers must not tell whether the client exists
      if (!rows.length)
        throw new BillingError('billing_rest_no_client', 'No client has this id.', { params: { client_id: 'No client has this id.' } });
      const { locale: own, ...found } = rows[0]! as Customer & { locale: string | null };
      base = found;
      locale = own;
    }
    const customer = {
      ...base,
      name: input.customer_name ?? base.name,
      email: input.customer_email ?? base.email,
      country: input.customer_country ?? base.country,
      vat: input.customer_vat_number ?? base.vat,
    };
    // a VAT number given now is checked against the customer's country (docs/decisions.md, VAT numbers):
    // it decides the tax treatment and goes into e-invoices, so one without the country's format is refused
    const given = input.customer_vat_number?.trim();
    if (given && customer.country && normalizeVatNumber(customer.country, given) === null) {
      throw invalidParam(
        'customer_vat_number',
        `customer_vat_number ${given} does not have the format of a VAT number of ${customer.country}.`,
        'vat_format',
      );
    }
    return { customer, locale };
  }

  /** Whether saving `input` would change anything of an issued document but its notes. */
  protected async changesMoreThanNotes(tx: Tx, doc: BillingDocument, input: DocumentInput): Promise<boolean> {
    const p = await this.prepare(input, tx, doc);
    // items in a fixed key order: jsonb does not keep the order keys were written in
    const lines = (items: DocumentItem[]) =>
      items.map((i) => [i.name, i.description, i.quantity, i.price, i.amount, i.unit ?? null, i.taxable, i.tax_rate ?? null]);
    const now = [
      lines(p.items),
      p.customer,
      p.currency,
      p.issue_date,
      p.due_date,
      p.expiry_date,
      p.period,
      p.schedule,
      p.total,
      p.title,
      p.terms,
      input.number ?? doc.number,
    ];
    const was = [
      lines(doc.items),
      doc.customer,
      doc.currency,
      doc.issueDate,
      doc.dueDate,
      doc.expiryDate,
      doc.period,
      doc.schedule,
      doc.totals.total,
      doc.title,
      doc.terms,
      doc.number,
    ];
    return JSON.stringify(now) !== JSON.stringify(was);
  }

  /** Moves to the trash (never erases). 410 when already there. */
  protected async moveToTrash(id: number, actor: Actor, then?: (tx: Tx, doc: BillingDocument) => Promise<void>): Promise<BillingDocument> {
    return this.db.transaction(async (tx) => {
      const doc = await this.find(id, tx, true);
      if (!doc) throw notFound();
      if (doc.trashed) throw new BillingError('billing_rest_already_trashed', 'The document has already been trashed.');
      await tx.query('update billing_documents set trashed_at = now(), updated_at = now() where id = $1', [id]);
      await audit(tx, actor, { action: `${this.kind}.trash`, objectType: this.kind, objectId: id });
      await then?.(tx, doc);
      return doc;
    });
  }

  /** Brings a document back from the trash with the status it had; `restored` is false when it was not there. */
  protected async restoreFromTrash(
    id: number,
    actor: Actor,
    then?: (tx: Tx, doc: BillingDocument) => Promise<void>,
  ): Promise<{ doc: BillingDocument; restored: boolean }> {
    return this.db.transaction(async (tx) => {
      const doc = await this.find(id, tx, true);
      if (!doc) throw notFound();
      if (!doc.trashed) return { doc, restored: false };
      await tx.query('update billing_documents set trashed_at = null, updated_at = now() where id = $1', [id]);
      await audit(tx, actor, { action: `${this.kind}.restore`, objectType: this.kind, objectId: id });
      const restored = { ...doc, trashed: false };
      await then?.(tx, restored);
      return { doc: restored, restored: true };
    });
  }
}

export function notFound(): BillingError {
  return new BillingError('billing_rest_not_found', 'No document has this id.');
}
