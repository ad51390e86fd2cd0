import { randomBytes } from 'node:crypto';

/** Application passwords (docs/identity.md): 24 characters of [A-Za-z0-9], about 143 bits. */
export const APP_PASSWORD_LENGTH = 24;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function generateAppPassword(): string {
  let out = '';
  while (out.length < APP_PASSWORD_LENGTH) {
    for (const b of randomBytes(32)) {
      // 248 = 4 × 62: rejecting the bytes above keeps every character equally likely
      if (b < 248 && out.length < APP_PASSWORD_LENGTH) out += ALPHABET[b % 62];
    }
  }
  return out;
}

/** As shown once to its owner: groups of 4 separated by spaces ("abcd efgh ijkl mnop qrst uvwx"). */
export function formatAppPassword(password: string): string {
  return password.match(/.{1,4}/g)!.join(' ');
}

/** What a client sends may keep the spaces (or any separator): everything but [A-Za-z0-9] is dropped. */
export function normalizeAppPassword(input: string): string {
  return input.replace(/[^A-Za-z0-9]/g, '');
}
