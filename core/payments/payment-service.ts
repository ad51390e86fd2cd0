import type { Actor } from '../audit/audit.ts';
import { BillingError } from '../errors.ts';
import { Decimal } from '../money/decimal.ts';
import type { Database } from '../db/database.ts';
import type { BillingDocument } from '../documents/document.ts';
import { addDays } from '../time/site-time.ts';
import type { OptionsStore } from '../options/options.ts';
import { PaymentCore, notFound, type PaymentCommand, type PaymentOrigin, type PaymentOutcome } from './payment-core.ts';
import { parseSiteDateTime } from '../time/payment-date.ts';
import { PAYMENT_COLUMNS, paymentFromRow, type Payment, type PaymentMethod } from './payment.ts';
import { containsPattern } from '../db/like.ts';
import { columns, qb, run, sql } from '../db/query-builder.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { AuthUser } from '../http/auth.ts';
import { listScope } from '../scope/list-scope.ts';

/** The body of `POST /invoices/{id}/payments` (and of `billing_record_payment`). */
export interface RecordPaymentInput {
  amount: number | string;
  method: PaymentMethod;
  status: 'pending' | 'completed';
  /** `Y-m-d H:i:s` (or `Y-m-d`) in the site timezone; default now. */
  date?: string;
  transaction_id?: string;
  notes?: string;
}

export interface PaymentListQuery {
  page: number;
  per_page: number;
  /** Substring of the reference or the transaction id, case-insensitive. */
  search?: string;
  status?: string[];
  method?: string[];
  invoice_id?: number;
  /** Payment date strictly after / before: a day (`Y-m-d`, site timezone) or an instant (`Y-m-d H:i:s`). */
  after?: string;
  before?: string;
  /** The user the list is for: narrowed to their scope (`billing_list_scope`, kind `payment`). None: in-process, unscoped. */
  viewer?: AuthUser;
}

/**
 * Payments, in process (`api.payments`): what REST, AJAX and the CLI call for offline payments, all as
 * an administrator (`channel: 'admin'`), on top of the payment core. Gateway plugins call `apply` with
 * their own channel (docs/payments.md).
 */
export class PaymentService {
  readonly core: PaymentCore;
  private readonly db: Database;
  private readonly options: OptionsStore;
  private readonly hooks: HookRegistry | undefined;

  constructor(deps: { db: Database; options: OptionsStore; hooks?: HookRegistry; core: PaymentCore }) {
    this.db = deps.db;
    this.options = deps.options;
    this.hooks = deps.hooks;
    this.core = deps.core;
  }

  /** The payment core's one function (see `PaymentCore.apply`). */
  apply(command: PaymentCommand, origin: PaymentOrigin): Promise<PaymentOutcome> {
    return this.core.apply(command, origin);
  }

  /**
   * Records a payment against an issued invoice, pending or completed. A `transaction_id` makes the call
   * idempotent: recording the same method and transaction id on the same invoice again answers the
   * payment recorded the first time (`created: false`) and changes nothing.
   */
  async record(
    invoiceId: number,
    input: RecordPaymentInput,
    actor: Actor,
  ): Promise<{ payment: Payment; invoice: BillingDocument; created: boolean }> {
    const date = input.date ? parseSiteDateTime(input.date, await this.options.get('timezone')) : undefined;
    const transactionId = input.transaction_id?.trim() || null;
    const out = await this.core.apply(
      {
        action: 'record',
        invoiceId,
        amount: input.amount,
        method: input.method,
        status: input.status,
        date,
        transactionId,
        notes: input.notes ?? '',
        key: transactionId ? `txn:${invoiceId}:${input.method}:${transactionId}` : undefined,
      },
      { channel: 'admin', actor },
    );
    // the same transaction id with another amount is another payment's id, not a retry: say so (as Stripe)
    if (out.result === 'duplicate' && out.payment && !Decimal.from(input.amount, 'amount').equals(out.payment.amount)) {
      throw new BillingError(
        'billing_rest_idempotency_mismatch',
        `transaction_id ${transactionId} was recorded before for ${out.payment.amount} ${out.payment.currency} (payment ${out.payment.reference}), not ${String(input.amount)}.`,
      );
    }
    return { payment: out.payment!, invoice: out.invoice!, created: out.result === 'applied' };
  }

  /**
   * Records a transfer a bank statement shows received (`channel: 'statement'`, see PaymentOrigin): a
   * completed `bank_transfer` payment dated by the booking, under the statement entry's `key`, so the
   * same entry imported again — by any instance, at the same time or later — answers `duplicate`. The
   * caller is the import of a user holding `bill_record_payment`, who is the actor.
   */
  recordBankTransfer(
    input: { invoiceId: number; amount: string; currency: string; date: Date; transactionId: string | null; key: string; notes?: string },
    actor: Actor,
  ): Promise<PaymentOutcome> {
    return this.core.apply(
      {
        action: 'record',
        invoiceId: input.invoiceId,
        amount: input.amount,
        currency: input.currency,
        method: 'bank_transfer',
        status: 'completed',
        date: input.date,
        transactionId: input.transactionId,
        notes: input.notes ?? '',
        key: input.key,
      },
      { channel: 'statement', actor },
    );
  }

