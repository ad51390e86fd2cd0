import { describe, expect, it } from '@jest/globals';
import { createNonce, NONCE_TICK_SECONDS, nonceTick, verifyNonce } from './nonces.ts';

const key = Buffer.from('k'.repeat(32));
const TICK_MS = NONCE_TICK_SECONDS * 1000;
/** The first millisecond of tick n (ticks end on a multiple of 12 h, as WordPress's ceil()). */
const startOf = (n: number) => (n - 1) * TICK_MS + 1;
const endOf = (n: number) => n * TICK_MS;
const T = 40_000; // some tick in 2024

describe('nonces', () => {
  it('tick every 12 hours, changing just after each multiple of 12 h', () => {
    expect(NONCE_TICK_SECONDS).toBe(43_200);
    expect(nonceTick(endOf(T))).toBe(T);
    expect(nonceTick(endOf(T) + 1)).toBe(T + 1);
    expect(nonceTick(startOf(T))).toBe(T);
    expect(nonceTick(startOf(T) - 1)).toBe(T - 1);
  });

  it('are 10 hex characters, the same for one tick, action, user and session', () => {
    const n = createNonce(key, 'wp_rest', 7, 'token', startOf(T));
    expect(n).toMatch(/^[0-9a-f]{10}$/);
    expect(createNonce(key, 'wp_rest', 7, 'token', endOf(T))).toBe(n);
    expect(createNonce(key, 'wp_rest', 7, 'token', endOf(T) + 1)).not.toBe(n);
  });

  it('are valid in their tick (1) and the next (2), then never again', () => {
    const n = createNonce(key, 'wp_rest', 7, 'token', endOf(T)); // made at the last moment of tick T
    expect(verifyNonce(key, n, 'wp_rest', 7, 'token', endOf(T))).toBe(1);
    expect(verifyNonce(key, n, 'wp_rest', 7, 'token', endOf(T) + 1)).toBe(2);
    expect(verifyNonce(key, n, 'wp_rest', 7, 'token', endOf(T + 1))).toBe(2);
    expect(verifyNonce(key, n, 'wp_rest', 7, 'token', endOf(T + 1) + 1)).toBe(0);
    // and not before the tick it was made in
    expect(verifyNonce(key, n, 'wp_rest', 7, 'token', endOf(T - 1))).toBe(0);
  });

  it('live between 12 and 24 hours depending on when in the tick they are made', () => {
    const early = createNonce(key, 'a', 1, 's', startOf(T));
    const late = createNonce(key, 'a', 1, 's', endOf(T));
    const validAt = (nonce: string, t: number) => verifyNonce(key, nonce, 'a', 1, 's', t) !== 0;
    expect(validAt(early, startOf(T) + 24 * 3600_000 - 2)).toBe(true);
    expect(validAt(early, startOf(T) + 24 * 3600_000)).toBe(false);
    expect(validAt(late, endOf(T) + 12 * 3600_000)).toBe(true);
    expect(validAt(late, endOf(T) + 12 * 3600_000 + 1)).toBe(false);
  });

  it('are bound to the action, the user, the session token and the key', () => {
    const now = startOf(T) + 1000;
    const n = createNonce(key, 'billing_admin', 7, 'token', now);
    expect(verifyNonce(key, n, 'billing_admin', 7, 'token', now)).toBe(1);
    expect(verifyNonce(key, n, 'wp_rest', 7, 'token', now)).toBe(0);
    expect(verifyNonce(key, n, 'billing_admin', 8, 'token', now)).toBe(0);
    expect(verifyNonce(key, n, 'billing_admin', 7, 'other', now)).toBe(0);
    expect(verifyNonce(Buffer.from('x'.repeat(32)), n, 'billing_admin', 7, 'token', now)).toBe(0);
  });

  it('refuse what is not a nonce', () => {
    const now = startOf(T);
    const n = createNonce(key, 'a', 1, 's', now);
    for (const bad of [undefined, null, '', n.slice(0, 9), `${n}0`, n.toUpperCase() === n ? 'zzzzzzzzzz' : n.toUpperCase()]) {
      expect(verifyNonce(key, bad, 'a', 1, 's', now)).toBe(0);
    }
  });
});
