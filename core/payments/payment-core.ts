import { audit, type Actor } from '../audit/audit.ts';
import { statement, type Database, type Tx } from '../db/database.ts';
import type { BillingDocument } from '../documents/document.ts';
import type { InvoiceService } from '../documents/invoice-service.ts';
import { BillingError } from '../errors.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import { InvalidAmountError, Money, isCurrency, type CurrencyCode, type DecimalInput } from '../money/index.ts';
import { invalidParam } from '../validation/invalid-param.ts';
import {
  isOffline,
  PAYMENT_COLUMNS,
  paymentFromRow,
  RECEIVED_PAYMENT_STATUSES,
  type GatewayMethod,
  type Payment,
  type PaymentMethod,
} from './payment.ts';
import { lockInvoice, settleInvoice } from './settlement.ts';

/**
 * A payment named by its id, by its reference (what gateways carry in their metadata), or by a
 * gateway's own id for it (`transaction_id`) within one method — how a gateway names money its success
 * events recorded without a reference of ours (A's `billing_invoice_id`).
 */
export type PaymentRef = { id: number } | { reference: string } | { transactionId: string; method: string };

interface Keyed {
  /**
   * The event's external key: a gateway's event id, or a transaction id. Stored with a unique
   * constraint in the transaction that applies the event, before it is applied: the same key applied
   * again, even concurrently, changes nothing and answers `duplicate`.
   */
  key?: string;
}

/** A new payment against an invoice: pending (awaiting its money) or completed (money received). */
export interface RecordCommand extends Keyed {
  action: 'record';
  invoiceId: number;
  amount: DecimalInput;
  /** Default: the invoice's currency. Another currency is recorded pending, for review. */
  currency?: string;
  method: PaymentMethod;
  status: 'pending' | 'completed';
  /** When the money was received (completed) or the payment made; default now. */
  date?: Date;
  transactionId?: string | null;
  notes?: string;
  /**
   * A checkout (a pending payment the pay route starts): the invoice's other pending payments of this
   * method are cancelled under the same lock, and the amount must still be due — so concurrent pays
   * leave one pending checkout per invoice and method, never one per request.
   */
  supersede?: boolean;
}

/**
 * Money received for a pending (or failed, or cancelled) payment. With `amount` / `currency`, they must
 * match the payment's: a mismatch records the event, marks the payment for review and completes nothing.
 */
export interface CompleteCommand extends Keyed {
  action: 'complete';
  payment: PaymentRef;
  amount?: DecimalInput;
  currency?: string;
  transactionId?: string | null;
  date?: Date;
}

/** The payment did not go through. A completed payment never goes back: then this is ignored. */
export interface FailCommand extends Keyed {
  action: 'fail';
  payment: PaymentRef;
  reason?: string;
}

/**
 * A pending payment will not be paid (a checkout the gateway could not create, one replaced by a newer
 * checkout, an abandoned one). Only a pending payment is cancelled; money that arrives for it later
 * completes it all the same.
 */
export interface CancelCommand extends Keyed {
  action: 'cancel';
  payment: PaymentRef;
  reason?: string;
}

/** Gives back `amount` of a received payment (at most what is left of it). */
export interface RefundCommand extends Keyed {
  action: 'refund';
  payment: PaymentRef;
  amount: DecimalInput;
  reason: string;
}

/**
 * Raises the amount refunded so far to `refundedTotal`, as gateways report it (a cumulative
 * `amount_refunded`); nothing when it is already there.
 */
export interface RefundToCommand extends Keyed {
  action: 'refund_to';
  payment: PaymentRef;
  refundedTotal: DecimalInput;
  reason?: string;
}

/** The closed set of things that can happen to a payment, whatever its source. */
export type PaymentCommand = RecordCommand | CompleteCommand | FailCommand | CancelCommand | RefundCommand | RefundToCommand;

