import { Database } from '../../core/db/database.ts';
import { migrateCore } from '../../core/schema.ts';
import { HookRegistry } from '../../core/hooks/registry.ts';
import { silentLogger } from '../../core/log.ts';
import { CORE_SETTINGS } from '../../core/options/option-map.ts';
import { OptionsStore } from '../../core/options/options.ts';
import { usingPostgres } from '../../testing/database.ts';

export interface Services {
  db: Database;
  hooks: HookRegistry;
  options: OptionsStore;
}

/**
 * The core's services on a migrated database, without HTTP: for tests of the in-process API. The
 * embedded database serves 8 connections in all, so its pools stay small.
 */
export async function services(url: string, poolMax = usingPostgres ? 10 : 3): Promise<Services> {
  const log = silentLogger();
  const db = await Database.connect({ url, poolMax, log });
  await migrateCore(db);
  const hooks = new HookRegistry(log);
  const options = new OptionsStore(db, hooks);
  options.declare('core', CORE_SETTINGS);
  return { db, hooks, options };
}
