import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../log.ts';
import type { Tx } from './database.ts';

/** The channel every change is notified on (the embedded server LISTENs on it for its process). */
export const CHANGE_CHANNEL = 'billing_changes';

/** How long `barrier` waits for its own notification and the other instances' answers. */
const BARRIER_MS = 2000;

/** How a feed's connection names itself, so that a barrier can list the instances listening. */
const FEED_APPLICATION = 'billing-feed';

/** What changed, as a notification names it. */
export type ChangeTopic = 'options' | 'plugins' | 'identity' | 'translations';

/** Word of other instances' changes: what caches listen to (a PostgreSQL feed, or the embedded one). */
export interface Feed {
  /** Whether notifications are arriving now; caches must not be trusted otherwise. */
  readonly live: boolean;
  /** Answers how to stop listening. */
  subscribe(fn: (topic: ChangeTopic | 'reset') => void): () => void;
  /**
   * Resolves once every instance listening has heard everything committed before the call (and has
   * told its subscribers), or the wait gave up on one (logged).
   */
  barrier(): Promise<void>;
}

/**
 * How a cache follows a feed: it forgets now, on every notification of `topic`, whenever the feed is
 * reset, and when it stops following (the answer). `attach` tells the cache which feed vouches for it.
 */
export function followFeed(feed: Feed, topic: ChangeTopic, cache: { attach(feed: Feed | null): void; forget(): void }): () => void {
  cache.attach(feed);
  cache.forget();
  const off = feed.subscribe((t) => {
    if (t === topic || t === 'reset') cache.forget();
  });
  return () => {
    off();
    cache.attach(null);
    cache.forget();
  };
}

/**
 * The embedded database's feed, in the process that serves it (core/db/embedded.ts): every connection
 * — this process's pools, a CLI's — runs on PGlite's one session, which LISTENs for the process, and
 * the exchange queue hands each notification here while the committing exchange's answer is on its
 * way, before that client sees its COMMIT answered. So there is nothing to wait for in `barrier`.
 */
export class LocalFeed implements Feed {
  private open = true;
  private readonly subscribers = new Set<(topic: ChangeTopic | 'reset') => void>();

  get live(): boolean {
    return this.open;
  }

  subscribe(fn: (topic: ChangeTopic | 'reset') => void): () => void {
    this.subscribers.add(fn);
    return () => void this.subscribers.delete(fn);
  }

  async barrier(): Promise<void> {}

  deliver(channel: string, payload: string): void {
    if (channel === CHANGE_CHANNEL) this.emit(payload as ChangeTopic);
  }

  close(): void {
    this.open = false;
    this.emit('reset');
  }

  private emit(topic: ChangeTopic | 'reset'): void {
    for (const fn of this.subscribers) {
      try {
        fn(topic);
      } catch {
        // a subscriber's failure must not keep the others from hearing
      }
    }
  }
}

/**
 * Instant word between instances on PostgreSQL: one dedicated connection LISTENs on `billing_changes`,
 * and a change NOTIFYs its topic inside its own transaction (PostgreSQL delivers it on commit, never on
 * rollback). Caches may hold data only while the feed is `live`: when the connection drops, every
 * subscriber is told to forget (`reset`) and caching stops until the feed listens again, so a missed
 * notification can never leave an instance stale.
 *
 * (The embedded database has its own, `LocalFeed` above, in the process that serves it.)
 */
export class ChangeFeed implements Feed {
  private client: pg.Client | null = null;
  private closed = false;
  private readonly subscribers: Array<(topic: ChangeTopic | 'reset') => void> = [];
  private readonly url: string;
  private readonly log: Logger;
  private retry: NodeJS.Timeout | null = null;
  /** This feed's name among the instances' feeds (its connection's `application_name`). */
  readonly id = randomUUID();
  /** Barriers under way, by token: each is told of its echo and of every answer, by the answering feed's id. */
  private readonly barriers = new Map<string, (from: string) => void>();

  private constructor(url: string, log: Logger) {
    this.url = url;
    this.log = log;
  }

  static async open(url: string, log: Logger): Promise<ChangeFeed> {
    const feed = new ChangeFeed(url, log);
    await feed.connect();
    return feed;
  }

