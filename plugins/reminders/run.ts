import {
  addDays,
  amountDueNowOf,
  owedInstalmentSql,
  owedSince,
  owedSinceSql,
  Decimal,
  isOpenInvoiceStatus,
  Money,
  OPEN_INVOICE_STATUSES,
  siteDate,
  sqlLiterals,
  type BillingDocument,
  type CurrencyCode,
  type OutboxItem,
  type PluginContext,
} from '../../core/plugin-api.ts';
import { fillHtml, fillText, normalizeSteps, plainText, type ReminderStep } from './steps.ts';
import { localized } from './texts.ts';

/** Issued invoices that still take money, as SQL: the only ones reminded or charged a fee (docs/reminders.md). */
const OPEN = sqlLiterals(OPEN_INVOICE_STATUSES);
/** Invoices handled per transaction: a run over many due invoices holds no lock for long. */
const BATCH = 500;
/**
 * Bounds of one run (docs/security.md, "Background work"): reminders queued in all, and to one address.
 * Invoices past them are reminded by the next runs (their step is not recorded until then), so one
 * customer with thousands of open invoices, or one address on thousands of invoices, cannot turn a
 * run into thousands of mails; each invoice gets at most one reminder per run (its latest due step).
 */
export const REMINDERS_PER_RUN = 2000;
export const REMINDERS_PER_ADDRESS = 10;
export const SEND_TOPIC = 'reminders.send';

export interface RunSummary {
  today: string;
  /** Invoices that got a reminder queued (one each). */
  reminded: number;
  /** Earlier steps recorded as skipped because a later one was due. */
  skipped: number;
  /** Invoices due a reminder but left to the next run by the run's bounds. */
  deferred: number;
  late_fees: number;
}

/**
 * One run of `billing_send_payment_reminders`: for every open invoice that can be due (an indexed range
 * on the due date, see the migration), applies the late fees, then records the latest step whose day
 * has come and queues its mail. The once-only guarantees are the tables' primary keys, not timing: a
 * second run at the same moment (another instance, `billing cron run`) inserts nothing and sends nothing.
 */
export async function runReminders(ctx: PluginContext, now = new Date()): Promise<RunSummary> {
  const o = await ctx.options.getMany(['timezone', 'reminder_steps', 'late_fee_enabled']);
  const today = siteDate(now, o.timezone);
  const steps = normalizeSteps(o.reminder_steps);
  const summary: RunSummary = { today, reminded: 0, skipped: 0, deferred: 0, late_fees: 0 };
  // fees first: a reminder queued in the same run then states the amount due with its fee
  if (o.late_fee_enabled) summary.late_fees = await applyLateFees(ctx, today);
  if (steps.length) {
    const { ids, total } = await reminderCandidates(ctx, steps, today);
    summary.deferred = total - ids.length;
    for (let i = 0; i < ids.length; i += BATCH) {
      const { reminded, skipped } = await recordBatch(ctx, ids.slice(i, i + BATCH), steps, today);
      summary.reminded += reminded;
      summary.skipped += skipped;
    }
  }
  return summary;
}

/** The SQL that says which step is the latest due for invoice `d` ($steps: offsets, $today: the site's date). */
const LATEST = (steps: string, today: string) => `(select max(o) from unnest(${steps}::int[]) o where ${OWED_SINCE} + o <= ${today}::date)`;

/**
 * The date invoice `d` is owed from: its due date, or with instalments the earliest unpaid one's. It is
 * never after the due date, so a scheduled invoice is read whenever its schedule may be owing.
 */
const OWED_SINCE = owedSinceSql('d');
/** Which instalment that is (0 without a schedule): each has its own series of steps. */
const OWED = owedInstalmentSql('d');
const OWING_BY = (date: string) => `(d.due_date <= ${date} or (d.schedule is not null and ${OWED_SINCE} <= ${date}))`;

/**
 * Open invoices whose latest due step is not recorded yet, within the run's bounds (oldest invoices
 * first, at most `REMINDERS_PER_ADDRESS` per address), and how many there are in all. The range
 * `due_date <= today − smallest offset` runs on the partial index of open invoices, so paid, draft and
 * trashed invoices are never read.
 */
