import { createHmac, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';

/**
 * The service's secret (README.md): `SECRET_KEY` when set; otherwise one made at the first start and
 * kept in the database, so every instance sharing it signs and checks alike. Changing it voids every
 * session, nonce and application password (all are keyed with it).
 */
export async function loadSecret(db: Database, configured: string | undefined): Promise<Buffer> {
  if (configured) return Buffer.from(configured, 'utf8');
  await db.query(`insert into billing_secrets (name, value) values ('secret_key', $1) on conflict (name) do nothing`, [
    randomBytes(48).toString('base64url'),
  ]);
  const rows = await db.query<{ value: string }>(`select value from billing_secrets where name = 'secret_key'`);
  return Buffer.from(rows[0]!.value, 'utf8');
}

/** One key per use, so a value keyed for one purpose can never stand in for another. */
export function deriveKey(secret: Buffer, purpose: 'nonce' | 'session' | 'app-password' | 'link'): Buffer {
  return createHmac('sha256', secret).update(`billing:${purpose}`).digest();
}

export function keyedHash(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('hex');
}
