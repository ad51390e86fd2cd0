import {
  BillingError,
  DOCUMENT_ARGS,
  audit,
  checkArgs,
  siteDate,
  type Actor,
  type ArgSchema,
  type ListScope,
  type PluginContext,
  type Tx,
} from '../../core/plugin-api.ts';
import { lastAttempts, type Attempt } from './autopay.ts';
import { FREQUENCIES, firstPeriodFrom, nextDate, startsTooFarBack, type End, type Frequency, type Schedule } from './schedule.ts';

export type ProfileStatus = 'active' | 'paused' | 'finished';

/** A profile as REST shows it (docs/recurring.md), plus the last generation error. */
export interface Profile {
  id: number;
  status: ProfileStatus;
  template: Record<string, unknown>;
  frequency: Frequency;
  start_date: string;
  end: End;
  next_date: string | null;
  generated_count: number;
  last_invoice_id: number | null;
  auto_send: boolean;
  auto_charge: boolean;
  /** The latest autopay charge of the profile's invoices, or null. */
  last_autopay: Attempt | null;
  last_error: { message: string; code: string; at: string } | null;
  created: string;
}

export interface ProfileRow {
  id: string;
  status: ProfileStatus;
  template: Record<string, unknown>;
  frequency: Frequency;
  start_date: string;
  end_rule: End;
  next_period: number;
  next_date: string | null;
  generated_count: number;
  last_invoice_id: string | null;
  auto_send: boolean;
  auto_charge: boolean;
  last_error: { message: string; code: string; at: string } | null;
  created_by: number | null;
  created_at: Date;
}

export const PROFILE_COLUMNS = `id, status, template, frequency, start_date::text, end_rule, next_period, next_date::text,
  generated_count, last_invoice_id, auto_send, auto_charge, last_error, created_by, created_at`;

export const schedule = (r: Pick<ProfileRow, 'start_date' | 'frequency' | 'end_rule'>): Schedule => ({
  start_date: r.start_date,
  frequency: r.frequency,
  end: r.end_rule,
});

export function represent(r: ProfileRow, lastAutopay: Attempt | null = null): Profile {
  return {
    id: Number(r.id),
    status: r.status,
    template: r.template,
    frequency: r.frequency,
    start_date: r.start_date,
    end: r.end_rule,
    next_date: r.status === 'finished' ? null : r.next_date,
    generated_count: r.generated_count,
    last_invoice_id: r.last_invoice_id === null ? null : Number(r.last_invoice_id),
    auto_send: r.auto_send,
    auto_charge: r.auto_charge,
    last_autopay: lastAutopay,
    last_error: r.last_error,
    created: new Date(r.created_at).toISOString().slice(0, 19).replace('T', ' '),
  };
}

const DATE = { type: 'string', format: 'date-ymd' } as const;
export const END_SCHEMA = {
  oneOf: [
    { type: 'object', required: ['type'], additionalProperties: false, properties: { type: { const: 'never' } } },
    {
      type: 'object',
      required: ['type', 'count'],
      additionalProperties: false,
      properties: { type: { const: 'count' }, count: { type: 'integer', minimum: 1, maximum: 100000 } },
    },
    { type: 'object', required: ['type', 'date'], additionalProperties: false, properties: { type: { const: 'date' }, date: DATE } },
  ],
};

export const PROFILE_ARGS: Record<string, ArgSchema> = {
  template: { type: 'object', description: 'A POST /invoices body; issue and due dates are set per period, the number is the next one.' },
  frequency: { type: 'string', enum: [...FREQUENCIES] },
  start_date: { ...DATE, description: 'Y-m-d: the date of the first invoice (site timezone).' },
  end: { ...END_SCHEMA, description: '{"type":"never"}, {"type":"count","count":N} or {"type":"date","date":"Y-m-d"}' },
  auto_send: { type: 'boolean', description: 'E-mail each generated invoice to its customer, which issues it.' },
  auto_charge: {
    type: 'boolean',
    description:
      "Autopay: charge each generated invoice to the client's saved payment method, retrying a declined charge (autopay_retry_days).",
  },
};

/** A template is a `POST /invoices` body, checked by that route's own schema; dates and numbers are the job's. */
export function checkTemplate(template: unknown): Record<string, unknown> {
  const t = { ...(template as Record<string, unknown>) };
  if ('number' in t) throw invalid('template', 'template.number: each generated invoice takes the next number.');
  delete t.issue_date;
  delete t.due_date;
  delete t.period_start;
  delete t.period_end;
  try {
    checkArgs(DOCUMENT_ARGS, t);
  } catch (err) {
    if (err instanceof BillingError) throw invalid('template', `template: ${err.message} ${JSON.stringify(err.data.params ?? '')}`);
    throw err;
  }
  return t;
}

