import type { Actor } from '../../audit/audit.ts';
import type { Database } from '../../db/database.ts';
import { pdfCompany } from '../../documents/document-pdf.ts';
import type { Translations } from '../../i18n/translations.ts';
import type { MailService } from '../../mail/mail-service.ts';
import { pdfFilename } from '../../pdf/file-name.ts';
import type { PdfRenderer, RenderedPdf } from '../../pdf/pdf-renderer.ts';
import { sqlLiterals } from '../../db/sql-literals.ts';
import type { ClientService } from '../../documents/clients/client-service.ts';
import type { HookRegistry } from '../../hooks/registry.ts';
import type { AuthUser } from '../../http/auth.ts';
import { Decimal, isCurrency, Money, type CurrencyCode } from '../../money/index.ts';
import type { OptionsStore } from '../../options/options.ts';
import { listScope } from '../../scope/list-scope.ts';
import { addDays, siteDate } from '../../time/site-time.ts';
import { invalidParam } from '../../validation/invalid-param.ts';
import { RECEIVED_PAYMENT_STATUSES } from '../statuses.ts';

export type StatementLineType = 'invoice' | 'payment' | 'refund' | 'credit_note';

export interface StatementLine {
  /** `Y-m-d` in the site timezone. */
  date: string;
  type: StatementLineType;
  /** The invoice's or credit note's number, the payment's reference. */
  number: string;
  /** The invoice the line belongs to (its number), so a customer can match it to their books. */
  reference: string;
  /** The document's own words: an invoice's title, a credit note's reason, a refund's reason. */
  description: string;
  debit: Money;
  credit: Money;
  /** The running balance after this line. */
  balance: Money;
}

export type AgingBucket = 'current' | 'days_1_30' | 'days_31_60' | 'days_61_90' | 'days_over_90';
export const AGING_BUCKETS: readonly AgingBucket[] = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'days_over_90'];

export interface Statement {
  clientId: number;
  currency: CurrencyCode;
  from: string;
  to: string;
  opening: Money;
  lines: StatementLine[];
  closing: Money;
  aging: Record<AgingBucket, Money>;
}

export interface StatementDeps {
  db: Database;
  options: OptionsStore;
  hooks: HookRegistry;
  clients: ClientService;
  pdf: PdfRenderer;
  translations: Translations;
  mail: MailService;
}

export interface StatementQuery {
  from?: string;
  to?: string;
  currency?: string;
  /** The user it is for: only the invoices their lists show count, as in the client's totals. */
  viewer?: AuthUser;
}

const NOT_OWED = ['draft', 'cancelled'];
const RECEIVED = sqlLiterals(RECEIVED_PAYMENT_STATUSES);
// lines of the same day: the invoice before what settles it
const ORDER: Record<StatementLineType, number> = { invoice: 0, refund: 1, payment: 2, credit_note: 3 };

/**
 * Every movement of the client's issued invoices in one currency, as an accountant's rows: an invoice is
 * a debit on its issue date, a received payment a credit on its date (site timezone), a refund a debit on
 * the day it was made, a credit note a credit on its issue date; a cancelled invoice is followed by the
 * credit that cancels what was left of it, on the day it was cancelled. Drafts and trashed documents never
 * appear. Payments are counted as the invoice's `paid` counts them (received, in the invoice's currency).
 */
const MOVEMENTS = `
  with inv as (
    select id, number, title, status, total, credited, issue_date, created_by
      from billing_documents
     where kind = 'invoice' and client_id = $1 and currency = $2 and trashed_at is null and status <> 'draft'
       and ($4::int is null or created_by = $4)
  )
  select 'invoice' as type, i.id as sort_id, i.issue_date::text as date, i.number, i.number as reference, i.title as description,
         i.total::text as amount
    from inv i
  union all
  select 'payment', p.id, (p.date at time zone $3)::date::text, p.reference, i.number, p.notes, p.amount::text
    from billing_payments p join inv i on i.id = p.invoice_id
   where p.status in (${RECEIVED}) and p.currency = $2
  union all
  select 'refund', r.id, (r.created_at at time zone $3)::date::text, p.reference, i.number, r.reason, r.amount::text
    from billing_payment_refunds r join billing_payments p on p.id = r.payment_id join inv i on i.id = p.invoice_id
   where p.status in (${RECEIVED}) and p.currency = $2
  union all
  select 'credit_note', c.id, c.issue_date::text, c.number, i.number, coalesce(c.reason, ''), c.total::text
    from billing_documents c join inv i on i.id = c.parent_id
   where c.kind = 'credit_note' and c.trashed_at is null
  union all
  select 'cancellation', i.id,
         coalesce((select (max(l.at) at time zone $3)::date from billing_audit_log l
                    where l.action = 'invoice.cancel' and l.object_type = 'invoice' and l.object_id = i.id::text), i.issue_date)::text,
         i.number, i.number, '', (i.total - i.credited)::text
    from inv i
   where i.status = 'cancelled'`;

/** What is still due on each open invoice, by due date, for the aging. */
const OPEN_DUE = `
  select due::text as due, coalesce(due_date, issue_date)::text as due_date
    from billing_documents
   where kind = 'invoice' and client_id = $1 and currency = $2 and trashed_at is null
     and status <> all($3::text[]) and due > 0 and ($4::int is null or created_by = $4)`;

/**
 * A client's statement of account (docs/payments.md, Statement of account): from the same rows the
 * client's `totals` sum, so with `to` = today its closing balance is their `totals.due`, and the aging
 * buckets add up to it.
 */
export class StatementService {
  private readonly d: StatementDeps;