/**
 * Who applies the command. `admin`: a user holding `bill_record_payment` / `bill_refund_payment`
 * (REST, AJAX, CLI, in-process code): any payment. `gateway`: a gateway plugin translating its events,
 * only for payments of its own method (so offline payments are completed only by an administrator).
 * `statement`: money a bank statement shows received, imported by a user holding `bill_record_payment`
 * (the bank-transfer plugin): only completed `bank_transfer` payments, each under the entry's key; more
 * than is due is held for review as a gateway's overpayment is, since nobody chose that amount.
 */
export type PaymentOrigin =
  | { channel: 'admin'; actor: Actor }
  | { channel: 'gateway'; method: GatewayMethod; actor?: Actor }
  | { channel: 'statement'; actor: Actor };

/** Whether a payment method exists now: an offline method or an active gateway's (an open registry). */
export type MethodRegistry = (method: string) => boolean;

/**
 * - `applied`: the command changed the payment (and the invoice's money and status).
 * - `duplicate`: its key was applied before; `payment` is the one that key concerned.
 * - `unchanged`: already so (completing a completed payment, failing a failed one, refunding to a total already reached).
 * - `review`: a gateway confirmed another amount or currency; the payment is marked for review.
 * - `ignored`: a gateway event that does not apply (unknown payment or invoice, another method's
 *   payment, a failure of a completed payment). Gateways answer 200 either way.
 */
export type PaymentResult = 'applied' | 'duplicate' | 'unchanged' | 'review' | 'ignored';

export interface PaymentOutcome {
  result: PaymentResult;
  payment: Payment | null;
  invoice: BillingDocument | null;
  /** Why nothing was applied (`unchanged`, `review`, `ignored`). */
  note?: string;
}

/** A gateway's event that records a payment: its key, and the id the payment will have (a replay finds it). */
const RECORD_EVENT = statement(
  'payment_event_record',
  `insert into billing_payment_events (key, action, invoice_id, payment_id)
   values ($1, 'record', $2, nextval('billing_payments_id_seq')) on conflict (key) do nothing returning payment_id`,
);

/** A payment, numbered `P000123` from its id (reserved by the caller when it is known, else taken). */
const PAYMENT_INSERT = statement(
  'payment_insert',
  `insert into billing_payments (id, reference, invoice_id, amount, currency, method, status, transaction_id, date,
                                 notes, review, created_by, completed_at, refunded)
   select n, 'P' || lpad(n::text, greatest(6, length(n::text)), '0'), $2, $3, $4, $5, $6, $7, coalesce($8::timestamptz, now()),
          $9, $10, $11, case when $6 = 'completed' then now() end, $12
     from (select coalesce($1::bigint, nextval('billing_payments_id_seq')) as n) s
   returning ${PAYMENT_COLUMNS}`,
);

const MAX_KEY_LENGTH = 200;

export const invalidState = (message: string) => new BillingError('billing_rest_invalid_state', message);
export const amountExceeds = (message: string, max: Money) =>
  new BillingError('billing_rest_amount_exceeds', message, { max: max.toNumber() });

/**
 * The payment core: the one function that applies a payment, a failure or a refund, for every source —
 * offline payments recorded by administrators now, every gateway's webhooks later. In one transaction
 * it locks the invoice row, stores the event's external key (unique), writes the payment, recomputes
 * the invoice's totals from its rows and moves its status, and writes the audit log. Actions fire after
 * commit. See docs/payments.md for the contract gateway plugins rely on.
 */
export class PaymentCore {
  private readonly db: Database;
  private readonly hooks: HookRegistry;
  private readonly invoices: InvoiceService;
  private readonly methods: MethodRegistry;

  constructor(deps: { db: Database; hooks: HookRegistry; invoices: InvoiceService; methods?: MethodRegistry }) {
    this.db = deps.db;
    this.hooks = deps.hooks;
    this.invoices = deps.invoices;
    this.methods = deps.methods ?? isOffline;
  }

