import { randomUUID } from 'node:crypto';
import { statement, timestamp, type Database, type Tx } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { OwnedRegistry } from '../owned-registry.ts';

/** One piece of durable work, as its queue's handler gets it. */
export interface OutboxItem {
  id: number;
  topic: string;
  payload: Record<string, any>;
  /** 1 on the first try. */
  attempt: number;
  createdAt: Date;
}

/**
 * A queue: the handler of one outbox topic, declared as data by a module or a plugin (`queues`).
 * The handler runs after the transaction that wrote the item has committed, at least once: it throws
 * to be retried later, and must tolerate a repeat after a crash in the middle of its work.
 */
export interface QueueDefinition {
  topic: string;
  description?: string;
  /** Tries before the item is marked failed (default 8). */
  attempts?: number;
  /** Delay before try n + 1 after try n failed, in ms (default: 5 s doubling, at most 1 h). */
  backoff?: (attempt: number) => number;
  handle(item: OutboxItem): Promise<void>;
}

export interface EnqueueOptions {
  /** Unique across the outbox: enqueuing a key already there does nothing (answers false). */
  key?: string;
  /** Do not start before this many ms. */
  delayMs?: number;
}

const ENQUEUE = statement(
  'outbox_enqueue',
  `insert into billing_outbox (topic, payload, key, run_after)
   values ($1, $2, $3, now() + make_interval(secs => $4::double precision / 1000))
   on conflict (key) do nothing returning id`,
);

const ENQUEUE_MANY = statement(
  'outbox_enqueue_many',
  `insert into billing_outbox (topic, payload, key, run_after)
   select t, p::jsonb, k, now() from unnest($1::text[], $2::text[], $3::text[]) as i(t, p, k)
   on conflict (key) do nothing returning id`,
);

export interface OutboxEntry {
  topic: string;
  payload: Record<string, unknown>;
  key?: string;
}

/** What units get (`ctx.outbox`): writing work in the caller's transaction. */
export interface OutboxWriter {
  enqueue(tx: Tx, topic: string, payload: Record<string, unknown>, opts?: EnqueueOptions): Promise<boolean>;
  /**
   * Many items in one statement (a job queuing a mail per due invoice, an action's durable listeners),
   * each with its own topic and key; answers how many were new. Same semantics as `enqueue`, one round trip.
   */
  enqueueMany(tx: Tx, items: ReadonlyArray<OutboxEntry>): Promise<number>;
}

export interface OutboxRow {
  id: number;
  topic: string;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  run_after: string;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface OutboxOptions {
  /** How often an idle worker looks for due items (ms); a local enqueue wakes it at once. */
  pollMs?: number;
  /** Items handled at once by this instance. */
  concurrency?: number;
  /** How long a claimed item is this instance's before another may take it (a crash, a stuck handler). */
  leaseMs?: number;
  instance?: string;
}

const DEFAULT_ATTEMPTS = 8;
const defaultBackoff = (attempt: number) => Math.min(3_600_000, 5_000 * 2 ** (attempt - 1));

/**
 * The transactional outbox (docs/decisions.md, "Durable side effects"): work that must follow a change
 * — mails after a payment, outbound webhooks, reminders — is a row written in the change's own
 * transaction, so it exists exactly when the change does. A worker in each serving instance claims due
 * rows with `FOR UPDATE SKIP LOCKED` under a lease, so instances sharing the database never work on
 * one item at once; a handler that throws is retried with growing delays, and after its last try the
 * item is marked failed with its error, visible in `billing outbox list --status failed`. A process
 * killed mid-item leaves it leased; the lease runs out and another try takes it.
 */
export class Outbox implements OutboxWriter {
  readonly queues = new OwnedRegistry<QueueDefinition>('queue');
  private readonly db: Database;
  private readonly log: Logger;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly instance: string;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;

  constructor(db: Database, log: Logger, opts: OutboxOptions = {}) {
    this.db = db;
    this.log = log;
    this.pollMs = opts.pollMs ?? 1000;
    this.concurrency = opts.concurrency ?? 4;
    this.leaseMs = opts.leaseMs ?? 10 * 60_000;
    this.instance = opts.instance ?? randomUUID();
  }

  add(owner: string, queue: QueueDefinition): void {
    this.queues.add(owner, queue.topic, queue);
  }

  removeOwner(owner: string): void {
    this.queues.removeOwner(owner);
  }

  async enqueue(tx: Tx, topic: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}): Promise<boolean> {
    const rows = await tx.query(ENQUEUE, [topic, JSON.stringify(payload), opts.key ?? null, opts.delayMs ?? 0]);
    if (rows.length && !opts.delayMs) tx.afterCommit(() => this.kick());
    return rows.length > 0;
  }

  async enqueueMany(tx: Tx, items: ReadonlyArray<OutboxEntry>): Promise<number> {
    if (!items.length) return 0;
    if (items.length === 1) return Number(await this.enqueue(tx, items[0]!.topic, items[0]!.payload, { key: items[0]!.key }));
    const rows = await tx.query(ENQUEUE_MANY, [
      items.map((i) => i.topic),
      items.map((i) => JSON.stringify(i.payload)),
      items.map((i) => i.key ?? null),
    ]);
    if (rows.length) tx.afterCommit(() => this.kick());
    return rows.length;
  }

