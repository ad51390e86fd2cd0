import { timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets (or their hashes) in time that does not depend on where they differ. Lengths
 * are not secret here (nonces and hashes have fixed lengths), so unequal lengths answer at once.
 */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
