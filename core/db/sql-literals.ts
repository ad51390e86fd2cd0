/**
 * A fixed list of strings written into SQL text as literals (`'available', 'partial', 'unpaid'`), for
 * `in (…)` lists whose values are the service's own constants. Literals rather than a bound array because
 * the planner matches a partial index's predicate (`status in (…)`) only against literals in the query.
 * Values from a request are bound (`= any($1::text[])`), never written in with this.
 */
export function sqlLiterals(values: readonly string[]): string {
  return values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ');
}
