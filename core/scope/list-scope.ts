import type { HookRegistry } from '../hooks/registry.ts';
import type { AuthUser } from '../http/auth.ts';

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

/**
 * The scope of `user`'s list of `kind`. The scoped resolver holds every single object a route names to
 * the same scope (core/scope/object-scope.ts), so a list never shows what the single routes would answer
 * 404 for, and the reverse. The filter fails closed: a listener that throws fails the list rather than
 * showing it whole.
 */
export async function listScope(hooks: HookRegistry, kind: string, user: AuthUser | undefined): Promise<ListScope> {
  if (!user || !hooks.hasFilter('billing_list_scope')) return {};
  const who = { id: user.id, login: user.login, roles: [...user.roles] };
  return hooks.applyFilters('billing_list_scope', {}, kind, who);
}