  /**
   * Applies `command`. Throws a BillingError when the command is refused: 404 `billing_rest_not_found`
   * (admin channel; a gateway gets `ignored`), 409 `billing_rest_invalid_state` (a payment against a
   * draft, a pending payment against a cancelled invoice, a refund of money not received), 400
   * `billing_rest_amount_exceeds` (a refund above what is left, an administrator's payment above what
   * is due), 400 `rest_invalid_param` (an unusable amount). A refused command writes nothing, its key
   * included, so it can be retried.
   */
  async apply(command: PaymentCommand, origin: PaymentOrigin): Promise<PaymentOutcome> {
    if (command.key !== undefined && (typeof command.key !== 'string' || !command.key.length || command.key.length > MAX_KEY_LENGTH)) {
      throw new BillingError('billing_invalid_argument', `An external key is 1 to ${MAX_KEY_LENGTH} characters.`);
    }
    if (origin.channel === 'statement' && command.action !== 'record') {
      throw new BillingError('billing_invalid_argument', 'A bank statement only records payments.');
    }
    const actor = origin.actor ?? { id: null, name: origin.channel === 'gateway' ? origin.method : 'system' };
    return this.db.transaction(async (tx) => {
      if (command.action === 'record') return this.record(tx, command, origin, actor);
      const located = await this.locate(tx, command.payment);
      if (!located) return missing(origin, 'payment');
      const invoice = await lockInvoice(tx, located.invoiceId);
      if (!invoice) return missing(origin, 'invoice');
      if (command.key !== undefined) {
        const stored = await tx.query(
          `insert into billing_payment_events (key, action, invoice_id, payment_id) values ($1, $2, $3, $4)
           on conflict (key) do nothing returning key`,
          [command.key, command.action, invoice.id, located.id],
        );
        if (!stored.length) return this.duplicate(tx, command.key, invoice);
      }
      // read after the lock: every write to a payment holds its invoice's lock, so this is current
      const payment = (await this.readPayments(tx, 'id = $1', [located.id]))[0]!;
      if (origin.channel === 'gateway' && payment.method !== origin.method) {
        return { result: 'ignored', payment, invoice, note: `payment ${payment.reference} is not a ${origin.method} payment` };
      }
      switch (command.action) {
        case 'complete':
          return this.complete(tx, command, origin, invoice, payment, actor);
        case 'fail':
          return this.fail(tx, command, invoice, payment, actor);
        case 'cancel':
          return this.cancel(tx, command, invoice, payment, actor);
        case 'refund':
        case 'refund_to':
          return this.refund(tx, command, origin, invoice, payment, actor);
      }
    });
  }

  /**
   * Cancels an issued invoice on which nothing is paid (an administrator's action): its pending
   * payments are cancelled with it. A draft (trash it instead) or an invoice with money paid (refund or
   * credit it) is 409 `billing_rest_invalid_state`; an invoice already cancelled is answered as it is.
   */
  async cancelInvoice(invoiceId: number, actor: Actor, reason = ''): Promise<BillingDocument> {
    return this.db.transaction(async (tx) => {
      const invoice = await lockInvoice(tx, invoiceId);
      if (!invoice || invoice.trashed) throw notFound('invoice');
      if (invoice.status === 'cancelled') return invoice;
      if (invoice.status === 'draft') throw invalidState('A draft is not issued, so it cannot be cancelled: move it to the trash instead.');
      if (!money(invoice.totals.paid, invoice.currency).isZero()) {
        throw invalidState('An invoice with payments cannot be cancelled: refund the payments or issue a credit note.');
      }
      const voided = await tx.query<{ reference: string }>(
        `update billing_payments set status = 'cancelled', updated_at = now() where invoice_id = $1 and status = 'pending' returning reference`,
        [invoice.id],
      );
      await audit(tx, actor, {
        action: 'invoice.cancel',
        objectType: 'invoice',
        objectId: invoice.id,
        details: { reason, cancelled_payments: voided.map((r) => r.reference) },
      });
      return this.invoices.setStatus(tx, invoice, 'cancelled', actor);
    });
  }