async function reminderCandidates(ctx: PluginContext, steps: ReminderStep[], today: string): Promise<{ ids: number[]; total: number }> {
  const offsets = steps.map((s) => s.offset_days);
  const rows = await ctx.db.query<{ id: string; total: number }>(
    `select id, total from (
       select d.id, row_number() over (partition by lower(trim(d.customer_email)) order by d.id) as nth, count(*) over () as total
         from billing_documents d
        where d.kind = 'invoice' and d.trashed_at is null and d.status in (${OPEN})
          and ${OWING_BY('$1::date')} and d.due > 0 and d.customer_email <> ''
          and not exists (select 1 from reminders_sent r
                           where r.invoice_id = d.id and r.instalment = ${OWED} and r.offset_days = ${LATEST('$2', '$3')})
     ) c
     where nth <= $4 order by id limit $5`,
    [addDays(today, -offsets[0]!), offsets, today, REMINDERS_PER_ADDRESS, REMINDERS_PER_RUN],
  );
  return { ids: rows.map((r) => Number(r.id)), total: Number(rows[0]?.total ?? 0) };
}

/**
 * Records, for each invoice of the batch, its latest due step as `queued` and the earlier due steps it
 * never had as `skipped`, and queues the mail of each `queued` row in the same transaction. The insert
 * skips rows that exist: under concurrent runs the primary key (invoice, offset) lets exactly one of
 * them record a step, and only the one that recorded it queues a mail.
 */
async function recordBatch(
  ctx: PluginContext,
  ids: number[],
  steps: ReminderStep[],
  today: string,
): Promise<{ reminded: number; skipped: number }> {
  const offsets = steps.map((s) => s.offset_days);
  return ctx.db.transaction(async (tx) => {
    // the step's words are kept with the queued row, as they were when it came due: editing the
    // steps later changes no queued mail
    const rows = await tx.query<{ invoice_id: string; instalment: number; offset_days: number; status: string; recipient: string }>(
      `with due as (
         select d.id, ${OWED_SINCE} as due_date, ${OWED} as instalment, ${LATEST('$2', '$3')} as latest, lower(trim(d.customer_email)) as recipient
           from billing_documents d
          where d.id = any($1::bigint[]) and d.kind = 'invoice' and d.trashed_at is null
            and d.status in (${OPEN}) and d.due > 0 and d.customer_email <> ''
       )
       , recorded as (
         insert into reminders_sent (invoice_id, instalment, offset_days, status, subject, body)
         select due.id, due.instalment, s.o, case when s.o = due.latest then 'queued' else 'skipped' end,
                case when s.o = due.latest then s.subject else '' end, case when s.o = due.latest then s.body else '' end
           from due join unnest($2::int[], $4::text[], $5::text[]) as s(o, subject, body) on due.due_date + s.o <= $3::date
          where due.latest is not null
            and not exists (select 1 from reminders_sent r
                             where r.invoice_id = due.id and r.instalment = due.instalment and r.offset_days = due.latest)
         on conflict (invoice_id, instalment, offset_days) do nothing
         returning invoice_id, instalment, offset_days, status
       )
       select recorded.*, due.recipient from recorded join due on due.id = recorded.invoice_id`,
      [ids, offsets, today, steps.map((s) => s.subject), steps.map((s) => s.body)],
    );
    const queued = rows.filter((r) => r.status === 'queued');
    await ctx.outbox.enqueueMany(
      tx,
      queued.map((r) => ({
        topic: SEND_TOPIC,
        // `to` names the mail's lane: one address's reminders go one at a time, beside everyone else's
        payload: { invoice_id: Number(r.invoice_id), instalment: r.instalment, offset_days: r.offset_days, to: r.recipient },
        key: `reminder:${r.invoice_id}:${r.instalment}:${r.offset_days}`,
      })),
    );
    return { reminded: queued.length, skipped: rows.length - queued.length };
  });
}

interface ReminderRow {
  status: string;
  subject: string;
  body: string;
}

/**
 * The outbox handler: sends one queued reminder through the mail service (delivery log included) and
 * marks it sent. At least once, like every outbox item: a row already sent is not sent again; an
 * invoice paid, cancelled or trashed since it was queued gets nothing (`cancelled`).
 */
