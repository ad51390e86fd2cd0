import { isOpenInvoiceStatus, Money, timestamp, type CurrencyCode, type PluginContext, type Tx } from '../../core/plugin-api.ts';

export const AUTOPAY_TOPIC = 'recurring.autopay';

/** Days after the first charge of an invoice on which a declined one is tried again (option `autopay_retry_days`). */
export const DEFAULT_RETRY_DAYS = [1, 3, 7];

export type AttemptStatus = 'scheduled' | 'submitted' | 'succeeded' | 'failed' | 'skipped';

/** One charge of an invoice's client's saved method, as REST and the Recurring screen show it. */
export interface Attempt {
  id: number;
  invoice_id: number;
  /** 0 for the charge made when the invoice was issued, then 1, 2, … for the retries. */
  attempt: number;
  status: AttemptStatus;
  /** When it is (or was) due to be made. */
  due: string;
  /** Our payment's reference (`P000123`) once the gateway was asked. */
  payment: string | null;
  note: string | null;
}

const COLUMNS = `id, invoice_id, attempt, status, due_at, payment_reference, note`;
type Row = {
  id: string;
  invoice_id: string;
  attempt: number;
  status: AttemptStatus;
  due_at: Date | string;
  payment_reference: string | null;
  note: string | null;
};
const represent = (r: Row): Attempt => ({
  id: Number(r.id),
  invoice_id: Number(r.invoice_id),
  attempt: r.attempt,
  status: r.status,
  due: timestamp(r.due_at)!.toISOString().slice(0, 19).replace('T', ' '),
  payment: r.payment_reference,
  note: r.note,
});

const keyOf = (invoiceId: number, attempt: number) => `autopay:${invoiceId}:${attempt}`;

/**
 * Called inside the transaction that generates an invoice of an `auto_charge` profile: the first
 * charge is written as a scheduled attempt and handed to its own outbox topic, so the gateway is never
 * asked inside the generation transaction and a failed call is retried by the outbox.
 */
export async function scheduleFirstCharge(ctx: PluginContext, tx: Tx, profileId: number, invoiceId: number): Promise<void> {
  const [row] = await tx.query<{ id: string }>(
    `insert into recurring_autopay_attempts (profile_id, invoice_id, attempt, due_at, status)
     values ($1, $2, 0, now(), 'scheduled') on conflict (invoice_id, attempt) do nothing returning id`,
    [profileId, invoiceId],
  );
  if (row) await enqueue(ctx, tx, Number(row.id), profileId, invoiceId, 0);
}

function enqueue(ctx: PluginContext, tx: Tx, attemptId: number, profileId: number, invoiceId: number, attempt: number) {
  // a lane per profile: one client's charges go one at a time, beside every other's
  return ctx.outbox.enqueue(tx, AUTOPAY_TOPIC, { attempt_id: attemptId, profile_id: profileId }, { key: keyOf(invoiceId, attempt) });
}

/** Whether an invoice still has money due and can take a payment now. */
function owes(invoice: { status: string; totals: { due: string }; currency: string }): boolean {
  return isOpenInvoiceStatus(invoice.status) && Money.parse(invoice.totals.due, invoice.currency as CurrencyCode).isPositive();
}

/**
 * The outbox handler of one attempt: nothing once it is past `scheduled`; skipped when the invoice was
 * paid by other means (or cancelled) meanwhile, or when the client has no saved method left (removing
 * it stops autopay); otherwise the client's saved method is charged, once per attempt however often
 * this runs (the charge is keyed by invoice and attempt). The answer comes only by the gateway's webhook.
 */
export async function chargeAttempt(ctx: PluginContext, attemptId: number): Promise<void> {
  const [a] = await ctx.db.query<Row>(`select ${COLUMNS} from recurring_autopay_attempts where id = $1`, [attemptId]);
  if (!a || a.status !== 'scheduled') return;
  const invoice = await ctx.api.invoices.get(Number(a.invoice_id));
  // issued by auto_send's mail, which runs on its own lane: until then there is nothing to charge yet
  if (invoice.status === 'draft') throw new Error(`invoice ${invoice.id} is not issued yet`);
  if (!owes(invoice)) return settle(ctx, attemptId, 'skipped', 'nothing due: paid by other means, or cancelled');
  const charged = await ctx.api.paymentMethods.charge(invoice.id, keyOf(invoice.id, a.attempt));
  if (!charged) return settle(ctx, attemptId, 'skipped', 'no saved payment method');
  await ctx.db.query(
    `update recurring_autopay_attempts set status = 'submitted', payment_reference = $2, saved_method_id = $3, updated_at = now()
      where id = $1 and status = 'scheduled'`,
    [attemptId, charged.payment.reference, charged.savedMethodId],
  );
}

async function settle(ctx: PluginContext, id: number, status: AttemptStatus, note: string | null): Promise<void> {
  await ctx.db.query(`update recurring_autopay_attempts set status = $2, note = $3, updated_at = now() where id = $1`, [id, status, note]);
}

