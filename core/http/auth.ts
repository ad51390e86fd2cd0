import type { Request } from 'express';

/** The signed-in user as the HTTP layer sees it. The identity module fills it in. */
export interface AuthUser {
  id: number;
  login: string;
  roles: string[];
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
}

/** Who a public route sees without credentials: WordPress's user 0. */
export const ANONYMOUS: AuthUser = Object.freeze({ id: 0, login: '', roles: [] as string[] }) as AuthUser;

export const NOBODY: Authenticator = {
  restUser: async () => null,
  ajaxUser: async () => ({ user: null, nonceValid: false }),
  can: async () => false,
};