  private async record(tx: Tx, cmd: RecordCommand, origin: PaymentOrigin, actor: Actor): Promise<PaymentOutcome> {
    if (origin.channel === 'gateway' && cmd.method !== origin.method) {
      throw new BillingError('billing_invalid_argument', `${origin.method} can only record ${origin.method} payments.`);
    }
    if (origin.channel === 'statement' && (cmd.method !== 'bank_transfer' || cmd.status !== 'completed' || cmd.key === undefined)) {
      throw new BillingError(
        'billing_invalid_argument',
        'A bank statement records completed bank_transfer payments, each under its entry key.',
      );
    }
    if (!this.methods(cmd.method)) throw invalidParam('method', `There is no payment method ${cmd.method} (or its gateway is not active).`);
    const invoice = await lockInvoice(tx, cmd.invoiceId);
    if (!invoice || (origin.channel !== 'gateway' && invoice.trashed)) return missing(origin, 'invoice');
    let id: number | null = null;
    if (cmd.key !== undefined) {
      const stored = await tx.query<{ payment_id: string }>(RECORD_EVENT, [cmd.key, invoice.id]);
      if (!stored.length) return this.duplicate(tx, cmd.key, invoice);
      id = Number(stored[0]!.payment_id);
    }
    if (invoice.status === 'draft') throw invalidState('Payments against a draft are refused: issue the invoice first.');

    const currency = cmd.currency ?? invoice.currency;
    if (!isCurrency(currency)) throw invalidParam('currency', `currency ${currency} is not an ISO 4217 code.`);
    const amount = positiveAmount(cmd.amount, currency);
    let status: 'pending' | 'completed' = cmd.status;
    let review: string | null = null;
    if (currency !== invoice.currency) {
      if (origin.channel !== 'gateway')
        throw invalidParam('currency', `The payment must be in the invoice's currency, ${invoice.currency}.`);
      review = `received ${amount} ${currency} for an invoice in ${invoice.currency}`;
      status = 'pending';
    }
    if (status === 'pending' && invoice.status === 'cancelled') {
      throw invalidState('The invoice is cancelled: it takes no new payment.');
    }
    const due = money(invoice.totals.due, invoice.currency);
    if ((origin.channel === 'admin' || cmd.supersede) && !review) {
      if (cmd.supersede && due.isZero()) throw invalidState('The invoice has nothing left to pay.');
      if (amount.greaterThan(due))
        throw amountExceeds(`The payment (${amount}) is above the amount due (${due} ${invoice.currency}).`, due);
    }
    if (!review && status === 'completed' && origin.channel !== 'admin') {
      review = overpaid(invoice, amount);
      if (review) status = 'pending';
    }
    if (cmd.supersede && status === 'pending') await this.supersede(tx, invoice, cmd.method, actor);

    const rows = await tx.query(PAYMENT_INSERT, [
      id,
      invoice.id,
      amount.toString(),
      currency,
      cmd.method,
      status,
      cmd.transactionId || null,
      cmd.date ?? null,
      cmd.notes ?? '',
      review,
      actor.id,
      Money.zero(currency).toString(),
    ]);
    const payment = paymentFromRow(rows[0]!);
    await audit(tx, actor, {
      action: 'payment.record',
      objectType: 'payment',
      objectId: payment.id,
      details: {
        invoice_id: invoice.id,
        reference: payment.reference,
        amount: payment.amount,
        currency,
        method: payment.method,
        status,
        key: cmd.key ?? null,
      },
    });
    if (review) {
      await audit(tx, actor, { action: 'payment.review', objectType: 'payment', objectId: payment.id, details: { reason: review } });
      return { result: 'review', payment, invoice, note: review };
    }
    if (status === 'pending') return { result: 'applied', payment, invoice };
    return this.received(tx, invoice, payment, actor);
  }

