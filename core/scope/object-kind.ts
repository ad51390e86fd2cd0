/**
 * A kind of object a route or an action can name (an invoice, a client, a payment, a plugin's recurring
 * profile), declared as data by the module or plugin that owns its table (`objects` in `definePlugin`
 * and `defineModule`). The core's one scoped resolver (./object-scope.ts) reads it to find an object's
 * owner row, so that every route naming an object of the kind obeys the same scope as the kind's lists.
 *
 *   objects: [{ kind: 'recurring', noun: 'recurring profile', table: 'recurring_profiles', owner: 'created_by' }]
 */
export interface ObjectKind {
  /**
   * The name routes give (`object: { param, kind }`) and `billing_list_scope` receives for lists of it.
   * snake_case, unique across the core and the loaded plugins.
   */
  kind: string;
  /** What one is called in answers: "No recurring profile has this id." */
  noun: string;
  /** The table holding them; an object is its row by `id`. */
  table: string;
  /** The rows of `table` that are of this kind, when the table holds several: `{ kind: 'invoice' }`. */
  where?: Readonly<Record<string, string>>;
  /** The column holding the id of the user who created one: whose it is under an own scope. */
  owner?: string;
  /**
   * Instead of an owner of its own, the object lies where another kind's object lies: a payment is
   * seen by whoever sees its invoice. `column` holds that object's id.
   */
  through?: { kind: string; column: string };
  /** Columns other than `id` a route may name one by (`object: { by }`): an invoice's `number`. */
  keys?: readonly string[];
  /** Its id is a document's (invoices, quotes): the per-object capability check receives it (`billing_user_has_cap`). */
  document?: boolean;
}

const NAME = /^[a-z][a-z0-9_]{0,62}$/;

/**
 * Checks a declaration when it is loaded: names only (they become SQL identifiers), exactly one of
 * `owner` and `through`, so a mistake fails at boot or activation and never reaches a query.
 */
export function checkObjectKind(owner: string, k: ObjectKind): void {
  const where = `${owner}: object kind ${k.kind}`;
  if (!NAME.test(k.kind)) throw new Error(`${where}: the kind must be a snake_case name`);
  const identifiers = [k.table, ...Object.keys(k.where ?? {}), ...(k.owner ? [k.owner] : []), ...(k.keys ?? [])];
  if (k.through) identifiers.push(k.through.column);
  for (const id of identifiers) if (!NAME.test(id)) throw new Error(`${where}: "${id}" is not a snake_case table or column name`);
  if (Boolean(k.owner) === Boolean(k.through)) throw new Error(`${where}: declare either its owner column or the kind it lies through`);
}