  /** Whether notifications are arriving now; caches must not be trusted otherwise. */
  get live(): boolean {
    return this.client !== null;
  }

  subscribe(fn: (topic: ChangeTopic | 'reset') => void): () => void {
    this.subscribers.push(fn);
    return () => {
      const at = this.subscribers.indexOf(fn);
      if (at >= 0) this.subscribers.splice(at, 1);
    };
  }

  /**
   * Resolves once every instance listening has received everything committed before the call and told
   * its subscribers (its caches have forgotten). The caller lists the feeds connected to the database
   * (their connections are named `billing-feed <id>`), notifies a token of its own, and waits for its
   * echo and for each listed feed's answer: PostgreSQL delivers a listener's notifications in commit
   * order, so a feed that answers the token has handled every change committed before it. Waiting for
   * its own echo alone was not enough: another instance's listener, slower to be scheduled, could get
   * its notification after that instance had served the next request from its cache. A feed that
   * connects meanwhile starts from nothing (`reset`) and is not waited for. If this feed's own echo
   * does not come within BARRIER_MS, the feed is lost; a listed instance that does not answer in time
   * is logged by name (it may be stalled, or have just closed).
   */
  async barrier(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const token = `barrier:${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    const waiting = new Set<string>();
    const done = new Promise<boolean>((resolve) => {
      this.barriers.set(token, (from) => {
        waiting.delete(from);
        if (!waiting.size) resolve(true);
      });
      timer = setTimeout(() => resolve(false), BARRIER_MS);
    });
    try {
      const peers = await client.query<{ name: string }>(
        `select application_name as name from pg_stat_activity
          where datname = current_database() and application_name like '${FEED_APPLICATION} %'`,
      );
      for (const { name } of peers.rows) waiting.add(name.slice(FEED_APPLICATION.length + 1));
      waiting.add(this.id);
      await client.query(`select pg_notify('${CHANGE_CHANNEL}', $1)`, [token]);
      if (!(await done)) {
        if (waiting.has(this.id)) throw new Error('change feed did not deliver its own notification');
        this.log.warn({ instances: [...waiting] }, 'instances did not answer a change feed barrier in time');
      }
    } catch (err) {
      this.lost(client, err as Error);
      void client.end().catch(() => {});
    } finally {
      clearTimeout(timer);
      this.barriers.delete(token);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: `${FEED_APPLICATION} ${this.id}` });
    client.on('notification', (n) => this.heard(client, n.payload ?? ''));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      await client.query(`listen ${CHANGE_CHANNEL}`);
      this.client = client;
      // whatever happened while not listening is unknown: start from nothing
      this.emit('reset');
    } catch (err) {
      await client.end().catch(() => {});
      this.lost(client, err as Error);
    }
  }

  /**
   * A notification: a change is told to the subscribers; a barrier's token is answered (`ack:<token>
   * <id>`) once everything before it has been, and an answer to a barrier of this feed's is counted.
   */
  private heard(client: pg.Client, payload: string): void {
    if (payload.startsWith('ack:')) {
      const [token, from] = payload.slice(4).split(' ');
      this.barriers.get(token!)?.(from!);
    } else if (payload.startsWith('barrier:')) {
      const own = this.barriers.get(payload);
      if (own) own(this.id);
      else client.query(`select pg_notify('${CHANGE_CHANNEL}', $1)`, [`ack:${payload} ${this.id}`]).catch(() => {});
    } else this.emit(payload as ChangeTopic);
  }

  private lost(client: pg.Client, err: Error | null): void {
    if (this.client === client) this.client = null;
    this.emit('reset');
    if (this.closed || this.retry) return;
    if (err) this.log.warn({ err }, 'change feed lost; caches off until it is back');
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.closed) void this.connect();
    }, 1000);
    this.retry.unref();
  }

  private emit(topic: ChangeTopic | 'reset'): void {
    for (const fn of this.subscribers) {
      try {
        fn(topic);
      } catch (err) {
        this.log.error({ err, topic }, 'change feed subscriber failed');
      }
    }
  }
}

/** Tells every instance, when `tx` commits, that `topic` changed. */
export async function notifyChange(tx: Tx, topic: ChangeTopic): Promise<void> {
  await tx.query(`select pg_notify('${CHANGE_CHANNEL}', $1)`, [topic]);
}
