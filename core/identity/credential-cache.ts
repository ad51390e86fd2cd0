import { LRUCache } from 'lru-cache';
import { followFeed, type Feed } from '../db/change-feed.ts';
import type { Tx } from '../db/database.ts';

/** What a successful application-password look-up found: the password's row and its user's. */
export interface Credential {
  uuid: string;
  password_hash: string;
  last_used: string | null;
  id: number;
  login: string;
  email: string;
  role: string;
}

/** What a live session's look-up found: the session and its user (with the name the screens show). */
export interface SessionCredential {
  token_hash: string;
  /** When the session ends, ms since the epoch: checked on every use, cached or not. */
  expires: number;
  id: number;
  login: string;
  role: string;
  display_name: string;
}

/** Enough for every integration and browser of a large site; the least recently used entry leaves first beyond it. */
const MAX_ENTRIES = 20_000;

/**
 * Successful credential look-ups — application passwords (`app:` + keyed hash) and sign-in sessions
 * (`session:` + keyed hash of the token) — kept in memory so an authenticated request costs no query
 * (docs/decisions.md, "Credential cache"). Trusted only while the change feed is live, as the options
 * cache is: every change that can make an entry wrong — a password revoked, a session ended, a user
 * deleted, a role, login, e-mail or display name changed — notifies all instances on commit from a
 * trigger (migration 0004_identity_notify), and each forgets everything; a lost feed turns the cache
 * off. Failures are never cached (the throttle counts them).
 *
 * The instance that makes a change forgets at once after its commit and then waits (at most
 * BARRIER_MS) until its own listener has received the notification, which PostgreSQL sends to every
 * listener at the same commit: by the time the change's response leaves, every instance's feed has it.
 */
export class CredentialCache {
  private readonly entries = new LRUCache<string, Credential | SessionCredential>({ max: MAX_ENTRIES });
  /** Bumped on every forget, so a look-up that raced with a change is not kept. */
  private generation = 0;
  private feed: Feed | null = null;

  attachFeed(feed: Feed): () => void {
    return followFeed(feed, 'identity', { attach: (f) => (this.feed = f), forget: () => this.forget() });
  }

  /** Entries held now (always 0 without a live feed). */
  get size(): number {
    return this.feed?.live ? this.entries.size : 0;
  }

  get<V extends Credential | SessionCredential>(key: string): V | undefined {
    return this.feed?.live ? (this.entries.get(key) as V | undefined) : undefined;
  }

  /** Runs the database look-up and keeps a success, unless a change arrived while it ran. */
  async load<V extends Credential | SessionCredential>(key: string, lookup: () => Promise<V | undefined>): Promise<V | undefined> {
    const generation = this.generation;
    const found = await lookup();
    if (found && this.feed?.live && generation === this.generation) {
      this.entries.set(key, found);
    }
    return found;
  }

  /** Drops one entry (a session found expired). */
  drop(key: string): void {
    this.entries.delete(key);
  }

  /** An identity change in `tx`: forgotten here once it commits, and on the others before its answer. */
  changedIn(tx: Tx): void {
    tx.afterCommit(() => this.settle());
  }

  /** An identity change that has committed: forgotten here, and heard by the others, when this resolves. */
  async settle(): Promise<void> {
    this.forget();
    await this.feed?.barrier();
  }

  private forget(): void {
    this.entries.clear();
    this.generation++;
  }
}
