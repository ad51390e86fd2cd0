import type { Request } from 'express';
import type { ErrorCode } from '../errors.ts';

/** The signed-in user as the HTTP layer sees it. The identity module fills it in. */
export interface AuthUser {
  id: number;
  login: string;
  roles: string[];
  /** The name screens greet a signed-in user with, when the sign-in told it (a session does). */
  displayName?: string;
}

/**
 * How the HTTP surfaces learn who is calling and what they may do. The identity module provides the
 * real one; until it is loaded nobody is signed in, so every REST route answers 401.
 */
export interface Authenticator {
  /** REST: application password (Basic) or cookie + X-WP-Nonce. Null when no user; throws on a bad nonce. */
  restUser(req: Request): Promise<AuthUser | null>;
  /** AJAX: cookie only. `nonceValid` checks `_wpnonce` for action `billing_admin`. */
  ajaxUser(req: Request, nonce: string | undefined): Promise<{ user: AuthUser | null; nonceValid: boolean }>;
  can(user: AuthUser, capability: string, ...objectIds: number[]): Promise<boolean>;
  /**
   * Whether a `billing_user_has_cap` listener may decide per object: with a `billing_list_scope` listener,
   * what makes the scoped resolver look objects up (core/scope/object-scope.ts).
   */
  perObject(): boolean;
}

/**
 * An object a route or action names, resolved through the core's one scoped resolver
 * (core/scope/object-scope.ts): it answers as for an object that does not exist when the object lies
 * outside the caller's scope for its kind (`billing_list_scope`, the rule its lists obey) or, for a
 * document, when `billing_user_has_cap` denies the capability for it. Every parameter that names an
 * object must be declared so, or the route is refused when it is registered (core/scope/object-params.ts).
 */
export interface ObjectRef {
  /**
   * The URL parameter (REST) or field (AJAX) holding the id; `a.b` for field `b` of parameter `a`, given
   * as an object or as JSON text (a recurring template's `client_id`, a builder's `invoice`).
   */
  param: string;
  /** What it names: a kind the core or a loaded plugin declares (`invoice`, `client`, `payment`, `recurring`, …). */
  kind: string;
  /** A column of the kind's `keys` the parameter gives instead of the id (an invoice's `number`). */
  by?: string;
  /** The capability to hold for that object, when it is not the route's (duplicating reads its source). */
  capability?: string;
  /**
   * The answer for an object that does not exist or lies outside the scope, when the parameter refers to
   * it from a body rather than naming the route's resource: a document's `client_id` is
   * `billing_rest_no_client`. Default: 404 `billing_rest_not_found`.
   */
  missing?: ErrorCode;
}

/**
 * Parameters that look as if they named an object (a path parameter, `id`, `*_id`) but name none that a
 * scope governs, each with the reason: `{ role: 'a role's name, not an object of anyone's' }`. Rare, and
 * visible in the declaration; every other such parameter must be in `object`.
 */
export type UnscopedParams = Readonly<Record<string, string>>;

/** Who a public route sees without credentials: WordPress's user 0. */
export const ANONYMOUS: AuthUser = Object.freeze({ id: 0, login: '', roles: [] as string[] }) as AuthUser;

export const NOBODY: Authenticator = {
  restUser: async () => null,
  ajaxUser: async () => ({ user: null, nonceValid: false }),
  can: async () => false,
  perObject: () => false,
};
