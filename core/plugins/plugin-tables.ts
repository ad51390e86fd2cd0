import type { Database } from '../db/database.ts';
import { BillingError } from '../errors.ts';

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A plugin's own tables through four verbs (`ctx.tables`), the same for a plugin in the service's realm
 * and one in the sandbox: select, insert, update and delete by column equality. A trusted plugin may
 * name any table prefixed with its name; a sandboxed one only those its `tables` permission lists.
 */
export interface PluginTables {
  select(table: string, where?: Record<string, unknown>): Promise<Array<Record<string, unknown>>>;
  insert(table: string, row: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Answers how many rows changed. */
  update(table: string, where: Record<string, unknown>, set: Record<string, unknown>): Promise<number>;
  delete(table: string, where?: Record<string, unknown>): Promise<number>;
}

/** The tables of a plugin in the service's realm: those prefixed with its name. */
export function pluginTables(db: Database, plugin: string): PluginTables {
  const prefix = `${plugin.replace(/-/g, '_')}_`;
  const verb =
    (v: string) =>
    (table: string, ...rest: unknown[]): Promise<any> => {
      if (!table.startsWith(prefix) || !IDENT.test(table))
        throw new BillingError('rest_invalid_param', `${plugin} may use only tables named ${prefix}…`);
      return tableVerb(db, v, [table, ...rest]);
    };
  return { select: verb('select'), insert: verb('insert'), update: verb('update'), delete: verb('delete') };
}

/** One verb on a table already allowed; column names are checked identifiers, values always parameters. */
export async function tableVerb(db: Database, verb: string, args: any[]): Promise<unknown> {
  const [table, a, b] = args as [string, Record<string, unknown> | undefined, Record<string, unknown> | undefined];
  const cols = (o: Record<string, unknown> | undefined) => {
    const keys = Object.keys(o ?? {});
    for (const k of keys) if (!IDENT.test(k)) throw new BillingError('rest_invalid_param', `${k} is not a column name`);
    return keys;
  };
  const params: unknown[] = [];
  const where = (o: Record<string, unknown> | undefined) => {
    const keys = cols(o);
    return keys.length ? ` where ${keys.map((k) => (params.push(o![k]), `"${k}" = $${params.length}`)).join(' and ')}` : '';
  };
  if (verb === 'select') return db.query(`select * from "${table}"${where(a)} limit 1000`, params);
  if (verb === 'delete') return (await db.query(`delete from "${table}"${where(a)} returning *`, params)).length;
  if (verb === 'insert') {
    const keys = cols(a);
    const values = keys.map((k) => (params.push(a![k]), `$${params.length}`));
    return (
      await db.query(`insert into "${table}" (${keys.map((k) => `"${k}"`).join(', ')}) values (${values.join(', ')}) returning *`, params)
    )[0];
  }
  if (verb === 'update') {
    const sets = cols(b).map((k) => (params.push(b![k]), `"${k}" = $${params.length}`));
    if (!sets.length) return 0;
    return (await db.query(`update "${table}" set ${sets.join(', ')}${where(a)} returning *`, params)).length;
  }
  throw new BillingError('rest_invalid_param', `unknown table verb ${verb}`);
}