/**
 * Job `billing_autopay_retries`: reads what the gateways' webhooks did to the submitted charges — a
 * completed payment makes its attempt `succeeded`, a failed one `failed` and schedules the next retry (`autopay_retry_days` after the first charge) while the invoice still owes money; after
 * the last retry the invoice is left to the reminders. Then every scheduled retry whose day has come is
 * handed to the outbox topic. Driven by the clock it is given, never by sleeping.
 */
export async function runRetries(ctx: PluginContext, now = new Date()): Promise<{ settled: number; scheduled: number; due: number }> {
  const days = await retryDays(ctx);
  const submitted = await ctx.db.query<Row & { profile_id: string; payment_status: string | null; first_due: Date | string }>(
    `select a.id, a.invoice_id, a.attempt, a.status, a.due_at, a.payment_reference, a.note, a.profile_id, p.status as payment_status,
            (select f.due_at from recurring_autopay_attempts f where f.invoice_id = a.invoice_id and f.attempt = 0) as first_due
       from recurring_autopay_attempts a left join billing_payments p on p.reference = a.payment_reference
      where a.status = 'submitted' and p.status in ('completed', 'refunded', 'failed', 'cancelled')
      order by a.id`,
  );
  let settled = 0;
  let scheduled = 0;
  for (const a of submitted) {
    const ok = a.payment_status === 'completed' || a.payment_status === 'refunded';
    // cancelled is ours, not the gateway's: a charge with no answer for 48 hours (a slow debit may still
    // arrive, and completes it then), so charging again could take the money twice — not retried
    const expired = a.payment_status === 'cancelled';
    const invoice = await ctx.api.invoices.get(Number(a.invoice_id));
    const retry = !ok && !expired && a.attempt < days.length && owes(invoice);
    const note = ok
      ? null
      : retry
        ? null
        : expired
          ? 'no answer from the gateway: not retried, left to the reminders'
          : owes(invoice)
            ? 'retries exhausted: left to the reminders'
            : 'nothing due any more';
    await ctx.db.transaction(async (tx) => {
      const changed = await tx.query(
        `update recurring_autopay_attempts set status = $2, note = $3, updated_at = now() where id = $1 and status = 'submitted' returning id`,
        [a.id, ok ? 'succeeded' : 'failed', note],
      );
      if (!changed.length) return; // another instance settled it
      settled++;
      if (!retry) return;
      const due = new Date(timestamp(a.first_due)!.getTime() + days[a.attempt]! * 86_400_000);
      await tx.query(
        `insert into recurring_autopay_attempts (profile_id, invoice_id, attempt, due_at, status)
         values ($1, $2, $3, $4, 'scheduled') on conflict (invoice_id, attempt) do nothing`,
        [a.profile_id, a.invoice_id, a.attempt + 1, due],
      );
      scheduled++;
    });
  }
  const ready = await ctx.db.query<{ id: string; profile_id: string; invoice_id: string; attempt: number }>(
    `select id, profile_id, invoice_id, attempt from recurring_autopay_attempts where status = 'scheduled' and due_at <= $1 order by id`,
    [now],
  );
  for (const r of ready) {
    // the outbox key names invoice and attempt: handing one over twice queues it once
    await ctx.db.transaction((tx) => enqueue(ctx, tx, Number(r.id), Number(r.profile_id), Number(r.invoice_id), r.attempt));
  }
  return { settled, scheduled, due: ready.length };
}

async function retryDays(ctx: PluginContext): Promise<number[]> {
  const v = await ctx.options.get('autopay_retry_days');
  return Array.isArray(v) ? v.filter((n): n is number => Number.isInteger(n) && n > 0) : DEFAULT_RETRY_DAYS;
}

/** A profile's attempts, newest first (`GET /recurring/{id}/autopay`). */
export async function attemptsOf(ctx: PluginContext, profileId: number, limit = 100): Promise<Attempt[]> {
  const rows = await ctx.db.query<Row>(
    `select ${COLUMNS} from recurring_autopay_attempts where profile_id = $1 order by due_at desc, id desc limit $2`,
    [profileId, limit],
  );
  return rows.map(represent);
}

/** The latest attempt of each of these profiles (the profile's `last_autopay`). */
export async function lastAttempts(ctx: PluginContext, profileIds: number[]): Promise<Map<number, Attempt>> {
  if (!profileIds.length) return new Map();
  const rows = await ctx.db.query<Row & { profile_id: string }>(
    `select distinct on (profile_id) profile_id, ${COLUMNS} from recurring_autopay_attempts
      where profile_id = any($1) order by profile_id, due_at desc, id desc`,
    [profileIds],
  );
  return new Map(rows.map((r) => [Number(r.profile_id), represent(r)]));
}

/** Whether an invoice belongs to an `auto_charge` profile (its pay page then saves what the customer pays with). */
export async function isAutopayInvoice(ctx: PluginContext, invoice: { recurringId?: number | null }): Promise<boolean> {
  if (!invoice.recurringId) return false;
  const [row] = await ctx.db.query(`select 1 from recurring_profiles where id = $1 and auto_charge`, [invoice.recurringId]);
  return Boolean(row);
}