  /** Starts this instance's worker (serving instances only; the CLI leaves its items to them). */
  start(): void {
    this.started = true;
    this.schedule(0);
  }

  /** Stops claiming and waits for the items under way. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Looks for due work now (after a local commit wrote some). */
  kick(): void {
    if (this.started) this.schedule(0);
  }

  /**
   * Handles every due item of the loaded queues, until none is left (also what `billing outbox run`
   * and tests use to wait for background work). Items retried later are not waited for.
   */
  async drain(): Promise<void> {
    for (;;) {
      await this.running;
      const handled = await this.pass();
      if (!handled && !(await this.due())) return;
    }
  }

  /** Rows of the outbox, newest first (for `billing outbox list`). */
  async list(status?: OutboxRow['status'], limit = 50): Promise<OutboxRow[]> {
    return this.db.query<OutboxRow>(
      `select id, topic, status, attempts, run_after, last_error, created_at, finished_at from billing_outbox
        where ($1::text is null or status = $1) order by id desc limit $2`,
      [status ?? null, limit],
    );
  }

  /** Puts a failed item back in line for one more try. */
  async retry(id: number): Promise<void> {
    const rows = await this.db.query(
      `update billing_outbox set status = 'pending', run_after = now(), locked_until = null, last_error = null
        where id = $1 and status = 'failed' returning id`,
      [id],
    );
    if (!rows.length) throw new BillingError('billing_rest_not_found', `No failed outbox item has the id ${id}.`);
    this.kick();
  }

  /** Forgets finished items older than `days` (failed ones stay until retried or looked at). */
  async prune(days: number): Promise<number> {
    const rows = await this.db.query(
      `delete from billing_outbox where status = 'done' and finished_at < now() - make_interval(days => $1) returning id`,
      [days],
    );
    return rows.length;
  }

  private schedule(ms: number): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.loop(), ms);
    this.timer.unref();
  }

  private loop(): void {
    this.timer = null;
    this.again = false;
    this.running = (async () => {
      try {
        while (this.started && (await this.pass()));
      } catch (err) {
        this.log.error({ err }, 'outbox pass failed');
      }
    })().finally(() => {
      this.running = null;
      this.schedule(this.again ? 0 : this.pollMs);
    });
  }

  /** Claims one batch and handles it; answers whether anything was claimed. */
  private async pass(): Promise<boolean> {
    const topics = this.queues.values().map((q) => q.topic);
    if (!topics.length) return false;
    const rows = await this.db.query<{ id: string; topic: string; payload: Record<string, any>; attempts: number; created_at: string }>(
      `update billing_outbox o set attempts = o.attempts + 1, locked_by = $2,
              locked_until = now() + make_interval(secs => $3::double precision / 1000)
        where o.id in (select id from billing_outbox
                        where status = 'pending' and run_after <= now() and (locked_until is null or locked_until < now())
                          and topic = any($1)
                        order by run_after, id limit $4 for update skip locked)
       returning o.id, o.topic, o.payload, o.attempts, o.created_at`,
      [topics, this.instance, this.leaseMs, this.concurrency],
    );
    await Promise.all(rows.map((r) => this.handle(r)));
    return rows.length > 0;
  }

  private async due(): Promise<boolean> {
    const topics = this.queues.values().map((q) => q.topic);
    if (!topics.length) return false;
    const rows = await this.db.query(
      `select 1 from billing_outbox where status = 'pending' and run_after <= now() and topic = any($1) limit 1`,
      [topics],
    );
    return rows.length > 0;
  }

  private async handle(r: {
    id: string;
    topic: string;
    payload: Record<string, any>;
    attempts: number;
    created_at: string;
  }): Promise<void> {
    const item: OutboxItem = {
      id: Number(r.id),
      topic: r.topic,
      payload: r.payload,
      attempt: r.attempts,
      createdAt: timestamp(r.created_at)!,
    };
    const queue = this.queues.get(item.topic);
    const log = this.log.child({ outbox: item.id, topic: item.topic, attempt: item.attempt });
    try {
      if (!queue) throw new Error(`no queue handles ${item.topic} on this instance`);
      await queue.handle(item);
      await this.db.query(
        `update billing_outbox set status = 'done', finished_at = now(), locked_until = null where id = $1 and locked_by = $2`,
        [item.id, this.instance],
      );
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const last = item.attempt >= (queue?.attempts ?? DEFAULT_ATTEMPTS);
      const delay = (queue?.backoff ?? defaultBackoff)(item.attempt);
      log[last ? 'error' : 'warn']({ err }, last ? 'outbox item failed for good' : 'outbox item failed; it will be retried');
      await this.db.query(
        `update billing_outbox set status = $3, last_error = $4, locked_until = null,
                finished_at = case when $3 = 'failed' then now() end,
                run_after = now() + make_interval(secs => $5::double precision / 1000)
          where id = $1 and locked_by = $2`,
        [item.id, this.instance, last ? 'failed' : 'pending', message.slice(0, 2000), delay],
      );
    }
  }
}