export async function sendReminder(item: OutboxItem, ctx: PluginContext): Promise<void> {
  const invoiceId = Number(item.payload.invoice_id);
  const offset = Number(item.payload.offset_days);
  // a row is one step of one owed date: the invoice's due date, or with instalments the one owed then
  // items queued before instalments named none: the first (the only one without a schedule)
  const instalment = Number(item.payload.instalment ?? 0);
  const [row] = await ctx.db.query<ReminderRow>(
    'select status, subject, body from reminders_sent where invoice_id = $1 and instalment = $2 and offset_days = $3',
    [invoiceId, instalment, offset],
  );
  if (!row || row.status !== 'queued') return;
  const invoice = await ctx.api.invoices.find(invoiceId);
  if (!invoice || !stillOpen(invoice) || !invoice.customer.email.trim()) {
    await ctx.db.query(`update reminders_sent set status = 'cancelled' where invoice_id = $1 and instalment = $2 and offset_days = $3`, [
      invoiceId,
      instalment,
      offset,
    ]);
    return;
  }
  const stored: ReminderStep = { offset_days: offset, subject: row.subject, body: row.body };
  // with instalments, the mail names the one owed and what is due now, not the last date and the whole rest
  const today = siteDate(new Date(), await ctx.options.get('timezone'));
  const owedFrom = owedSince(invoice, today);
  let step = stored;
  const { delivery, failure } = await ctx.api.mail.reminderMail(
    invoice,
    ({ link, companyName, tr }) => {
      // a step still worded as the default speaks the invoice's language
      step = localized(stored, tr);
      const values = {
        invoice_number: invoice.number,
        client_name: invoice.customer.name || invoice.customer.company || invoice.customer.email,
        total_amount: tr.money(invoice.totals.total, invoice.currency),
        amount_due: tr.money(amountDueNowOf(invoice, today), invoice.currency),
        due_date: owedFrom ? tr.date(owedFrom) : '',
        invoice_url: link,
        company_name: companyName,
      };
      return {
        // a header, not HTML: no escaping, but no line breaks either
        subject: fillText(step.subject, values).replace(/[\r\n]+/g, ' '),
        html: fillHtml(step.body, values),
        text: fillText(plainText(step.body), values),
      };
    },
    ctx.actor,
  );
  // a permanent refusal (5xx) is final and in the delivery log; a temporary one threw, and is retried
  await ctx.db.transaction(async (tx) => {
    await tx.query(
      `update reminders_sent set status = $4, delivery_id = $5, sent_at = now() where invoice_id = $1 and instalment = $2 and offset_days = $3`,
      [invoiceId, instalment, offset, failure ? 'failed' : 'sent', delivery.id],
    );
    if (!failure) await ctx.hooks.fire(tx, 'billing_reminder_sent', invoiceId, invoice, step);
  });
}

function stillOpen(doc: BillingDocument): boolean {
  return !doc.trashed && isOpenInvoiceStatus(doc.status) && Number(doc.totals.due) > 0;
}

/**
 * Late fees (docs/reminders.md): once per invoice, `late_fee_after_days` after the due date with money still
 * due, a non-taxable `Late fee` line. The guard row (primary key = invoice) and the line are written in
 * one transaction with the invoice locked, so concurrent runs add one fee, and a fee is never recorded
 * without its line nor the line without the guard.
 */
async function applyLateFees(ctx: PluginContext, today: string): Promise<number> {
  const o = await ctx.options.getMany(['late_fee_type', 'late_fee_amount', 'late_fee_after_days']);
  const rows = await ctx.db.query<{ id: string }>(
    `select d.id from billing_documents d
      where d.kind = 'invoice' and d.trashed_at is null and d.status in (${OPEN})
        and d.due_date <= $1::date and d.due > 0
        and not exists (select 1 from reminders_late_fees f where f.invoice_id = d.id)
      order by d.id`,
    [addDays(today, -o.late_fee_after_days)],
  );
  let applied = 0;
  for (const { id } of rows) {
    const done = await ctx.db.transaction(async (tx) => {
      const invoice = await ctx.api.invoices.find(Number(id), tx, true);
      if (!invoice || !stillOpen(invoice) || !invoice.dueDate || addDays(invoice.dueDate, o.late_fee_after_days) > today) return false;
      const currency = invoice.currency as CurrencyCode;
      const fee =
        o.late_fee_type === 'percent'
          ? Money.parse(invoice.totals.total, currency).percent(Decimal.parse(o.late_fee_amount))
          : Money.fromDecimal(Decimal.parse(o.late_fee_amount), currency);
      const [guard] = await tx.query(
        'insert into reminders_late_fees (invoice_id, amount) values ($1, $2) on conflict (invoice_id) do nothing returning invoice_id',
        [invoice.id, fee.toString()],
      );
      if (!guard) return false;
      // a fee that rounds to nothing is recorded (it was decided) but adds no line
      if (!fee.isPositive()) return false;
      const charged = await ctx.api.invoices.addCharge(tx, invoice.id, { name: 'Late fee', amount: fee.toString() }, ctx.actor);
      await ctx.hooks.fire(tx, 'billing_late_fee_applied', invoice.id, charged, fee.toString());
      return true;
    });
    if (done) applied++;
  }
  return applied;
}
