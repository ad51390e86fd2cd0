import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { audit, SYSTEM, type Actor } from '../audit/audit.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { Authenticator, AuthUser } from '../http/auth.ts';
import type { Logger } from '../log.ts';
import type { ContributionSink } from '../plugins/contributions.ts';
import { AppPasswordStore } from './app-passwords.ts';
import { IdentityAuthenticator } from './authenticator.ts';
import { ADMINISTRATOR } from './capabilities.ts';
import { cookieValue, serializeCookie } from './cookies.ts';
import { createNonce, verifyNonce } from './nonces.ts';
export { NONCE_ADMIN, NONCE_LOGOUT, NONCE_REST } from './nonces.ts';
import { verifyPassword } from './passwords.ts';
import { CredentialCache } from './credential-cache.ts';
import { RoleRegistry } from './role-registry.ts';
import { safeEqual } from './safe-equal.ts';
import { deriveKey, keyedHash, loadSecret } from './secret.ts';
import { SESSION_COOKIE, SessionStore, type SessionStart } from './sessions.ts';
import { SignInThrottle, THROTTLE_SETTINGS, tooManyAtOnce, tooManyAttempts, type ThrottleLimits } from './throttle.ts';
import { UserStore, type User } from './users.ts';

export interface IdentityDeps {
  db: Database;
  hooks: HookRegistry;
  config: Config;
  log: Logger;
  /** The clock of nonces (ms); tests move it. */
  now?: () => number;
  /** The sign-in throttle's limits (the options; their defaults without). */
  throttleLimits?: () => Promise<ThrottleLimits>;
}

/**
 * Password checks one client address may have under way at once on an instance: the hashing pool
 * has four threads, and one address must not hold them all while its failures are still being counted.
 */
const HASHES_PER_ADDRESS = 2;

export interface FirstAdmin {
  login: string;
  /** Null when BILLING_ADMIN_PASSWORD gave it. */
  password: string | null;
  appPassword: string;
}

/**
 * The identity module: users, roles and capabilities, sign-in passwords, application passwords,
 * sessions and nonces, and the Authenticator the HTTP surfaces ask who is calling. Every capability
 * check of every surface goes through `userCan`.
 */
export class Identity {
  readonly roles = new RoleRegistry();
  /** Application-password look-ups kept while the change feed is live (attached by the kernel). */
  readonly credentials = new CredentialCache();
  readonly users: UserStore;
  readonly appPasswords: AppPasswordStore;
  readonly sessions: SessionStore;
  readonly throttle: SignInThrottle;
  readonly auth: Authenticator;
  now: () => number;
  private readonly db: Database;
  private readonly hooks: HookRegistry;
  private readonly config: Config;
  private readonly log: Logger;
  private keys: { nonce: Buffer; session: Buffer; appPassword: Buffer; link: Buffer } | null = null;
  /** The session token a cookie-authenticated user came with, for the nonces made for them. */
  private readonly tokens = new WeakMap<AuthUser, string>();
  /** Password checks under way, per client address (HASHES_PER_ADDRESS). */
  private readonly hashing = new Map<string, number>();
  /** What this instance's sign-ins cost: password hashes computed, and the most one address had under way at once. */
  readonly signInStats = { passwordChecks: 0, mostAtOnce: 0 };

  constructor(deps: IdentityDeps) {
    this.db = deps.db;
    this.hooks = deps.hooks;
    this.config = deps.config;
    this.log = deps.log;
    this.now = deps.now ?? Date.now;
    this.users = new UserStore(deps.db, this.roles, this.credentials);
    this.appPasswords = new AppPasswordStore(deps.db, () => this.key('appPassword'), this.credentials);
    this.sessions = new SessionStore(deps.db, () => this.key('session'), this.credentials);
    const defaults = {
      account: THROTTLE_SETTINGS.signin_max_failures_account.default,
      address: THROTTLE_SETTINGS.signin_max_failures_address.default,
      seconds: THROTTLE_SETTINGS.signin_lockout_seconds.default,
    };
    this.throttle = new SignInThrottle(deps.db, deps.throttleLimits ?? (async () => defaults));
    this.auth = new IdentityAuthenticator(this);
  }

  /** Loads (or, the first time, makes) the secret. Must run before any request. */
  async init(): Promise<void> {
    const secret = await loadSecret(this.db, this.config.secretKey);
    this.keys = {
      nonce: deriveKey(secret, 'nonce'),
      session: deriveKey(secret, 'session'),
      appPassword: deriveKey(secret, 'app-password'),
      link: deriveKey(secret, 'link'),
    };
  }

  private key(which: 'nonce' | 'session' | 'appPassword' | 'link'): Buffer {
    if (!this.keys) throw new Error('the identity module is used before init()');
    return this.keys[which];
  }

  /**
   * A signature for a link the service hands out without an access key (the page a gateway sends the
   * customer back to): `purpose` and `value` are both covered, so it opens that one page and no other.
   */
  signLink(purpose: string, value: string): string {
    return keyedHash(this.key('link'), `${purpose}:${value}`).slice(0, 32);
  }

