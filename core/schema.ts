import type { Database } from './db/database.ts';
import { CORE_MIGRATIONS } from './db/core-migrations.ts';
import { migrate } from './db/migrations.ts';
import { REST_MIGRATIONS } from './http/rest/idempotency.ts';
import type { AnyModule } from './modules/define-module.ts';
import { CORE_MODULES } from './modules/index.ts';

/**
 * The core modules in the order of their `requires` (a module after every module it requires), so that
 * each one's migrations run after the tables they refer to, and its services are built after theirs.
 */
export function moduleOrder(modules: readonly AnyModule[] = CORE_MODULES): AnyModule[] {
  const byName = new Map(modules.map((m) => [m.name, m]));
  const order: AnyModule[] = [];
  const visiting = new Set<string>();
  const visit = (m: AnyModule) => {
    if (order.includes(m)) return;
    if (visiting.has(m.name)) throw new Error(`core modules require each other in a circle through ${m.name}`);
    visiting.add(m.name);
    for (const r of m.requires ?? []) {
      const dep = byName.get(r);
      if (dep) visit(dep);
    }
    visiting.delete(m.name);
    order.push(m);
  };
  for (const m of modules) visit(m);
  return order;
}

/**
 * Brings the core's schema up to date: the kernel's own tables (owner `core`), then each module's, in
 * module order. Answers the steps applied, as `owner/name`.
 */
export async function migrateCore(db: Database): Promise<string[]> {
  const applied: string[] = [];
  const owners: Array<[string, AnyModule['migrations']]> = [
    ['core', CORE_MIGRATIONS],
    ['rest', REST_MIGRATIONS],
    ...moduleOrder().map((m) => [m.name, m.migrations] as [string, AnyModule['migrations']]),
  ];
  for (const [owner, steps] of owners) {
    if (!steps?.length) continue;
    applied.push(...(await migrate(db, owner, steps)).map((n) => `${owner}/${n}`));
  }
  return applied;
}
