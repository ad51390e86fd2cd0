import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { timestamp, type Database, type Tx } from '../db/database.ts';
import type { CredentialCache, SessionCredential } from './credential-cache.ts';
import type { AuthUser } from '../http/auth.ts';
import { keyedHash } from './secret.ts';

export const SESSION_COOKIE = 'billing_logged_in';
export const SESSION_SECONDS = 48 * 60 * 60;
export const REMEMBER_SECONDS = 14 * 24 * 60 * 60;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const MAX_HASHES = 20_000;

export interface SessionStart {
  token: string;
  /** Seconds the cookie lives: only a remembered session outlives the browser. */
  maxAge: number | undefined;
  expiresAt: Date;
}

/**
 * Sign-in sessions, kept in the database (so any instance serves any session) under a keyed hash of
 * their token: the table alone does not let anyone sign in. The token (32 random bytes) is the cookie's
 * value and the session part of every nonce.
 */
export class SessionStore {
  private readonly db: Database;
  private readonly key: () => Buffer;
  private readonly cache: CredentialCache;

  constructor(db: Database, key: () => Buffer, cache: CredentialCache) {
    this.db = db;
    this.key = key;
    this.cache = cache;
  }

  /**
   * Tokens seen lately and their keyed hashes: a browser sends the same token on every request, and the
   * HMAC was a screen's largest cost after the database left (docs/benchmarks.md, "Admin screens").
   * Only well-formed tokens are remembered, and the least recently used leave first when full, so a flood of made-up
   * tokens costs memory no larger than the credential cache's.
   */
  private readonly hashes = new LRUCache<string, string>({ max: MAX_HASHES });

  private hash(token: string): string {
    let hash = this.hashes.get(token);
    if (hash === undefined) {
      hash = keyedHash(this.key(), token);
      this.hashes.set(token, hash);
    }
    return hash;
  }

  async start(tx: Tx, userId: number, remember: boolean, ip: string | null, userAgent: string | null): Promise<SessionStart> {
    const token = randomBytes(32).toString('base64url');
    const seconds = remember ? REMEMBER_SECONDS : SESSION_SECONDS;
    const expiresAt = new Date(Date.now() + seconds * 1000);
    // a sign-in is also when the user's own expired sessions are swept
    await tx.query('delete from billing_sessions where user_id = $1 and expires_at <= now()', [userId]);
    await tx.query('insert into billing_sessions (token_hash, user_id, expires_at, ip, user_agent) values ($1, $2, $3, $4, $5)', [
      this.hash(token),
      userId,
      expiresAt.toISOString(),
      ip,
      userAgent?.slice(0, 500) ?? null,
    ]);
    return { token, maxAge: remember ? seconds : undefined, expiresAt };
  }

  /**
   * The signed-in user of a live session, or null. One indexed query, none while the look-up is cached
   * (an ended session, a changed user: every instance forgets at once, see CredentialCache).
   */
  async user(token: string | undefined): Promise<AuthUser | null> {
    if (!token || !TOKEN.test(token)) return null;
    const hash = this.hash(token);
    const key = `session:${hash}`;
    const row = this.cache.get<SessionCredential>(key) ?? (await this.cache.load(key, () => this.lookup(hash)));
    // found under this very hash (the cache's key, the query's equality): a second look is only a guard,
    // and needs no constant time, as nobody can choose the bytes of a keyed hash
    if (!row || row.token_hash !== hash) return null;
    if (row.expires <= Date.now()) {
      this.cache.drop(key);
      return null;
    }
    return { id: row.id, login: row.login, roles: [row.role], displayName: row.display_name };
  }

  private async lookup(hash: string): Promise<SessionCredential | undefined> {
    const rows = await this.db.query<Omit<SessionCredential, 'expires'> & { expires_at: string }>(
      `select s.token_hash, s.expires_at, u.id, u.login, u.role, u.display_name
         from billing_sessions s join billing_users u on u.id = s.user_id
        where s.token_hash = $1 and s.expires_at > now()`,
      [hash],
    );
    const row = rows[0];
    return row && { ...row, expires: timestamp(row.expires_at)!.getTime() };
  }

  /** Deletes every expired session, whoever's (the cleanup job; a sign-in sweeps only its own user's). */
  async prune(): Promise<number> {
    return (await this.db.query('delete from billing_sessions where expires_at <= now() returning 1')).length;
  }

  async end(on: Tx | Database, token: string | undefined): Promise<number | null> {
    if (!token || !TOKEN.test(token)) return null;
    const hash = this.hash(token);
    this.hashes.delete(token); // an ended session's token is not kept in memory
    const rows = await on.query<{ user_id: number }>('delete from billing_sessions where token_hash = $1 returning user_id', [hash]);
    if ('afterCommit' in on) this.cache.changedIn(on);
    else await this.cache.settle();
    return rows[0]?.user_id ?? null;
  }
}
