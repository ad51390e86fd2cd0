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
  /**
   * This topic's share: at most this many of its items are handled at once by one instance (default 4),
   * whatever the other topics have waiting. A topic never waits for another's slots.
   */
  concurrency?: number;
  /**
   * Splits the topic into lanes by a payload field (a webhook's subscription, a recurring profile, a
   * reminder's recipient): one lane has at most `concurrency` (default 1) of the topic's share at once,
   * so a slow or flooded lane leaves the rest of the share to the others.
   */
  lanes?: { by: string; concurrency?: number };
  handle(item: OutboxItem): Promise<void>;
}

export interface EnqueueOptions {
  /** Unique across the outbox: enqueuing a key already there does nothing (answers false). */
  key?: string;
  /** Do not start before this many ms. */
  delayMs?: number;
}

const ENQUEUE = statement(
  'outbox_enqueue_lane',
  `insert into billing_outbox (topic, payload, key, run_after, lane)
   values ($1, $2, $3, now() + make_interval(secs => $4::double precision / 1000), $5)
   on conflict (key) do nothing returning id`,
);

const ENQUEUE_MANY = statement(
  'outbox_enqueue_many_lane',
  `insert into billing_outbox (topic, payload, key, run_after, lane)
   select t, p::jsonb, k, now(), l from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as i(t, p, k, l)
   on conflict (key) do nothing returning id`,
);

/**
 * Claims due items for the lanes with room, in one statement. For each topic with free slots, the lanes
 * with pending items are walked on the lane index from where this instance's last claim of the topic
 * stopped ($6; one probe per lane, at most $7 lanes, so a claim costs the same with ten lanes or ten
 * thousand); of those, the lanes whose oldest due item has waited longest get the topic's free slots
 * ($3), each at most its own free slots ($2 less what $4/$5 say it holds here). Only then are items
 * locked, `SKIP LOCKED` (another instance's claim of the same moment takes others), and leased. Each
 * claimed row says where the walk of its topic should go on (`cursor`: the last lane claimed).
 */
const CLAIM = statement(
  'outbox_claim_lanes',
  `with recursive walk (topic, lane, n) as (
     select t.topic, f.lane, 1 from unnest($1::text[], $6::text[]) as t(topic, after) cross join lateral
       (select lane from billing_outbox where status = 'pending' and topic = t.topic and lane > t.after order by lane limit 1) f
     union all
     select w.topic, f.lane, w.n + 1 from walk w cross join lateral
       (select lane from billing_outbox where status = 'pending' and topic = w.topic and lane > w.lane order by lane limit 1) f
      where w.n < $7
   ),
   heads as (
     select w.topic, w.lane, h.run_after, h.id, t.size - coalesce(b.busy, 0) as free
       from walk w join unnest($1::text[], $2::int[]) as t(topic, size) on t.topic = w.topic
       left join unnest($4::text[], $5::int[]) as b(lane, busy) on b.lane = w.lane
       cross join lateral (
         select run_after, id from billing_outbox
          where status = 'pending' and topic = w.topic and lane = w.lane and run_after <= now()
            and (locked_until is null or locked_until < now())
          order by run_after, id limit 1) h
   ),
   chosen as (
     select c.topic, c.lane, c.free from (
       select topic, lane, free, row_number() over (partition by topic order by run_after, id) as n from heads where free > 0
     ) c join unnest($1::text[], $3::int[]) as t(topic, room) on t.topic = c.topic
      where c.n <= t.room
   ),
   picked as (
     select p.id, p.topic, p.lane, p.run_after, p.k from chosen c cross join lateral (
       select o.id, o.topic, o.lane, o.run_after, row_number() over () as k from (
         select id, topic, lane, run_after from billing_outbox
          where status = 'pending' and topic = c.topic and lane = c.lane and run_after <= now()
            and (locked_until is null or locked_until < now())
          order by run_after, id limit c.free for update skip locked) o
     ) p
   ),
   kept as (
     select r.id, max(r.lane) over (partition by r.topic) as cursor from (
       select id, topic, lane, row_number() over (partition by topic order by k, run_after, id) as n from picked
     ) r join unnest($1::text[], $3::int[]) as t(topic, room) on t.topic = r.topic
      where r.n <= t.room
   )
   update billing_outbox o set attempts = o.attempts + 1, locked_by = $8,
          locked_until = now() + make_interval(secs => $9::double precision / 1000)
     from kept x
    where o.id = x.id
   returning o.id, o.topic, o.lane, o.payload, o.attempts, o.created_at, x.cursor`,
);