  constructor(deps: StatementDeps) {
    this.d = deps;
  }

  /** The statement as a PDF in the client's language (else the option `site_locale`), and its file's name. */
  async pdf(clientId: number, q: StatementQuery = {}): Promise<{ pdf: RenderedPdf; name: string; statement: Statement }> {
    const statement = await this.statement(clientId, q);
    const client = await this.d.clients.get(clientId);
    const tr = await this.d.translations.translator(client.locale);
    const text = (m: Money) => m.toString();
    const pdf = await this.d.pdf.renderStatement(
      {
        company: await pdfCompany(this.d.options),
        customer: {
          name: client.company || client.name,
          email: client.email,
          country: client.country,
          vat: client.vat,
          address: client.address,
        },
        currency: statement.currency,
        from: statement.from,
        to: statement.to,
        opening: text(statement.opening),
        closing: text(statement.closing),
        lines: statement.lines.map((l) => ({ ...l, debit: text(l.debit), credit: text(l.credit), balance: text(l.balance) })),
        aging: Object.fromEntries(AGING_BUCKETS.map((b) => [b, text(statement.aging[b])])) as Record<AgingBucket, string>,
      },
      tr,
    );
    return { pdf, name: `${tr.t('statement.file')}-${client.id}-${statement.to}`, statement };
  }

  /** Mails the statement to the client's address with its PDF attached (template `statement`). */
  async send(clientId: number, q: StatementQuery, actor: Actor): Promise<{ to: string; deliveryId: number }> {
    const { pdf, name, statement } = await this.pdf(clientId, q);
    const file = pdfFilename({ number: name });
    const client = await this.d.clients.get(clientId);
    const delivery = await this.d.mail.statementMail(
      client.email,
      client.locale,
      {
        customerName: client.name,
        currency: statement.currency,
        from: statement.from,
        to: statement.to,
        closing: statement.closing.toString(),
        file,
      },
      pdf.bytes,
      actor,
    );
    return { to: client.email, deliveryId: delivery.id };
  }

  async statement(clientId: number, q: StatementQuery = {}): Promise<Statement> {
    const client = await this.d.clients.get(clientId);
    const o = await this.d.options.getMany(['timezone', 'currency']);
    const today = siteDate(new Date(), o.timezone);
    const to = q.to ?? today;
    const from = q.from ?? `${to.slice(0, 4)}-01-01`;
    if (from > to) throw invalidParam('to', 'to must not be before from.');
    const currency = q.currency ?? this.onlyCurrency(Object.keys(client.totals), o.currency);
    if (!isCurrency(currency)) throw invalidParam('currency', `currency ${currency} is not an ISO 4217 code.`);
    const createdBy = (await listScope(this.d.hooks, 'invoice', q.viewer)).created_by ?? null;

    const rows = await this.d.db.query<{
      type: StatementLineType | 'cancellation';
      sort_id: string;
      date: string;
      number: string;
      reference: string;
      description: string;
      amount: string;
    }>(MOVEMENTS, [clientId, currency, o.timezone, createdBy]);
    // one rounding rule: every stored amount read through the money module at the currency's minor unit
    const money = (v: string) => Money.fromDecimal(Decimal.parse(v), currency);
    const zero = Money.zero(currency);
    const moves = rows
      .map((r) => {
        const amount = money(r.amount);
        const debit = r.type === 'invoice' || r.type === 'refund';
        return {
          date: r.date,
          type: r.type === 'cancellation' ? ('credit_note' as const) : r.type,
          number: r.number,
          reference: r.reference,
          description: r.description,
          debit: debit ? amount : zero,
          credit: debit ? zero : amount,
          order: r.type === 'cancellation' ? 4 : ORDER[r.type],
          id: Number(r.sort_id),
        };
      })
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.order - b.order || a.id - b.id));

    let balance = zero;
    let opening = zero;
    const lines: StatementLine[] = [];
    for (const m of moves) {
      if (m.date > to) break;
      balance = balance.plus(m.debit).minus(m.credit);
      if (m.date < from) opening = balance;
      else lines.push({ ...m, balance });
    }
    return { clientId, currency, from, to, opening, lines, closing: balance, aging: await this.aging(clientId, currency, to, createdBy) };
  }

  private onlyCurrency(currencies: string[], site: string): string {
    if (currencies.length > 1) {
      throw invalidParam('currency', `The client has invoices in ${currencies.sort().join(', ')}: name one.`);
    }
    return currencies[0] ?? site;
  }

  /** What is due now on the open invoices, by days past each one's due date on `to`. */
  private async aging(clientId: number, currency: CurrencyCode, to: string, createdBy: number | null): Promise<Record<AgingBucket, Money>> {
    const rows = await this.d.db.query<{ due: string; due_date: string }>(OPEN_DUE, [clientId, currency, NOT_OWED, createdBy]);
    const aging = Object.fromEntries(AGING_BUCKETS.map((b) => [b, Money.zero(currency)])) as Record<AgingBucket, Money>;
    for (const r of rows) {
      const bucket = bucketOf(r.due_date, to);
      aging[bucket] = aging[bucket].plus(Money.fromDecimal(Decimal.parse(r.due), currency));
    }
    return aging;
  }
}

/** The bucket of an invoice due on `dueDate`, seen on `on` (both `Y-m-d`). */
export function bucketOf(dueDate: string, on: string): AgingBucket {
  if (dueDate >= on) return 'current';
  if (dueDate >= addDays(on, -30)) return 'days_1_30';
  if (dueDate >= addDays(on, -60)) return 'days_31_60';
  if (dueDate >= addDays(on, -90)) return 'days_61_90';
  return 'days_over_90';
}
