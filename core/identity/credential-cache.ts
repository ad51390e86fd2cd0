import type { Feed } from '../db/change-feed.ts';
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

/** Enough for every integration of a large site; the oldest entry leaves first beyond it. */
const MAX_ENTRIES = 10_000;

/**
 * Successful application-password look-ups, kept in memory so an authenticated request costs no query
 * (docs/decisions.md, "Credential cache"). Trusted only while the change feed is live, as the options
 * cache is: every change that can make an entry wrong — a password revoked, a user deleted, a role,
 * login or e-mail changed — notifies all instances on commit from a trigger (migration
 * 0004_identity_notify), and each forgets everything; a lost feed turns the cache off. Failures are
 * never cached (the throttle counts them), and the embedded database, which has no feed, never caches.
 *
 * The instance that makes a change forgets at once after its commit and then waits (at most
 * BARRIER_MS) until its own listener has received the notification, which PostgreSQL sends to every
 * listener at the same commit: by the time the change's response leaves, every instance's feed has it.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Credential>();
  /** Bumped on every forget, so a look-up that raced with a change is not kept. */
  private generation = 0;
  private feed: Feed | null = null;

  attachFeed(feed: Feed): () => void {
    this.feed = feed;
    this.forget();
    const off = feed.subscribe((topic) => {
      if (topic === 'identity' || topic === 'reset') this.forget();
    });
    return () => {
      off();
      this.feed = null;
      this.forget();
    };
  }

  /** Entries held now (always 0 without a live feed). */
  get size(): number {
    return this.feed?.live ? this.entries.size : 0;
  }

  get(hash: string): Credential | undefined {
    return this.feed?.live ? this.entries.get(hash) : undefined;
  }

  /** Runs the database look-up and keeps a success, unless a change arrived while it ran. */
  async load(hash: string, lookup: () => Promise<Credential | undefined>): Promise<Credential | undefined> {
    const generation = this.generation;
    const found = await lookup();
    if (found && this.feed?.live && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(hash, found);
    }
    return found;
  }

  /** An identity change in `tx`: forgotten here once it commits, and on the others before its answer. */
  changedIn(tx: Tx): void {
    tx.afterCommit(async () => {
      this.forget();
      await this.feed?.barrier();
    });
  }

  private forget(): void {
    this.entries.clear();
    this.generation++;
  }
}