  private async complete(
    tx: Tx,
    cmd: CompleteCommand,
    origin: PaymentOrigin,
    invoice: BillingDocument,
    payment: Payment,
    actor: Actor,
  ): Promise<PaymentOutcome> {
    if (RECEIVED_PAYMENT_STATUSES.includes(payment.status))
      return { result: 'unchanged', payment, invoice, note: `payment ${payment.reference} is already ${payment.status}` };
    // an administrator completing a payment decides (it is how a payment held for review is accepted)
    const mismatch =
      this.mismatch(cmd, payment) ?? (origin.channel === 'gateway' ? overpaid(invoice, money(payment.amount, payment.currency)) : null);
    if (mismatch) {
      const rows = await tx.query(
        `update billing_payments set review = $2, updated_at = now() where id = $1 returning ${PAYMENT_COLUMNS}`,
        [payment.id, mismatch],
      );
      await audit(tx, actor, {
        action: 'payment.review',
        objectType: 'payment',
        objectId: payment.id,
        details: { reason: mismatch, key: cmd.key ?? null },
      });
      return { result: 'review', payment: paymentFromRow(rows[0]!), invoice, note: mismatch };
    }
    const rows = await tx.query(
      `update billing_payments set status = 'completed', completed_at = now(), date = coalesce($2::timestamptz, now()),
              transaction_id = coalesce($3, transaction_id), review = null, updated_at = now()
        where id = $1 returning ${PAYMENT_COLUMNS}`,
      [payment.id, cmd.date ?? null, cmd.transactionId || null],
    );
    const completed = paymentFromRow(rows[0]!);
    await audit(tx, actor, {
      action: 'payment.complete',
      objectType: 'payment',
      objectId: payment.id,
      details: { invoice_id: invoice.id, reference: payment.reference, from: payment.status, amount: payment.amount, key: cmd.key ?? null },
    });
    return this.received(tx, invoice, completed, actor);
  }

  /** Why a gateway's confirmation does not match the payment, or null. */
  private mismatch(cmd: CompleteCommand, payment: Payment): string | null {
    if (cmd.currency !== undefined && cmd.currency !== payment.currency) {
      return `confirmed in ${String(cmd.currency)}, expected ${payment.currency}`;
    }
    if (cmd.amount === undefined) return null;
    try {
      const confirmed = Money.parse(cmd.amount, payment.currency as CurrencyCode);
      if (confirmed.equals(money(payment.amount, payment.currency))) return null;
      return `confirmed ${confirmed} ${payment.currency}, expected ${payment.amount}`;
    } catch (e) {
      if (e instanceof InvalidAmountError) return `confirmed an unreadable amount (${String(cmd.amount)}), expected ${payment.amount}`;
      throw e;
    }
  }

  /** Money arrived for `payment`: flags it if the invoice no longer expects money, settles, fires the actions. */
  private async received(tx: Tx, invoice: BillingDocument, payment: Payment, actor: Actor): Promise<PaymentOutcome> {
    if (invoice.status === 'cancelled' || invoice.trashed) {
      // money is always recorded; a person has to decide what to do with it (usually a refund)
      await audit(tx, actor, {
        action: invoice.trashed ? 'payment.received_for_trashed_invoice' : 'payment.received_after_cancellation',
        objectType: 'payment',
        objectId: payment.id,
        details: { invoice_id: invoice.id, reference: payment.reference, amount: payment.amount, currency: payment.currency },
      });
    }
    const settled = await settleInvoice(tx, this.invoices, invoice, actor);
    await this.hooks.fire(tx, 'billing_payment_completed', settled.id, settled, payment);
    if (!money(settled.totals.due, settled.currency).isZero()) {
      await this.hooks.fire(tx, 'billing_payment_received', settled.id, settled, payment);
    }
    return { result: 'applied', payment, invoice: settled };
  }

  private async fail(tx: Tx, cmd: FailCommand, invoice: BillingDocument, payment: Payment, actor: Actor): Promise<PaymentOutcome> {
    if (RECEIVED_PAYMENT_STATUSES.includes(payment.status)) {
      await audit(tx, actor, {
        action: 'payment.fail_ignored',
        objectType: 'payment',
        objectId: payment.id,
        details: { reference: payment.reference, status: payment.status, reason: cmd.reason ?? '', key: cmd.key ?? null },
      });
      return {
        result: 'ignored',
        payment,
        invoice,
        note: `payment ${payment.reference} is ${payment.status}: a received payment never goes back`,
      };
    }
    if (payment.status !== 'pending')
      return { result: 'unchanged', payment, invoice, note: `payment ${payment.reference} is already ${payment.status}` };
    const rows = await tx.query(
      `update billing_payments set status = 'failed', updated_at = now() where id = $1 returning ${PAYMENT_COLUMNS}`,
      [payment.id],
    );
    const failed = paymentFromRow(rows[0]!);
    await audit(tx, actor, {
      action: 'payment.fail',
      objectType: 'payment',
      objectId: payment.id,
      details: { invoice_id: invoice.id, reference: payment.reference, reason: cmd.reason ?? '', key: cmd.key ?? null },
    });
    await this.hooks.fire(tx, 'billing_payment_failed', invoice.id, invoice, failed);
    return { result: 'applied', payment: failed, invoice };
  }

