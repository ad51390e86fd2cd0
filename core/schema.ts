import type { Database } from './db/database.ts';
import { CORE_MIGRATIONS } from './db/core-migrations.ts';
import { migrate } from './db/migrations.ts';
import { DOCUMENT_MIGRATIONS } from './documents/migrations.ts';
import { MAIL_MIGRATIONS } from './mail/migrations.ts';
import { PAYMENT_MIGRATIONS } from './payments/migrations.ts';

/** Each core module's migrations, in the order they must run (later modules refer to earlier tables). */
const CORE_SCHEMA: ReadonlyArray<[owner: string, steps: typeof CORE_MIGRATIONS]> = [
  ['core', CORE_MIGRATIONS],
  ['documents', DOCUMENT_MIGRATIONS],
  ['payments', PAYMENT_MIGRATIONS],
  ['mail', MAIL_MIGRATIONS],
];

/** Brings the core's schema up to date; answers the steps applied, as `owner/name`. */
export async function migrateCore(db: Database): Promise<string[]> {
  const applied: string[] = [];
  for (const [owner, steps] of CORE_SCHEMA) applied.push(...(await migrate(db, owner, steps)).map((n) => `${owner}/${n}`));
  return applied;
}