function invalid(param: string, message: string): BillingError {
  return new BillingError('rest_invalid_param', `Invalid parameter(s): ${param}`, { params: { [param]: message } });
}

/**
 * A new schedule may owe at most its first period and the one after (docs/recurring.md, `start_date`):
 * a start date years back would make the next run bill, and with `auto_send` mail, every period since.
 */
function checkStart(s: Schedule, first: number, today: string): void {
  if (startsTooFarBack(s, first, today)) {
    throw invalid(
      'start_date',
      `start_date: a ${s.frequency} profile may start at most one period before today (${today}); earlier periods are not billed.`,
    );
  }
}

export function notFound(): BillingError {
  return new BillingError('billing_rest_not_found', 'No recurring profile has this id.');
}

/** Recurring profiles: the CRUD of REST, each change audited in its transaction. */
export class ProfileStore {
  private readonly ctx: PluginContext;

  constructor(ctx: PluginContext) {
    this.ctx = ctx;
  }

  private async today(tx?: Tx): Promise<string> {
    return siteDate(new Date(), await this.ctx.options.get('timezone', tx));
  }

  /** A page of profiles, newest first, narrowed to `scope` (the caller's `billing_list_scope` for kind `recurring`). */
  async list(page: number, perPage: number, scope: ListScope = {}): Promise<{ items: Profile[]; total: number }> {
    const mine = scope.created_by !== undefined;
    const where = mine ? 'where created_by = $1' : '';
    const params = mine ? [scope.created_by] : [];
    const [{ n }] = (await this.ctx.db.query<{ n: number }>(`select count(*)::int as n from recurring_profiles ${where}`, params)) as [
      { n: number },
    ];
    const rows = await this.ctx.db.query<ProfileRow>(
      `select ${PROFILE_COLUMNS} from recurring_profiles ${where}
        order by id desc limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, perPage, (page - 1) * perPage],
    );
    const last = await lastAttempts(
      this.ctx,
      rows.map((r) => Number(r.id)),
    );
    return { items: rows.map((r) => represent(r, last.get(Number(r.id)) ?? null)), total: n };
  }

  async row(id: number, tx?: Tx, lock = false): Promise<ProfileRow> {
    const rows = await (tx ?? this.ctx.db).query<ProfileRow>(
      `select ${PROFILE_COLUMNS} from recurring_profiles where id = $1${lock ? ' for update' : ''}`,
      [id],
    );
    if (!rows[0]) throw notFound();
    return rows[0];
  }

  async get(id: number): Promise<Profile> {
    return represent(await this.row(id), (await lastAttempts(this.ctx, [id])).get(id) ?? null);
  }

  /**
   * A profile repeating an invoice issued on `issued`. Without a start date the schedule is anchored on
   * the invoice's own date and starts at the first period after it that is not past: period 0 is the
   * invoice itself, and anchoring keeps a monthly invoice of the 31st on each month's last day.
   */
  async createFrom(input: Record<string, any>, issued: string, actor: Actor): Promise<Profile> {
    if (input.start_date !== undefined || input.frequency === undefined) return this.create(input, actor);
    const anchored: Schedule = { start_date: issued, frequency: input.frequency, end: input.end ?? { type: 'never' } };
    return this.create({ ...input, start_date: issued }, actor, firstPeriodFrom(anchored, 1, await this.today()));
  }

  /** A profile whose first invoice is period `firstPeriod` of its schedule (0: the start date). */
  async create(input: Record<string, any>, actor: Actor, firstPeriod = 0): Promise<Profile> {
    const missing = ['template', 'frequency', 'start_date'].filter((k) => input[k] === undefined);
    if (missing.length) {
      throw new BillingError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, { params: missing });
    }
    const template = checkTemplate(input.template);
    const end: End = input.end ?? { type: 'never' };
    const s: Schedule = { start_date: input.start_date, frequency: input.frequency, end };
    checkStart(s, firstPeriod, await this.today());
    const next = nextDate(s, firstPeriod, 0);
    return this.ctx.db.transaction(async (tx) => {
      const rows = await tx.query<ProfileRow>(
        `insert into recurring_profiles (status, template, frequency, start_date, end_rule, next_period, next_date, auto_send, created_by, auto_charge)
         values ($1, $2, $3, $4, $5, $9, $6, $7, $8, $10) returning ${PROFILE_COLUMNS}`,
        [
          next ? 'active' : 'finished',
          JSON.stringify(template),
          s.frequency,
          s.start_date,
          JSON.stringify(end),
          next,
          Boolean(input.auto_send),
          actor.id,
          firstPeriod,
          Boolean(input.auto_charge),
        ],
      );
      const p = represent(rows[0]!);
      await audit(tx, actor, { action: 'recurring.create', objectType: 'recurring', objectId: p.id, details: { frequency: p.frequency } });
      return p;
    });
  }

  /**
   * Changes a profile. The template, end and auto_send may always change; the start date and frequency
   * only before the first invoice, since every period is counted from them.
   */
  async update(id: number, input: Record<string, any>, actor: Actor): Promise<Profile> {
    return this.ctx.db.transaction(async (tx) => {
      const r = await this.row(id, tx, true);
      const scheduleChange = ['frequency', 'start_date'].filter((k) => input[k] !== undefined && input[k] !== (r as any)[k]);
      if (scheduleChange.length && r.generated_count > 0) {
        throw new BillingError('billing_rest_invalid_state', 'The frequency and start date are fixed once an invoice was generated.');
      }
      const template = input.template !== undefined ? checkTemplate(input.template) : r.template;
      const s: Schedule = {
        start_date: input.start_date ?? r.start_date,
        frequency: input.frequency ?? r.frequency,
        end: input.end ?? r.end_rule,
      };
      if (scheduleChange.length) checkStart(s, r.next_period, await this.today(tx));
      const next = nextDate(s, r.next_period, r.generated_count);
      const status: ProfileStatus = next === null ? 'finished' : r.status === 'finished' ? 'active' : r.status;
      const rows = await tx.query<ProfileRow>(
        `update recurring_profiles
            set template = $2, frequency = $3, start_date = $4, end_rule = $5, auto_send = $6, next_date = $7, status = $8,
                auto_charge = $9, updated_at = now()
          where id = $1 returning ${PROFILE_COLUMNS}`,
        [
          id,
          JSON.stringify(template),
          s.frequency,
          s.start_date,
          JSON.stringify(s.end),
          input.auto_send ?? r.auto_send,
          next,
          status,
          input.auto_charge ?? r.auto_charge,
        ],
      );
      await audit(tx, actor, {
        action: 'recurring.update',
        objectType: 'recurring',
        objectId: id,
        details: { fields: Object.keys(input) },
      });
      return represent(rows[0]!);
    });
  }

  /** Deletes the profile; its invoices stay, and keep their `recurring_id`. */
  async delete(id: number, actor: Actor): Promise<Profile> {
    return this.ctx.db.transaction(async (tx) => {
      const r = await this.row(id, tx, true);
      await tx.query('delete from recurring_profiles where id = $1', [id]);
      await audit(tx, actor, { action: 'recurring.delete', objectType: 'recurring', objectId: id });
      return represent(r);
    });
  }

  async pause(id: number, actor: Actor): Promise<Profile> {
    return this.setStatus(id, actor, 'paused');
  }

  /** Resumes from the first period on or after today: the periods of the pause are not generated. */
  async resume(id: number, actor: Actor): Promise<Profile> {
    return this.setStatus(id, actor, 'active');
  }

  private async setStatus(id: number, actor: Actor, to: 'active' | 'paused'): Promise<Profile> {
    return this.ctx.db.transaction(async (tx) => {
      const r = await this.row(id, tx, true);
      if (r.status === 'finished') throw new BillingError('billing_rest_invalid_state', 'The profile is finished.');
      if (r.status === to) return represent(r);
      let n = r.next_period;
      if (to === 'active') n = firstPeriodFrom(schedule(r), n, await this.today(tx));
      const next = nextDate(schedule(r), n, r.generated_count);
      const rows = await tx.query<ProfileRow>(
        `update recurring_profiles set status = $2, next_period = $3, next_date = $4, updated_at = now()
          where id = $1 returning ${PROFILE_COLUMNS}`,
        [id, next === null ? 'finished' : to, n, next],
      );
      await audit(tx, actor, { action: to === 'active' ? 'recurring.resume' : 'recurring.pause', objectType: 'recurring', objectId: id });
      return represent(rows[0]!);
    });
  }
}