  private async cancel(tx: Tx, cmd: CancelCommand, invoice: BillingDocument, payment: Payment, actor: Actor): Promise<PaymentOutcome> {
    if (payment.status !== 'pending')
      return { result: 'unchanged', payment, invoice, note: `payment ${payment.reference} is ${payment.status}` };
    const rows = await tx.query(
      `update billing_payments set status = 'cancelled', updated_at = now() where id = $1 returning ${PAYMENT_COLUMNS}`,
      [payment.id],
    );
    await audit(tx, actor, {
      action: 'payment.cancel',
      objectType: 'payment',
      objectId: payment.id,
      details: { invoice_id: invoice.id, reference: payment.reference, reason: cmd.reason ?? '', key: cmd.key ?? null },
    });
    return { result: 'applied', payment: paymentFromRow(rows[0]!), invoice };
  }

  private async refund(
    tx: Tx,
    cmd: RefundCommand | RefundToCommand,
    origin: PaymentOrigin,
    invoice: BillingDocument,
    payment: Payment,
    actor: Actor,
  ): Promise<PaymentOutcome> {
    if (!RECEIVED_PAYMENT_STATUSES.includes(payment.status)) {
      if (origin.channel === 'gateway')
        return { result: 'ignored', payment, invoice, note: `payment ${payment.reference} is ${payment.status}: nothing to refund` };
      throw invalidState(`Payment ${payment.reference} is ${payment.status}: only received money can be refunded.`);
    }
    const currency = payment.currency as CurrencyCode;
    const amount = money(payment.amount, currency);
    const refunded = money(payment.refunded, currency);
    const left = amount.minus(refunded);
    let give: Money;
    if (cmd.action === 'refund') {
      give = positiveAmount(cmd.amount, currency);
    } else {
      const target = Money.parse(cmd.refundedTotal, currency, 'amount');
      if (target.lessThanOrEqual(refunded)) return { result: 'unchanged', payment, invoice, note: `${refunded} is already refunded` };
      give = target.minus(refunded);
    }
    if (give.greaterThan(left)) {
      throw amountExceeds(`The refund (${give}) is above what is left of payment ${payment.reference} (${left} ${currency}).`, left);
    }
    const reason = (cmd.reason ?? '').trim() || (origin.channel === 'gateway' ? `refunded through ${origin.method}` : '');
    if (!reason) throw invalidParam('reason', 'A refund needs a reason.');
    await tx.query('insert into billing_payment_refunds (payment_id, amount, reason, actor) values ($1, $2, $3, $4)', [
      payment.id,
      give.toString(),
      reason,
      actor.name,
    ]);
    const rows = await tx.query(
      `update billing_payments set refunded = refunded + $2::numeric,
              status = case when refunded + $2::numeric = amount then 'refunded' else status end, updated_at = now()
        where id = $1 returning ${PAYMENT_COLUMNS}`,
      [payment.id, give.toString()],
    );
    const after = paymentFromRow(rows[0]!);
    await audit(tx, actor, {
      action: 'payment.refund',
      objectType: 'payment',
      objectId: payment.id,
      details: {
        invoice_id: invoice.id,
        reference: payment.reference,
        amount: give.toString(),
        refunded: after.refunded,
        reason,
        key: cmd.key ?? null,
      },
    });
    const settled = await settleInvoice(tx, this.invoices, invoice, actor);
    await this.hooks.fire(tx, 'billing_payment_refunded', settled.id, settled, after);
    return { result: 'applied', payment: after, invoice: settled };
  }