  /**
   * An administrator marks a payment completed: its money has arrived. Completing a completed payment
   * changes nothing. `date` (site timezone) is when the money arrived, default now.
   */
  async complete(
    paymentId: number,
    actor: Actor,
    input: { date?: string; transaction_id?: string } = {},
  ): Promise<{ payment: Payment; invoice: BillingDocument }> {
    const date = input.date ? parseSiteDateTime(input.date, await this.options.get('timezone')) : undefined;
    const out = await this.core.apply(
      { action: 'complete', payment: { id: paymentId }, date, transactionId: input.transaction_id?.trim() || null },
      { channel: 'admin', actor },
    );
    return { payment: out.payment!, invoice: out.invoice! };
  }

  /** Refunds `amount` of a received payment (at most what is left of it), with a reason. */
  /**
   * Refunds part or all of a payment. With `idempotencyKey` (REST's `Idempotency-Key` header) a repeated
   * request answers the first one's outcome instead of refunding again.
   */
  async refund(
    paymentId: number,
    input: { amount: number | string; reason: string; idempotencyKey?: string },
    actor: Actor,
  ): Promise<{ payment: Payment; invoice: BillingDocument }> {
    const key = input.idempotencyKey ? `refund:${paymentId}:${input.idempotencyKey}` : undefined;
    const out = await this.core.apply(
      { action: 'refund', payment: { id: paymentId }, amount: input.amount, reason: input.reason, key },
      { channel: 'admin', actor },
    );
    return { payment: out.payment!, invoice: out.invoice! };
  }

  /** Cancels an issued invoice with nothing paid (see `PaymentCore.cancelInvoice`). */
  cancelInvoice(invoiceId: number, actor: Actor, reason = ''): Promise<BillingDocument> {
    return this.core.cancelInvoice(invoiceId, actor, reason);
  }

  async get(id: number): Promise<Payment> {
    const p = await this.find(id);
    if (!p) throw notFound('payment');
    return p;
  }

  async find(id: number): Promise<Payment | null> {
    if (!Number.isSafeInteger(id) || id < 1) return null;
    const rows = await this.db.query(`select ${PAYMENT_COLUMNS} from billing_payments where id = $1`, [id]);
    return rows.length ? paymentFromRow(rows[0]!) : null;
  }

  async findByReference(reference: string): Promise<Payment | null> {
    const rows = await this.db.query(`select ${PAYMENT_COLUMNS} from billing_payments where reference = $1`, [reference]);
    return rows.length ? paymentFromRow(rows[0]!) : null;
  }

  /** A page of an invoice's payments (404 when the invoice does not exist or is in the trash). */
  async forInvoice(invoiceId: number, query: Omit<PaymentListQuery, 'invoice_id'>): Promise<{ items: Payment[]; total: number }> {
    const rows =
      Number.isSafeInteger(invoiceId) && invoiceId > 0
        ? await this.db.query(`select 1 from billing_documents where id = $1 and kind = 'invoice' and trashed_at is null`, [invoiceId])
        : [];
    if (!rows.length) throw notFound('invoice');
    return this.list({ ...query, invoice_id: invoiceId });
  }

  /** A page of payments, latest first, with the filters of `GET /payments`, and the total count. */
  async list(q: PaymentListQuery): Promise<{ items: Payment[]; total: number }> {
    let where = qb.selectFrom('billing_payments');
    if (q.status?.length) where = where.where('status', 'in', q.status);
    if (q.method?.length) where = where.where('method', 'in', q.method);
    if (q.invoice_id !== undefined) where = where.where('invoice_id', '=', q.invoice_id);
    const scope = this.hooks ? await listScope(this.hooks, 'payment', q.viewer) : {};
    if (scope.created_by !== undefined) {
      // a payment lies where its invoice does (core/payments/payment-objects.ts): narrowed by the invoice's creator
      where = where.where(
        sql<boolean>`exists (select 1 from billing_documents d where d.id = billing_payments.invoice_id and d.created_by = ${scope.created_by})`,
      );
    }
    if (q.after || q.before) {
      const tz = await this.options.get('timezone');
      // a day means the whole day: after it is from the next midnight on, before it is before its midnight
      const dayOnly = (s: string) => s.length === 10;
      if (q.after) {
        const bound = parseSiteDateTime(dayOnly(q.after) ? addDays(q.after, 1) : q.after, tz, 'after');
        where = where.where('date', dayOnly(q.after) ? '>=' : '>', sql`${bound}::timestamptz`);
      }
      if (q.before) where = where.where('date', '<', sql`${parseSiteDateTime(q.before, tz, 'before')}::timestamptz`);
    }
    if (q.search) {
      const pattern = containsPattern(q.search);
      where = where.where((eb) =>
        eb.or([eb(sql`lower(reference)`, 'like', pattern), eb(sql`lower(coalesce(transaction_id, ''))`, 'like', pattern)]),
      );
    }
    const [{ n: total }] = await run<{ n: number }>(this.db, where.select(sql<number>`count(*)::int`.as('n')));
    if (total === 0 || (q.page - 1) * q.per_page >= total) return { items: [], total };
    const rows = await run(
      this.db,
      where
        .select(columns(PAYMENT_COLUMNS))
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .limit(q.per_page)
        .offset((q.page - 1) * q.per_page),
    );
    return { items: rows.map(paymentFromRow), total };
  }
}
