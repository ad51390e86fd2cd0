import type { Request } from 'express';
import { BillingError } from '../errors.ts';
import type { Authenticator, AuthUser } from '../http/auth.ts';
import type { AppPasswordStore } from './app-passwords.ts';
import { NONCE_ADMIN, NONCE_REST } from './nonces.ts';
import { SignInThrottle, tooManyAttempts } from './throttle.ts';

/**
 * What the authenticator asks of the identity service (which passes itself): sessions, nonces,
 * application passwords, the sign-in throttle and capabilities.
 */
export interface IdentityChecks {
  readonly appPasswords: Pick<AppPasswordStore, 'authenticate'>;
  readonly throttle: Pick<SignInThrottle, 'fail'>;
  sessionToken(req: Request): string | undefined;
  sessionUser(req: Request): Promise<AuthUser | null>;
  checkNonce(nonce: string | undefined | null, action: string, user: AuthUser | null): boolean;
  userCan(user: AuthUser, capability: string, ...objectIds: number[]): Promise<boolean>;
  decidesPerObject(): boolean;
}

/**
 * Who is calling, per surface (docs/identity.md):
 * - REST: HTTP Basic with an application password (login or e-mail as the user name), else the session
 *   cookie with `X-WP-Nonce` (or `_wpnonce`) for `wp_rest`. A cookie without a nonce counts as nobody;
 *   a valid cookie with a bad nonce is 403 `rest_cookie_invalid_nonce`. Every other failure is simply
 *   "nobody", which the REST server turns into the one 401.
 * - AJAX: the session cookie only, with `_wpnonce` for `billing_admin`.
 */
export class IdentityAuthenticator implements Authenticator {
  private readonly identity: IdentityChecks;

  constructor(identity: IdentityChecks) {
    this.identity = identity;
  }

  async restUser(req: Request): Promise<AuthUser | null> {
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const basic = parseBasic(authorization);
      if (basic) return this.basicUser(basic.name, basic.password, req.ip ?? '');
      if (/^basic\b/i.test(authorization)) return null;
    }
    const headerNonce = req.get('X-WP-Nonce');
    const nonce = headerNonce ?? (typeof req.query._wpnonce === 'string' ? req.query._wpnonce : undefined);
    // without a nonce the cookie is ignored, so there is nothing to look up
    if (!nonce || !this.identity.sessionToken(req)) return null;
    const user = await this.identity.sessionUser(req);
    if (!user) return null;
    if (!this.identity.checkNonce(nonce, NONCE_REST, user)) throw new BillingError('rest_cookie_invalid_nonce', 'Cookie check failed');
    return user;
  }

  /**
   * Application passwords are long random secrets checked with one keyed hash, so only failures are
   * counted (a success costs nothing more); once the name or the address has failed too often, a
   * failure answers 429 instead of 401. A right password still works while its name is locked: a
   * stranger's guesses must not cut off an integration that holds the real one.
   */
  private async basicUser(name: string, password: string, ip: string): Promise<AuthUser | null> {
    const user = await this.identity.appPasswords.authenticate(name, password, ip);
    if (user) return user;
    const wait = await this.identity.throttle.fail(SignInThrottle.keys('app', name.slice(0, 254), ip));
    if (wait > 0) throw tooManyAttempts(wait);
    return null;
  }

  async ajaxUser(req: Request, nonce: string | undefined): Promise<{ user: AuthUser | null; nonceValid: boolean }> {
    const user = await this.identity.sessionUser(req);
    return { user, nonceValid: user !== null && this.identity.checkNonce(nonce, NONCE_ADMIN, user) };
  }

  can(user: AuthUser, capability: string, ...objectIds: number[]): Promise<boolean> {
    return this.identity.userCan(user, capability, ...objectIds);
  }

  perObject(): boolean {
    return this.identity.decidesPerObject();
  }
}

function parseBasic(header: string): { name: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = text.indexOf(':');
  if (i < 1) return null;
  return { name: text.slice(0, i), password: text.slice(i + 1) };
}