/** Lanes of one topic a claim looks at, at most (the next claim goes on from there). */
const WALK = 50;

/** The longest lane name kept: a lane is named by a payload value, which its producer controls. */
const LANE_MAX = 200;

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
  /** Its lane: the topic, or the topic and the payload value it is split by. */
  lane: string;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  run_after: string;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface OutboxOptions {
  /** How often an idle worker looks for due items (ms); a local enqueue or a finished item wakes it at once. */
  pollMs?: number;
  /** The share of a topic that declares none: its items handled at once by this instance. */
  concurrency?: number;
  /** How long a claimed item is this instance's before another may take it (a crash, a stuck handler). */
  leaseMs?: number;
  instance?: string;
}

const DEFAULT_ATTEMPTS = 8;
const DEFAULT_CONCURRENCY = 4;
const defaultBackoff = (attempt: number) => Math.min(3_600_000, 5_000 * 2 ** (attempt - 1));

interface ClaimedRow {
  id: string;
  topic: string;
  lane: string;
  cursor: string;
  payload: Record<string, any>;
  attempts: number;
  created_at: string;
}

/**
 * The transactional outbox (docs/decisions.md, "Durable side effects"): work that must follow a change
 * — mails after a payment, outbound webhooks, reminders — is a row written in the change's own
 * transaction, so it exists exactly when the change does. A worker in each serving instance claims due
 * rows with `FOR UPDATE SKIP LOCKED` under a lease, so instances sharing the database never work on
 * one item at once; a handler that throws is retried with growing delays, and after its last try the
 * item is marked failed with its error, visible in `billing outbox list --status failed`. A process
 * killed mid-item leaves it leased; the lease runs out and another try takes it.
 *
 * Work runs in lanes (docs/security.md, "Background work"): each topic has its own share of the
 * instance's slots, and a topic that declares `lanes` is split by a payload field, each lane holding
 * at most a few of the topic's slots. An item is claimed as soon as a slot of its lane frees, not when
 * a batch ends: a receiver that hangs holds its own lane's slots and nobody else's.
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
  private ticking: Promise<void> | null = null;
  private again = false;
  private started = false;
  /** Claims one after another: each counts the slots the previous one took. */
  private claiming: Promise<unknown> = Promise.resolve();
  /** Items this instance is handling, per lane and per topic. */
  private readonly laneBusy = new Map<string, number>();
  private readonly topicBusy = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Per topic, the lane this instance's walk goes on after (none: from the first lane). */
  private readonly cursors = new Map<string, string>();

  constructor(db: Database, log: Logger, opts: OutboxOptions = {}) {
    this.db = db;
    this.log = log;
    this.pollMs = opts.pollMs ?? 1000;
    this.concurrency = opts.concurrency ?? DEFAULT_CONCURRENCY;
    this.leaseMs = opts.leaseMs ?? 10 * 60_000;
    this.instance = opts.instance ?? randomUUID();
  }

  add(owner: string, queue: QueueDefinition): void {
    this.queues.add(owner, queue.topic, queue);
  }

  removeOwner(owner: string): void {
    this.queues.removeOwner(owner);
  }

  /**
   * The lane of an item: its topic, or for a topic split by a payload field, the topic and that
   * field's value. Written with the item, so every instance claims it in the same lane.
   */
  laneOf(topic: string, payload: Record<string, unknown>): string {
    const by = this.queues.get(topic)?.lanes?.by;
    const value = by === undefined ? undefined : payload[by];
    if (typeof value !== 'string' && typeof value !== 'number') return topic;
    return `${topic}:${value}`.slice(0, LANE_MAX);
  }

  async enqueue(tx: Tx, topic: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}): Promise<boolean> {
    const rows = await tx.query(ENQUEUE, [
      topic,
      JSON.stringify(payload),
      opts.key ?? null,
      opts.delayMs ?? 0,
      this.laneOf(topic, payload),
    ]);
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
      items.map((i) => this.laneOf(i.topic, i.payload)),
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
    await this.ticking;
    await this.claiming;
    while (this.inFlight.size) await Promise.all(this.inFlight);
  }

  /** Looks for due work now (after a local commit wrote some, or a slot freed). */
  kick(): void {
    if (this.started) this.schedule(0);
  }

  /**
   * Handles every due item of the loaded queues, until none is left (also what `billing outbox run`
   * and tests use to wait for background work). Items retried later are not waited for.
   */
  async drain(): Promise<void> {
    for (;;) {
      if ((await this.fill()) > 0) continue;
      if (this.inFlight.size) {
        await Promise.race(this.inFlight);
        continue;
      }
      if (!(await this.due())) return;
      // due, but leased by another instance at work on it: look again shortly
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Rows of the outbox, newest first (for `billing outbox list`). */
  async list(status?: OutboxRow['status'], limit = 50): Promise<OutboxRow[]> {
    return this.db.query<OutboxRow>(
      `select id, topic, lane, status, attempts, run_after, last_error, created_at, finished_at from billing_outbox
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
    if (this.ticking) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref();
  }

  /** Fills every free slot, then sleeps until a poll, a local commit or a finished item. */
  private tick(): void {
    this.timer = null;
    this.again = false;
    this.ticking = (async () => {
      try {
        while (this.started && (await this.fill()) > 0);
      } catch (err) {
        this.log.error({ err }, 'outbox claim failed');
      }
    })().finally(() => {
      this.ticking = null;
      this.schedule(this.again ? 0 : this.pollMs);
    });
  }

  /** Claims what the free slots allow and starts each item; answers how many were claimed. */
  private fill(): Promise<number> {
    const run = this.claiming.then(() => this.claim());
    this.claiming = run.catch(() => undefined);
    return run;
  }

  private async claim(): Promise<number> {
    const topics: string[] = [];
    const sizes: number[] = [];
    const free: number[] = [];
    for (const q of this.queues.values()) {
      const share = Math.max(1, q.concurrency ?? this.concurrency);
      const room = share - (this.topicBusy.get(q.topic) ?? 0);
      if (room <= 0) continue;
      topics.push(q.topic);
      sizes.push(q.lanes ? Math.max(1, Math.min(share, q.lanes.concurrency ?? 1)) : share);
      free.push(room);
    }
    if (!topics.length) return 0;
    const walked = topics.filter((t) => this.cursors.has(t));
    const rows = await this.db.query<ClaimedRow>(CLAIM, [
      topics,
      sizes,
      free,
      [...this.laneBusy.keys()],
      [...this.laneBusy.values()],
      topics.map((t) => this.cursors.get(t) ?? ''),
      WALK,
      this.instance,
      this.leaseMs,
    ]);
    // a topic that filled its room goes on after its last lane next time; one that did not may have
    // work before where its walk began, so it starts from its first lane again
    topics.forEach((t, i) => {
      const mine = rows.filter((r) => r.topic === t);
      if (mine.length === free[i]) this.cursors.set(t, mine[0]!.cursor);
      else this.cursors.delete(t);
    });
    for (const r of rows) this.launch(r);
    // nothing after the cursors: look once more from the first lanes
    if (!rows.length && walked.length) return this.claim();
    return rows.length;
  }

  private launch(r: ClaimedRow): void {
    const count = (map: Map<string, number>, key: string, by: number) => {
      const n = (map.get(key) ?? 0) + by;
      if (n > 0) map.set(key, n);
      else map.delete(key);
    };
    count(this.laneBusy, r.lane, 1);
    count(this.topicBusy, r.topic, 1);
    const done: Promise<void> = this.handle(r)
      .catch((err) => this.log.error({ err, outbox: r.id }, 'outbox item could not be recorded; its lease will let it run again'))
      .finally(() => {
        count(this.laneBusy, r.lane, -1);
        count(this.topicBusy, r.topic, -1);
        this.inFlight.delete(done);
        this.kick();
      });
    this.inFlight.add(done);
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

  private async handle(r: ClaimedRow): Promise<void> {
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
