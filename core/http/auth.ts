import type { Request } from 'express';

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
  /** Whether anything decides per object (a `billing_user_has_cap` listener): only then are object ids looked up. */
  perObject(): boolean;
}

/**
 * The document a route or action acts on, so its capability is checked for that object too
 * (`userCan(user, cap, documentId)`): per-object rules such as team roles' own scope hold on every
 * surface at once. A user who holds the capability in general but not for this object gets the
 * answer of a document that does not exist.
 */
export interface ObjectRef {
  /** The URL parameter (REST) or field (AJAX) holding the id. */
  param: string;
  /** Turns that id into the id of the document the check is about (a payment's invoice); null when there is none. */
  resolve?(id: number): Promise<number | null>;
  /**
   * For a parameter that names the document by text (an invoice's number) instead of an id: the id it
   * names, or null when none (the route then answers as for a missing document).
   */
  resolveText?(value: string): Promise<number | null>;
  /** The capability to hold for that document, when it is not the route's (duplicating reads its source). */
  capability?: string;
}

/** Who a public route sees without credentials: WordPress's user 0. */
export const ANONYMOUS: AuthUser = Object.freeze({ id: 0, login: '', roles: [] as string[] }) as AuthUser;

export const NOBODY: Authenticator = {
  restUser: async () => null,
  ajaxUser: async () => ({ user: null, nonceValid: false }),
  can: async () => false,
  perObject: () => false,
};
