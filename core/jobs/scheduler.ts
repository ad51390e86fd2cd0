import { randomUUID } from 'node:crypto';
import { CronExpressionParser } from 'cron-parser';
import { timestamp, type Database } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { OwnedRegistry } from '../owned-registry.ts';
import { validCron } from './cron.ts';

export { validCron } from './cron.ts';

/** A scheduled job, declared as data (`{ hook, schedule }`) by the core or a plugin. */
export interface JobDefinition {
  /** The job's name, as WordPress names cron events by their hook (e.g. `billing_check_pending_gateway_c_payments`). */
  hook: string;
  /**
   * A cron expression (5 fields, or 6 with seconds), evaluated in UTC; or a function answering it,
   * for a schedule that is a setting (`backup_schedule`): asked when jobs start and whenever the
   * cluster's settings change (`refresh`), an empty answer switching the job off.
   */
  schedule: string | (() => Promise<string>);
  description?: string;
  /** The work. Whatever it returns (JSON) is recorded as the run's result. */
  run(run: JobRun): Promise<unknown>;
}

export interface JobRun {
  dueAt: Date;
  reason: 'scheduled' | 'catch-up' | 'manual';
  log: Logger;
}

export interface JobStatus {
  hook: string;
  owner: string;
  schedule: string;
  next_run: string | null;
  last_run: string | null;
  last_result: string | null;
}

export interface RunOutcome {
  ran: boolean;
  status?: 'succeeded' | 'failed';
  result?: unknown;
  error?: string;
}

/**
 * The longest a timer waits before looking at the clock again: setTimeout cannot wait beyond 2^31 ms
 * (a monthly or yearly schedule), and a wall clock set back is noticed within this time.
 */
const MAX_WAIT_MS = 60 * 60 * 1000;

function dueTimes(schedule: string, at: Date) {
  return CronExpressionParser.parse(schedule, { tz: 'UTC', currentDate: at });
}

/**
 * Runs declared jobs on their schedules, once per due time across every instance sharing the
 * database: before running, an instance inserts (job, due time) into `billing_job_runs`, whose unique
 * key lets exactly one insert win. The same row then records the run's end, result or error.
 *
 * At start (and when a job is added) each job is caught up: if its most recent due time passed while
 * no instance was running, and it has run before, it runs once for that time, however many were missed.
 */
export class JobScheduler {
  readonly jobs = new OwnedRegistry<JobDefinition>('job');
  /** Each job's schedule in force ('' = off: a schedule from a setting that is empty or invalid). */
  private readonly schedules = new Map<string, string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Hooks with a scheduled run under way on this instance: a due time that comes meanwhile is skipped. */
  private readonly running = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly db: Database;
  private readonly log: Logger;
  private readonly instance: string;
  private started = false;

  constructor(db: Database, log: Logger, instance: string = randomUUID()) {
    this.db = db;
    this.log = log;
    this.instance = instance;
  }

  add(owner: string, job: JobDefinition): void {
    if (typeof job.schedule === 'string' && !validCron(job.schedule)) {
      throw new Error(`job ${job.hook} of ${owner} has an invalid schedule "${job.schedule}"`);
    }
    this.jobs.add(owner, job.hook, job);
    this.schedules.set(job.hook, typeof job.schedule === 'string' ? job.schedule : '');
    if (this.started) void this.schedule(job);
  }

  removeOwner(owner: string): void {
    for (const hook of this.jobs.removeOwner(owner)) {
      clearTimeout(this.timers.get(hook));
      this.timers.delete(hook);
      this.schedules.delete(hook);
    }
  }

  start(): void {
    this.started = true;
    for (const job of this.jobs.values()) void this.schedule(job);
  }

  /** Asks the jobs whose schedule is a setting for it again, and re-arms those whose answer changed. */
  async refresh(): Promise<void> {
    for (const job of this.jobs.values()) {
      if (typeof job.schedule === 'string') continue;
      const next = await this.resolve(job);
      if (this.jobs.get(job.hook) !== job || next === this.schedules.get(job.hook)) continue;
      this.schedules.set(job.hook, next);
      clearTimeout(this.timers.get(job.hook));
      this.timers.delete(job.hook);
      if (this.started && next) this.armNext(job, new Date());
    }
  }

  /** The job's schedule now: its own, or its setting's when valid ('' = off). */
  private async resolve(job: JobDefinition): Promise<string> {
    if (typeof job.schedule === 'string') return job.schedule;
    try {
      const value = (await job.schedule()).trim();
      if (value && !validCron(value)) {
        this.log.error({ job: job.hook, schedule: value }, 'the job is off: its schedule is not a cron expression');
        return '';
      }
      return value;
    } catch (err) {
      this.log.error({ err, job: job.hook }, 'the job is off: its schedule could not be read');
      return '';
    }
  }

