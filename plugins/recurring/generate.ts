import { BillingError, siteDate, type DocumentInput, type PluginContext } from '../../core/plugin-api.ts';
import { PROFILE_COLUMNS, schedule, type ProfileRow } from './profiles.ts';
import { expandPlaceholders } from './placeholders.ts';
import { nextDate, periodDate, servicePeriod, withinEnd } from './schedule.ts';
import { scheduleFirstCharge } from './autopay.ts';

export const SEND_TOPIC = 'recurring.send';

/**
 * Periods one run generates per profile, at most: a profile further behind (after downtime) goes on at
 * the next run, an hour later, so one profile can never turn one run into thousands of invoices and mails.
 */
export const PERIODS_PER_RUN = 12;

export interface GenerationResult {
  generated: number;
  failed: number;
  profiles: number;
  /** Profiles that reached `PERIODS_PER_RUN` with periods still due: the next run goes on with them. */
  behind: number;
}

type Step = { kind: 'generated'; invoiceId: number } | { kind: 'idle' };

/**
 * `billing_generate_recurring_invoices`: for every active profile, one invoice for each period whose date
 * has come in the site timezone, oldest first, so runs after downtime catch every missed period up — at
 * most `PERIODS_PER_RUN` of them per profile and run.
 *
 * Each period is one transaction: the profile row is locked (`skip locked`: another instance at work on
 * it is left to finish), the invoice is created through the invoice service with the period's date and
 * the service period it bills (its template's placeholders expanded),
 * and the row of (profile, period date) is written under a unique key: a second invoice for a period
 * cannot commit, whatever runs at once or repeats. A failing profile records its error and the run goes
 * on with the others.
 */
export async function generateDue(ctx: PluginContext, now = new Date()): Promise<GenerationResult> {
  const today = siteDate(now, await ctx.options.get('timezone'));
  const due = await ctx.db.query<{ id: string }>(
    `select id from recurring_profiles where status = 'active' and next_date <= $1::date order by next_date, id`,
    [today],
  );
  const result: GenerationResult = { generated: 0, failed: 0, profiles: due.length, behind: 0 };
  for (const { id } of due) {
    try {
      let periods = 0;
      for (;;) {
        if (periods === PERIODS_PER_RUN) {
          // still due ones are left for the next run (next_date tells, without generating one more)
          const [left] = await ctx.db.query(
            `select 1 from recurring_profiles where id = $1 and status = 'active' and next_date <= $2::date`,
            [id, today],
          );
          if (left) result.behind++;
          break;
        }
        const step = await generateOne(ctx, Number(id), today);
        if (step.kind === 'idle') break;
        result.generated++;
        periods++;
      }
    } catch (err) {
      result.failed++;
      await recordError(ctx, Number(id), err);
    }
  }
  return result;
}