  checkLink(purpose: string, value: string, signature: unknown): boolean {
    return typeof signature === 'string' && signature.length === 32 && safeEqual(this.signLink(purpose, value), signature);
  }

  /**
   * `userCan(user, cap, ...objectIds)`: the one capability check (docs/identity.md). The user's roles give
   * WordPress's `allcaps`; the administrator holds every capability, even one nobody declared; then
   * `billing_user_has_cap` may change the answer (a team-roles plugin, per-object rules).
   */
  async userCan(user: AuthUser, capability: string, ...objectIds: number[]): Promise<boolean> {
    const isAdmin = user.roles.includes(ADMINISTRATOR);
    const held = this.rolesTable(user);
    // the common case, no listener: no copy of the table is needed
    if (!this.hooks.hasFilter('billing_user_has_cap')) return isAdmin || held[capability] === true;
    const allcaps: Record<string, boolean> = { ...held };
    if (isAdmin) allcaps[capability] = true;
    const who = { id: user.id, login: user.login, roles: [...user.roles] };
    // the filter fails closed: a listener that throws (it may have been removing this capability) denies
    const filtered = await this.hooks
      .applyFilters('billing_user_has_cap', allcaps, [capability], [capability, user.id, ...objectIds], who)
      .catch(() => null);
    return Boolean(filtered?.[capability]);
  }

  /**
   * Which of `capabilities` the user holds, each as `userCan` answers it: one call for the many a page
   * asks about (its menu, what its buttons need). Without a `billing_user_has_cap` listener the roles
   * alone answer, all at once.
   */
  async capabilitiesAmong(user: AuthUser, capabilities: readonly string[]): Promise<string[]> {
    if (this.hooks.hasFilter('billing_user_has_cap')) {
      const held: string[] = [];
      for (const c of capabilities) if (await this.userCan(user, c)) held.push(c);
      return held;
    }
    if (user.roles.includes(ADMINISTRATOR)) return [...capabilities];
    const table = this.rolesTable(user);
    return capabilities.filter((c) => table[c] === true);
  }

  private rolesTable(user: AuthUser): Readonly<Record<string, boolean>> {
    return user.roles.length === 1 ? this.roles.capabilitiesOf(user.roles[0]!) : this.merged(user.roles);
  }

  /** Whether a `billing_user_has_cap` listener may decide per object (else object ids change nothing). */
  decidesPerObject(): boolean {
    return this.hooks.hasFilter('billing_user_has_cap') !== false;
  }

  private merged(roles: string[]): Record<string, boolean> {
    return Object.assign({}, ...roles.map((r) => this.roles.capabilitiesOf(r)));
  }

  // sessions and cookies

  sessionToken(req: Request): string | undefined {
    return cookieValue(req.headers.cookie, SESSION_COOKIE);
  }

  /** The user signed in by the request's session cookie (the admin screens and admin-ajax). */
  async sessionUser(req: Request): Promise<AuthUser | null> {
    const token = this.sessionToken(req);
    const user = await this.sessions.user(token);
    if (user) this.tokens.set(user, token!);
    return user;
  }

  /** The session token of a user that came with a cookie ('' for any other). */
  sessionOf(user: AuthUser | null): string {
    return (user && this.tokens.get(user)) ?? '';
  }

  /**
   * Checks `name` (login or e-mail) and password, then starts a session. The previous session of the
   * browser, if any, ends: a sign-in always gets a new token (no session fixation). Throttled (throws
   * `billing_too_many_attempts`) when the account or the address has failed too often: refused before
   * the password is hashed, so failures cannot keep the hashing pool busy.
   */
  async signIn(
    name: string,
    password: string,
    opts: { remember: boolean; ip: string | null; userAgent: string | null; previousToken?: string },
  ): Promise<{ user: User; session: SessionStart } | null> {
    const found = name ? await this.users.forSignIn(name.slice(0, 254)) : null;
    // the login and the e-mail of one user share a count; an unknown name counts as itself
    const keys = SignInThrottle.keys('form', found ? `user:${found.id}` : `name:${name.slice(0, 254)}`, opts.ip ?? '');
    await this.throttle.refuseIfLocked(keys);
    const address = opts.ip ?? '';
    const busy = this.hashing.get(address) ?? 0;
    if (busy >= HASHES_PER_ADDRESS) throw tooManyAtOnce();
    this.hashing.set(address, busy + 1);
    this.signInStats.passwordChecks++;
    this.signInStats.mostAtOnce = Math.max(this.signInStats.mostAtOnce, busy + 1);
    let ok: boolean;
    try {
      ok = await verifyPassword(password, found?.password_hash);
    } finally {
      const left = (this.hashing.get(address) ?? 1) - 1;
      if (left > 0) this.hashing.set(address, left);
      else this.hashing.delete(address);
    }
    if (!found || !ok) {
      const wait = await this.throttle.fail(keys);
      if (wait > 0) throw tooManyAttempts(wait);
      return null;
    }
    await this.throttle.succeed(keys.account);
    const { password_hash: _h, ...user } = found;
    const session = await this.db.transaction(async (tx) => {
      await this.sessions.end(tx, opts.previousToken);
      const s = await this.sessions.start(tx, user.id, opts.remember, opts.ip, opts.userAgent);
      await audit(
        tx,
        { id: user.id, name: user.login, ip: opts.ip },
        { action: 'user.login', objectType: 'user', objectId: user.id, details: { remember: opts.remember } },
      );
      return s;
    });
    return { user, session };
  }

