import { createHmac } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { safeEqual } from './safe-equal.ts';

/**
 * WordPress's nonces (docs/identity.md): a 10-character value from an HMAC over tick, action, user id and
 * session token. A tick lasts 12 hours and a nonce is accepted during its own tick and the next, so it
 * lives 12 to 24 hours. Nonces are derived, never stored: any instance that shares the secret checks
 * any other's. Pure functions; `now` (ms) is a parameter so tests can stand at a tick's edge.
 */
/** Nonce actions of the HTTP surfaces (docs/identity.md). */
export const NONCE_REST = 'wp_rest';
export const NONCE_ADMIN = 'billing_admin';
export const NONCE_LOGOUT = 'log-out';

export const NONCE_TICK_SECONDS = 12 * 60 * 60;

export function nonceTick(now: number): number {
  return Math.ceil(now / 1000 / NONCE_TICK_SECONDS);
}

/**
 * Nonces computed before, per key: a screen makes three and a request with a nonce checks two, and
 * within a tick they are the same values. Bounded; the least recently used leave first.
 */
const computed = new WeakMap<Buffer, LRUCache<string, string>>();
const MAX_COMPUTED = 50_000;

export function nonceForTick(key: Buffer, tick: number, action: string, userId: number, token: string): string {
  const input = `${tick}|${action}|${userId}|${token}`;
  let known = computed.get(key);
  if (!known) computed.set(key, (known = new LRUCache({ max: MAX_COMPUTED })));
  let nonce = known.get(input);
  if (nonce === undefined) {
    // WordPress takes characters -12 to -2 of its hash; so does this, of a SHA-256 HMAC
    nonce = createHmac('sha256', key).update(input).digest('hex').slice(-12, -2);
    known.set(input, nonce);
  }
  return nonce;
}

export function createNonce(key: Buffer, action: string, userId: number, token: string, now = Date.now()): string {
  return nonceForTick(key, nonceTick(now), action, userId, token);
}

/** 1 when made in the current tick, 2 when made in the previous one, 0 when not valid (as wp_verify_nonce). */
export function verifyNonce(
  key: Buffer,
  nonce: string | undefined | null,
  action: string,
  userId: number,
  token: string,
  now = Date.now(),
): 0 | 1 | 2 {
  if (typeof nonce !== 'string' || nonce.length !== 10) return 0;
  const tick = nonceTick(now);
  // both are always computed and compared, so the answer takes the same time whichever matched
  const current = safeEqual(nonce, nonceForTick(key, tick, action, userId, token));
  const previous = safeEqual(nonce, nonceForTick(key, tick - 1, action, userId, token));
  return current ? 1 : previous ? 2 : 0;
}
