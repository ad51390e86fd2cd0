/**
 * What a list, a search or a count of a kind of object is narrowed to for the user asking
 * (`billing_list_scope`). Data, not SQL: the core turns it into its own WHERE clause, so a listener can
 * narrow a list but never widen it or inject anything. `{}` is everything the user's capability already
 * allows.
 */
export interface ListScope {
  /**
   * Only the objects whose owner row this user created (core/scope/object-kind.ts): their documents,
   * clients and recurring profiles; the payments and credit notes of their invoices.
   */
  created_by?: number;
}