  /** Stops scheduling and waits for runs under way to finish. */
  async stop(): Promise<void> {
    this.started = false;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  /** `billing cron run <hook>`: runs it now, whatever its schedule, and waits for the outcome. */
  async runNow(hook: string): Promise<RunOutcome> {
    const job = this.jobs.get(hook);
    if (!job) throw new BillingError('billing_unknown_job', `unknown job ${hook}`);
    return this.runOnce(job, new Date(), 'manual');
  }

  async status(): Promise<JobStatus[]> {
    const rows = await this.db.query<{ hook: string; started_at: string; status: string }>(
      `select distinct on (hook) hook, started_at, status
         from billing_job_runs where hook = any($1) order by hook, started_at desc`,
      [this.jobs.values().map((j) => j.hook)],
    );
    const last = new Map(rows.map((r) => [r.hook, r]));
    const now = new Date();
    const jobs = this.jobs.entriesWithOwner().sort((a, b) => a.key.localeCompare(b.key));
    // asked afresh: a process that runs no jobs (the CLI) has not resolved the setting-held ones
    const schedules = await Promise.all(jobs.map(({ item }) => this.resolve(item)));
    return jobs.map(({ owner, item: job }, i) => ({
      hook: job.hook,
      owner,
      schedule: schedules[i] || 'off',
      next_run: schedules[i] ? dueTimes(schedules[i], now).next().toDate().toISOString() : null,
      last_run: timestamp(last.get(job.hook)?.started_at)?.toISOString() ?? null,
      last_result: last.get(job.hook)?.status ?? null,
    }));
  }

  /** Starts the job's timer and catches it up (see `catchUp`); a job whose schedule is off waits for `refresh`. */
  private async schedule(job: JobDefinition): Promise<void> {
    // a fixed schedule is armed at once (a due time just ahead must not slip while a setting is read)
    if (typeof job.schedule !== 'string') {
      const schedule = await this.resolve(job);
      if (!this.started || this.jobs.get(job.hook) !== job) return;
      this.schedules.set(job.hook, schedule);
      if (!schedule) return;
    }
    this.armNext(job, new Date());
    void this.catchUp(job);
  }

  /**
   * Arms a timer for the job's first due time after `after`. A timer that fires late (the event loop was
   * busy) still runs the due time it was armed for, then arms the next one after the present: a due time
   * is never dropped for being late (node-cron, used before, dropped any tick more than a second late,
   * with a console warning), and due times that passed entirely meanwhile do not run in a burst, as at
   * catch-up. Every instance names the same due time, so the claim row still lets one of them run it.
   */
  private armNext(job: JobDefinition, after: Date): void {
    const schedule = this.schedules.get(job.hook);
    if (schedule) this.arm(job, dueTimes(schedule, after).next().toDate());
  }

  private arm(job: JobDefinition, due: Date): void {
    const timer = setTimeout(
      () => {
        if (!this.started || this.jobs.get(job.hook) !== job) return;
        if (due.getTime() - Date.now() > 1000) return this.arm(job, due); // not yet: a long wait, or the clock went back
        if (this.running.has(job.hook)) {
          this.log.warn({ job: job.hook, due: due.toISOString() }, 'job still running: this due time is skipped');
        } else {
          this.running.add(job.hook);
          void this.runOnce(job, due, 'scheduled').finally(() => this.running.delete(job.hook));
        }
        this.armNext(job, new Date(Math.max(due.getTime(), Date.now())));
      },
      Math.min(Math.max(0, due.getTime() - Date.now()), MAX_WAIT_MS),
    );
    this.timers.set(job.hook, timer);
  }

  private async catchUp(job: JobDefinition): Promise<void> {
    try {
      const schedule = this.schedules.get(job.hook);
      if (!schedule) return;
      const due = dueTimes(schedule, new Date()).prev().toDate();
      const rows = await this.db.query<{ due_at: string | null }>(
        `select max(due_at) as due_at from billing_job_runs where hook = $1 and reason <> 'manual'`,
        [job.hook],
      );
      const last = timestamp(rows[0]?.due_at);
      if (last && last.getTime() < due.getTime()) await this.runOnce(job, due, 'catch-up');
    } catch (err) {
      this.log.error({ err, job: job.hook }, 'job catch-up failed');
    }
  }

  private runOnce(job: JobDefinition, dueAt: Date, reason: JobRun['reason']): Promise<RunOutcome> {
    const p = this.claimAndRun(job, dueAt, reason);
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    return p;
  }

  private async claimAndRun(job: JobDefinition, dueAt: Date, reason: JobRun['reason']): Promise<RunOutcome> {
    const claimed = await this.db.query<{ id: string }>(
      `insert into billing_job_runs (hook, due_at, reason, instance) values ($1, $2, $3, $4)
       on conflict (hook, due_at) do nothing returning id`,
      [job.hook, dueAt, reason, this.instance],
    );
    if (!claimed.length) return { ran: false };
    const id = claimed[0]!.id;
    const log = this.log.child({ job: job.hook, due: dueAt.toISOString() });
    try {
      const result = await job.run({ dueAt, reason, log });
      await this.db.query(`update billing_job_runs set finished_at = now(), status = 'succeeded', result = $1 where id = $2`, [
        JSON.stringify(result ?? null),
        id,
      ]);
      return { ran: true, status: 'succeeded', result: result ?? null };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.error({ err }, 'job failed');
      await this.db.query(`update billing_job_runs set finished_at = now(), status = 'failed', error = $1 where id = $2`, [message, id]);
      return { ran: true, status: 'failed', error: message };
    }
  }
}
