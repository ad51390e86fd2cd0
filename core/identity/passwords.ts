import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Sign-in passwords: scrypt (docs/identity.md) with OWASP's parameters for 32 MiB of memory
 * (N = 2^15, r = 8, p = 3), stored as `$scrypt$ln=15,r=8,p=3$<salt>$<hash>` so the cost can be raised
 * later without invalidating stored hashes. Application passwords are not hashed here: they are long
 * random secrets and take a keyed HMAC instead (app-passwords.ts).
 */
const LN = 15;
const R = 8;
const P = 3;
const KEYLEN = 32;
export const MAX_PASSWORD_LENGTH = 4096;

function derive(password: string, salt: Buffer, ln: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** ln;
  const opts: ScryptOptions = { N, r, p, maxmem: 128 * N * r * 2 + 16 * 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEYLEN, opts, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  if (!password || password.length > MAX_PASSWORD_LENGTH) throw new Error('a password must be 1 to 4096 characters');
  const salt = randomBytes(16);
  const hash = await derive(password, salt, LN, R, P);
  return `$scrypt$ln=${LN},r=${R},p=${P}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Hashed once, lazily: checked against when there is no real hash, so a miss costs what a hit costs. */
let dummy: Promise<string> | null = null;

/**
 * Whether `password` matches `stored`. With no stored hash (unknown user, user without a password) a
 * dummy hash is checked all the same, so the answer takes as long and user names cannot be probed.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = stored ? parse(stored) : null;
  if (!parsed || !password || password.length > MAX_PASSWORD_LENGTH) {
    dummy ??= hashPassword(randomBytes(16).toString('hex'));
    const d = parse(await dummy)!;
    await derive(password.slice(0, MAX_PASSWORD_LENGTH) || 'x', d.salt, d.ln, d.r, d.p);
    return false;
  }
  const hash = await derive(password, parsed.salt, parsed.ln, parsed.r, parsed.p);
  return hash.length === parsed.hash.length && timingSafeEqual(hash, parsed.hash);
}

function parse(stored: string): { ln: number; r: number; p: number; salt: Buffer; hash: Buffer } | null {
  const m = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored);
  if (!m) return null;
  const [ln, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (ln < 10 || ln > 20 || r < 1 || r > 32 || p < 1 || p > 16) return null;
  return { ln, r, p, salt: Buffer.from(m[4]!, 'base64'), hash: Buffer.from(m[5]!, 'base64') };
}