  async signOut(token: string | undefined, ip: string | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      const userId = await this.sessions.end(tx, token);
      if (userId === null) return;
      const rows = await tx.query<{ login: string }>('select login from billing_users where id = $1', [userId]);
      await audit(
        tx,
        { id: userId, name: rows[0]?.login ?? String(userId), ip },
        { action: 'user.logout', objectType: 'user', objectId: userId },
      );
    });
  }

  /** Secure when the site is served over https (docs/identity.md). */
  sessionCookie(session: SessionStart): string {
    return serializeCookie(SESSION_COOKIE, session.token, { maxAge: session.maxAge, secure: this.secureCookies });
  }

  clearedSessionCookie(): string {
    return serializeCookie(SESSION_COOKIE, '', { maxAge: 0, secure: this.secureCookies });
  }

  private get secureCookies(): boolean {
    return this.config.baseUrl.startsWith('https:');
  }

  // nonces

  createNonce(action: string, user: AuthUser | null): string {
    return createNonce(this.key('nonce'), action, user?.id ?? 0, this.sessionOf(user), this.now());
  }

  checkNonce(nonce: string | undefined | null, action: string, user: AuthUser | null): boolean {
    return verifyNonce(this.key('nonce'), nonce, action, user?.id ?? 0, this.sessionOf(user), this.now()) !== 0;
  }

  // first start

  /**
   * With no users at all, creates `admin` (administrator) with BILLING_ADMIN_PASSWORD or a
   * generated password, plus an application password, and hands both to `announce` once. Instances
   * starting together take turns on a transaction lock, so only one creates it.
   */
  async ensureFirstAdmin(announce: (text: string) => void): Promise<FirstAdmin | null> {
    const given = this.config.adminPassword;
    const password = given ?? randomBytes(18).toString('base64url');
    // an address to change later; the site's host name when it is a domain name
    const site = new URL(this.config.baseUrl).hostname;
    const host = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(site) ? site : 'localhost.localdomain';
    const user = await this.db.transaction(async (tx) => {
      await tx.query(`select pg_advisory_xact_lock(hashtext('billing_first_admin'))`);
      const rows = await tx.query<{ n: number }>('select count(*)::int as n from billing_users');
      if (rows[0]!.n > 0) return null;
      return this.users.create(
        { login: 'admin', email: `admin@${host}`, role: ADMINISTRATOR, password, display_name: 'Administrator' },
        SYSTEM,
        tx,
      );
    });
    if (!user) return null;
    const app = await this.appPasswords.create(user, 'first start', SYSTEM);
    this.log.info({ login: user.login }, 'created the first administrator');
    announce(
      [
        '',
        '======================================================================',
        ` Created the administrator "${user.login}" (shown once, keep it safe)`,
        ` Password:             ${given ? '(from BILLING_ADMIN_PASSWORD)' : password}`,
        ` Application password: ${app.password}`,
        ` Sign in at ${this.config.baseUrl}/wp-login.php`,
        '======================================================================',
        '',
      ].join('\n'),
    );
    return { login: user.login, password: given ? null : password, appPassword: app.password };
  }

  /**
   * Takes the roles and capabilities units declare, and checks that every capability their routes,
   * actions and screens ask for exists (the core's, theirs, or a loaded plugin's): a typo in a
   * capability would otherwise make a route that only administrators can reach, silently.
   */
  sink(): ContributionSink {
    return {
      name: 'roles',
      load: (r) => {
        this.roles.add(r.owner, { capabilities: r.capabilities, roles: r.roles, grants: r.grants });
        const asked = [
          ...r.rest.map((x) => x.capability),
          ...r.ajax.flatMap((x) =>
            typeof x.capability === 'object' && x.capability ? [x.capability.create, x.capability.edit] : [x.capability],
          ),
          ...r.ajax.map((x) => x.legacyCapability),
          ...r.screens.map((x) => x.capability),
        ];
        const known = new Set(this.roles.allCapabilities());
        const unknown = [...new Set(asked.filter((c): c is string => typeof c === 'string' && !known.has(c)))];
        if (unknown.length) throw new Error(`${r.owner} asks for capabilities nobody declares: ${unknown.join(', ')}`);
      },
      unload: (owner) => this.roles.removeOwner(owner),
    };
  }

  /** The actor of a request made by `user`, for the audit log. */
  static actor(user: AuthUser | null, ip: string | null | undefined): Actor {
    return user ? { id: user.id, name: user.login, ip: ip ?? null } : { id: null, name: 'visitor', ip: ip ?? null };
  }
}