async function generateOne(ctx: PluginContext, id: number, today: string): Promise<Step> {
  // The invoice's language is read before the transaction, not inside it: the client and the site's
  // wording are read through the service API, on connections of their own, and the embedded database
  // runs one transaction at a time — a read waiting for this transaction inside it would wait forever.
  const [current] = await ctx.db.query<{ template: unknown }>('select template from recurring_profiles where id = $1', [id]);
  const locale = current ? await templateLocale(ctx, current.template as DocumentInput) : 'en';
  try {
    return await ctx.db.transaction(async (tx): Promise<Step> => {
      const rows = await tx.query<ProfileRow>(
        `select ${PROFILE_COLUMNS} from recurring_profiles where id = $1 and status = 'active' for update skip locked`,
        [id],
      );
      const r = rows[0];
      if (!r) return { kind: 'idle' }; // paused, deleted, or another instance is generating it now
      const s = schedule(r);
      const n = r.next_period;
      if (!withinEnd(s, n, r.generated_count)) {
        await tx.query(`update recurring_profiles set status = 'finished', next_date = null, updated_at = now() where id = $1`, [id]);
        return { kind: 'idle' };
      }
      const date = periodDate(s.start_date, s.frequency, n);
      if (date > today) {
        await tx.query('update recurring_profiles set next_date = $2 where id = $1 and next_date is distinct from $2', [id, date]);
        return { kind: 'idle' };
      }
      const template = r.template as unknown as DocumentInput;
      // without auto_send the invoice is issued unless the template says draft; with it, sending issues it
      const status = r.auto_send ? 'draft' : template.status === 'draft' ? 'draft' : 'available';
      const period = servicePeriod(s, n);
      const input: DocumentInput = {
        ...periodTemplate(template, period, locale),
        issue_date: date,
        due_date: undefined,
        period_start: period.start,
        period_end: period.end,
        status,
      };
      // the invoice is the profile creator's, as if they had made it: under an own scope they see it
      const invoice = await ctx.api.invoices.createIn(tx, input, {
        actor: ctx.actor,
        source: 'recurring',
        recurringId: id,
        owner: r.created_by,
      });
      // the guarantee: one row per (profile, period date), refused by the database for a second invoice
      await tx.query('insert into recurring_periods (profile_id, period_date, period, invoice_id) values ($1, $2, $3, $4)', [
        id,
        date,
        n,
        invoice.id,
      ]);
      const next = nextDate(s, n + 1, r.generated_count + 1);
      await tx.query(
        `update recurring_profiles
            set next_period = $2, generated_count = generated_count + 1, last_invoice_id = $3, next_date = $4,
                status = $5, last_error = null, updated_at = now()
          where id = $1`,
        [id, n + 1, invoice.id, next, next === null ? 'finished' : 'active'],
      );
      if (r.auto_send)
        await ctx.outbox.enqueue(tx, SEND_TOPIC, { invoice_id: invoice.id, profile_id: id }, { key: `recurring-send:${invoice.id}` });
      if (r.auto_charge) await scheduleFirstCharge(ctx, tx, id, invoice.id);
      return { kind: 'generated', invoiceId: invoice.id };
    });
  } catch (err) {
    // another run committed this period first (only possible if the lock was bypassed): nothing was
    // created here, the number went back with the rollback, and the profile is simply up to date
    if ((err as { code?: string }).code === '23505' && String((err as Error).message).includes('recurring_periods')) {
      return { kind: 'idle' };
    }
    throw err;
  }
}

/**
 * The language the invoice will print in, which its placeholders are expanded in: the template's own,
 * else its client's, else the site's (as the invoice service decides it), a language not shipped
 * reading as English.
 */
async function templateLocale(ctx: PluginContext, template: DocumentInput): Promise<string> {
  const own = template.locale ?? (template.client_id ? await clientLocale(ctx, template.client_id) : null);
  return (await ctx.api.translations.translator(own)).locale;
}

/** A client's language; none for a client that is gone, whose absence the invoice service then reports. */
async function clientLocale(ctx: PluginContext, id: number): Promise<string | null> {
  try {
    return (await ctx.api.clients.get(id)).locale;
  } catch (err) {
    if (err instanceof BillingError && err.code === 'billing_rest_not_found') return null;
    throw err;
  }
}

/** The template with its title, item names and descriptions saying which period they bill. */
function periodTemplate(template: DocumentInput, period: { start: string; end: string }, locale: string): DocumentInput {
  const expand = (text: string | undefined) => (text === undefined ? undefined : expandPlaceholders(text, period, locale));
  return {
    ...template,
    title: expand(template.title),
    items: template.items.map((i) => ({ ...i, name: expand(i.name)!, description: expand(i.description) })),
  };
}

/** The error of a profile's last attempt, kept on the profile (`last_error`); its next run tries again. */
export async function recordError(ctx: PluginContext, id: number, err: unknown): Promise<void> {
  const code = err instanceof BillingError ? err.code : 'billing_internal';
  const message = err instanceof Error ? err.message : String(err);
  if (!(err instanceof BillingError)) ctx.log.error({ err, profile: id }, 'recurring generation failed');
  await ctx.db.query(`update recurring_profiles set last_error = $2 where id = $1`, [
    id,
    JSON.stringify({ code, message: message.slice(0, 500), at: new Date().toISOString() }),
  ]);
}