  /** Cancels the invoice's pending payments of `method` that wait for no person (a newer checkout replaces them). */
  private async supersede(tx: Tx, invoice: BillingDocument, method: string, actor: Actor): Promise<void> {
    const older = await tx.query<{ id: string; reference: string }>(
      `update billing_payments set status = 'cancelled', updated_at = now()
        where invoice_id = $1 and method = $2 and status = 'pending' and review is null returning id, reference`,
      [invoice.id, method],
    );
    for (const o of older) {
      await audit(tx, actor, {
        action: 'payment.cancel',
        objectType: 'payment',
        objectId: Number(o.id),
        details: { invoice_id: invoice.id, reference: o.reference, reason: 'replaced by a newer checkout', key: null },
      });
    }
  }

  private async locate(tx: Tx, ref: PaymentRef): Promise<{ id: number; invoiceId: number } | null> {
    let rows: Array<{ id: string; invoice_id: string }>;
    if ('id' in ref) {
      if (!Number.isSafeInteger(ref.id) || ref.id < 1) return null;
      rows = await tx.query('select id, invoice_id from billing_payments where id = $1', [ref.id]);
    } else if ('reference' in ref) {
      if (typeof ref.reference !== 'string') return null;
      rows = await tx.query('select id, invoice_id from billing_payments where reference = $1', [ref.reference]);
    } else {
      if (typeof ref.transactionId !== 'string' || !ref.transactionId || typeof ref.method !== 'string') return null;
      // two payments with one gateway id cannot be told apart: then neither is touched
      rows = await tx.query('select id, invoice_id from billing_payments where transaction_id = $1 and method = $2 limit 2', [
        ref.transactionId,
        ref.method,
      ]);
      if (rows.length > 1) return null;
    }
    return rows.length ? { id: Number(rows[0]!.id), invoiceId: Number(rows[0]!.invoice_id) } : null;
  }

  private async readPayments(tx: Tx, where: string, params: unknown[]): Promise<Payment[]> {
    return (await tx.query(`select ${PAYMENT_COLUMNS} from billing_payments where ${where}`, params)).map(paymentFromRow);
  }

  /** A key seen before: the payment it concerned, as it is now, and nothing written. */
  private async duplicate(tx: Tx, key: string, invoice: BillingDocument): Promise<PaymentOutcome> {
    const rows = await this.readPayments(tx, 'id = (select payment_id from billing_payment_events where key = $1)', [key]);
    return { result: 'duplicate', payment: rows[0] ?? null, invoice, note: `key ${key} was applied before` };
  }
}

/**
 * Why money a gateway confirms for a live invoice is held for review instead of counted: it is more
 * than the invoice still has due (a second checkout paid too, money for an invoice already paid).
 * Booking it would make `paid` exceed what was asked; a person refunds it or accepts it by completing
 * the payment by hand. A cancelled or trashed invoice expects no money at all: what arrives there is
 * recorded and flagged as such (statuses.md rows 30 and 37).
 */
function overpaid(invoice: BillingDocument, amount: Money): string | null {
  if (invoice.status === 'cancelled' || invoice.trashed) return null;
  const due = money(invoice.totals.due, invoice.currency);
  if (!amount.greaterThan(due)) return null;
  return `overpaid: received ${amount} ${invoice.currency} when ${due} was due`;
}

function money(value: string, currency: string): Money {
  return Money.parse(value, currency as CurrencyCode, 'amount');
}

/** An amount of `currency` above zero, else 400 `rest_invalid_param` on `amount`. */
function positiveAmount(value: DecimalInput, currency: CurrencyCode): Money {
  const amount = Money.parse(value, currency, 'amount');
  if (!amount.isPositive()) throw new InvalidAmountError('amount', 'not_positive', 'amount must be greater than 0.');
  return amount;
}

export function notFound(what: 'invoice' | 'payment'): BillingError {
  return new BillingError('billing_rest_not_found', what === 'invoice' ? 'No document has this id.' : 'No payment has this id.');
}

function missing(origin: PaymentOrigin, what: 'invoice' | 'payment'): PaymentOutcome {
  if (origin.channel === 'admin') throw notFound(what);
  return { result: 'ignored', payment: null, invoice: null, note: `unknown ${what}` };
}
