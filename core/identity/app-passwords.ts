import { randomUUID } from 'node:crypto';
import { audit, type Actor } from '../audit/audit.ts';
import { timestamp, type Database } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import type { AuthUser } from '../http/auth.ts';
import type { CredentialCache, Credential } from './credential-cache.ts';
import { APP_PASSWORD_LENGTH, formatAppPassword, generateAppPassword, normalizeAppPassword } from './app-password-format.ts';
import { safeEqual } from './safe-equal.ts';
import { keyedHash } from './secret.ts';
import type { User } from './users.ts';

export interface AppPasswordInfo {
  uuid: string;
  name: string;
  created: string;
  last_used: string | null;
  last_ip: string | null;
}

export interface NewAppPassword {
  uuid: string;
  name: string;
  /** Shown once, in groups of 4; never stored. */
  password: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Application passwords (docs/identity.md): REST only, sent as HTTP Basic. Only a keyed hash (HMAC-SHA256
 * with a key derived from the secret) is stored. They are long random secrets, so a slow hash would buy
 * nothing and the keyed hash can be the lookup key: a request costs one indexed query, the same
 * whether the user exists or not, and none while the look-up is cached (CredentialCache: a revocation
 * still holds at the next request on every instance).
 */
export class AppPasswordStore {
  private readonly db: Database;
  private readonly key: () => Buffer;
  private readonly cache: CredentialCache;

  constructor(db: Database, key: () => Buffer, cache: CredentialCache) {
    this.db = db;
    this.key = key;
    this.cache = cache;
  }

  private hash(password: string): string {
    return keyedHash(this.key(), password);
  }

  async create(user: User, name: string, actor: Actor): Promise<NewAppPassword> {
    const clean = name.trim();
    if (!clean || clean.length > 100)
      throw new BillingError('billing_invalid_argument', 'an application password needs a name of 1 to 100 characters');
    const password = generateAppPassword();
    const uuid = randomUUID();
    await this.db.transaction(async (tx) => {
      await tx.query('select 1 from billing_users where id = $1 for update', [user.id]);
      const taken = await tx.query('select 1 from billing_app_passwords where user_id = $1 and lower(name) = lower($2)', [user.id, clean]);
      if (taken.length) throw new BillingError('billing_conflict', `${user.login} already has an application password named "${clean}"`);
      await tx.query('insert into billing_app_passwords (uuid, user_id, name, password_hash) values ($1, $2, $3, $4)', [
        uuid,
        user.id,
        clean,
        this.hash(password),
      ]);
      await audit(tx, actor, {
        action: 'app_password.create',
        objectType: 'user',
        objectId: user.id,
        details: { login: user.login, uuid, name: clean },
      });
    });
    return { uuid, name: clean, password: formatAppPassword(password) };
  }

  async list(user: User): Promise<AppPasswordInfo[]> {
    const rows = await this.db.query<{ uuid: string; name: string; created: string; last_used: string | null; last_ip: string | null }>(
      'select uuid, name, created, last_used, last_ip from billing_app_passwords where user_id = $1 order by created, name',
      [user.id],
    );
    return rows.map((r) => ({
      uuid: r.uuid,
      name: r.name,
      created: timestamp(r.created)!.toISOString(),
      last_used: r.last_used ? timestamp(r.last_used)!.toISOString() : null,
      last_ip: r.last_ip,
    }));
  }

  async revoke(user: User, uuid: string, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const rows = /^[0-9a-f-]{36}$/i.test(uuid)
        ? await tx.query<{ name: string }>('delete from billing_app_passwords where user_id = $1 and uuid = $2 returning name', [
            user.id,
            uuid,
          ])
        : [];
      if (!rows.length) throw new BillingError('billing_unknown_app_password', `${user.login} has no application password ${uuid}`);
      this.cache.changedIn(tx);
      await audit(tx, actor, {
        action: 'app_password.revoke',
        objectType: 'user',
        objectId: user.id,
        details: { login: user.login, uuid, name: rows[0]!.name },
      });
    });
  }

  /**
   * The user that `name` (login or e-mail) and `password` sign in as, or null, whatever failed. Marks
   * the password used (time and address) at most once a day, so reading it costs no write.
   */
  async authenticate(name: string, password: string, ip: string): Promise<AuthUser | null> {
    const plain = normalizeAppPassword(password);
    const hash = this.hash(plain);
    if (plain.length !== APP_PASSWORD_LENGTH) return null;
    const key = `app:${hash}`;
    const row = this.cache.get<Credential>(key) ?? (await this.cache.load(key, () => this.lookup(hash)));
    if (!row || !safeEqual(row.password_hash, hash)) return null;
    const wanted = name.toLowerCase();
    const named = safeEqual(row.login.toLowerCase(), wanted) || safeEqual(row.email.toLowerCase(), wanted);
    if (!named) return null;
    const last = timestamp(row.last_used);
    if (!last || Date.now() - last.getTime() >= DAY_MS) {
      await this.db.query(
        `update billing_app_passwords set last_used = now(), last_ip = $2
          where uuid = $1 and (last_used is null or last_used <= now() - interval '1 day')`,
        [row.uuid, ip || null],
      );
      row.last_used = new Date().toISOString(); // the cached entry too: the next write is a day away
    }
    return { id: row.id, login: row.login, roles: [row.role] };
  }

  private async lookup(hash: string): Promise<Credential | undefined> {
    const rows = await this.db.query<Credential>(
      `select a.uuid, a.password_hash, a.last_used, u.id, u.login, u.email, u.role
         from billing_app_passwords a join billing_users u on u.id = a.user_id
        where a.password_hash = $1`,
      [hash],
    );
    return rows[0];
  }
}
