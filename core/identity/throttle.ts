import type { Database } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import type { Migration } from '../db/migrations.ts';
import type { SettingsDeclaration } from '../options/option-map.ts';

declare module '../options/option-map.ts' {
  interface OptionMap {
    signin_max_failures_account: number;
    signin_max_failures_address: number;
    signin_lockout_seconds: number;
  }
}

/** The throttle's settings, declared by the identity module (shared by every instance, like every option). */
export const THROTTLE_SETTINGS = {
  signin_max_failures_account: {
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    default: 5,
    description: 'Failed sign-ins (form or application password) one account takes before it is locked for a while',
  },
  signin_max_failures_address: {
    type: 'integer',
    minimum: 1,
    maximum: 100_000,
    default: 20,
    description: 'Failed sign-ins one client address makes, whatever the accounts, before it is locked for a while',
  },
  signin_lockout_seconds: {
    type: 'integer',
    minimum: 1,
    maximum: 86_400,
    default: 900,
    description: 'How long failures are counted, and how long a lock lasts (seconds)',
  },
} as const satisfies SettingsDeclaration;

/**
 * The counters live in the database, so every instance sees the same ones: spreading guesses over
 * instances behind a load balancer buys nothing.
 */
export const THROTTLE_MIGRATIONS: Migration[] = [
  {
    name: '0001_signin_failures',
    up: `
      -- one row per throttled key ('form:account:…', 'form:address:…', 'app:…'): failures in the
      -- current window and, once there were too many, until when the key is refused
      create table billing_signin_failures (
        key text primary key,
        failures int not null,
        first_at timestamptz not null default now(),
        locked_until timestamptz
      );
      create index billing_signin_failures_first on billing_signin_failures (first_at);
    `,
  },
];

export interface ThrottleLimits {
  account: number;
  address: number;
  seconds: number;
}

/** Which door a failure came through: each counts on its own (an integration's stale application password does not lock its owner out of the form). */
export type ThrottleDoor = 'form' | 'app';

/**
 * Failed sign-ins, counted per account and per client address (docs/security.md, Sign-in throttling).
 * Each key gets `limit` failures in a window of `seconds`; the failure that reaches the limit locks
 * the key for `seconds`. A locked key is refused before any password is checked, so a flood of
 * guesses costs one indexed read each and never reaches the hashing pool. A sign-in that succeeds
 * clears its account's count (not its address's: one account of one's own must not reset the
 * guesses made at others).
 */
export class SignInThrottle {
  private readonly db: Database;
  private readonly limits: () => Promise<ThrottleLimits>;

  constructor(db: Database, limits: () => Promise<ThrottleLimits>) {
    this.db = db;
    this.limits = limits;
  }

  static keys(door: ThrottleDoor, account: string, address: string): { account: string; address: string } {
    return { account: `${door}:account:${account.toLowerCase()}`, address: `${door}:address:${address}` };
  }

  /** Seconds until the first of `keys` to be locked opens again; 0 when none is locked. */
  async wait(keys: { account: string; address: string }): Promise<number> {
    const rows = await this.db.query<{ s: number | null }>(
      `select ceil(extract(epoch from max(locked_until) - now()))::int as s
         from billing_signin_failures where key = any($1) and locked_until > now()`,
      [[keys.account, keys.address]],
    );
    return Math.max(0, rows[0]?.s ?? 0);
  }

  /** Throws the 429 when any of `keys` is locked. */
  async refuseIfLocked(keys: { account: string; address: string }): Promise<void> {
    const seconds = await this.wait(keys);
    if (seconds > 0) throw tooManyAttempts(seconds);
  }

  /** Counts a failure on both keys; answers the seconds the caller must now wait (0 when still free). */
  async fail(keys: { account: string; address: string }): Promise<number> {
    const limits = await this.limits();
    let wait = 0;
    for (const [key, limit] of [
      [keys.account, limits.account],
      [keys.address, limits.address],
    ] as const) {
      // a window that is over (or a lock that has run out) starts again at this failure
      const rows = await this.db.query<{ s: number | null }>(
        `insert into billing_signin_failures as f (key, failures, first_at, locked_until)
              values ($1, 1, now(), case when $2::int <= 1 then now() + make_interval(secs => $3::int) end)
         on conflict (key) do update set
           failures = case when f.first_at <= now() - make_interval(secs => $3::int) or f.locked_until <= now()
                           then 1 else f.failures + 1 end,
           first_at = case when f.first_at <= now() - make_interval(secs => $3::int) or f.locked_until <= now()
                           then now() else f.first_at end,
           locked_until = case
             when f.first_at <= now() - make_interval(secs => $3::int) or f.locked_until <= now()
               then case when $2::int <= 1 then now() + make_interval(secs => $3::int) end
             when f.locked_until is not null then f.locked_until
             when f.failures + 1 >= $2::int then now() + make_interval(secs => $3::int)
           end
         returning ceil(extract(epoch from locked_until - now()))::int as s`,
        [key, limit, limits.seconds],
      );
      wait = Math.max(wait, rows[0]?.s ?? 0);
    }
    return wait;
  }

  /** A successful sign-in: the account starts afresh. */
  async succeed(accountKey: string): Promise<void> {
    await this.db.query('delete from billing_signin_failures where key = $1', [accountKey]);
  }

  /** Forgets windows that are over and locks that have run out (the cleanup job). */
  async prune(): Promise<number> {
    const { seconds } = await this.limits();
    const rows = await this.db.query(
      `delete from billing_signin_failures
        where first_at <= now() - make_interval(secs => $1::int) and (locked_until is null or locked_until <= now())
        returning key`,
      [seconds],
    );
    return rows.length;
  }
}

/** 429 with the seconds to wait: the surfaces send them as `Retry-After` (core/http/error-bodies.ts). */
export function tooManyAttempts(seconds: number): BillingError {
  const minutes = Math.ceil(seconds / 60);
  return new BillingError(
    'billing_too_many_attempts',
    `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { retry_after: Math.max(1, Math.ceil(seconds)) },
  );
}

/** 429 for sign-ins from one address arriving faster than their passwords can be checked. */
export function tooManyAtOnce(): BillingError {
  return new BillingError('billing_too_many_attempts', 'Too many sign-in attempts at once. Please try again in a moment.', {
    retry_after: 1,
  });
}
