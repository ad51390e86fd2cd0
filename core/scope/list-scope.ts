import type { HookRegistry } from '../hooks/registry.ts';
import type { AuthUser } from '../http/auth.ts';
import type { ListScope } from './types.ts';

export type { ListScope } from './types.ts';

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
