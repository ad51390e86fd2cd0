import { audit, type Actor } from '../audit/audit.ts';
import { timestamp, type Database, type Tx } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import { describeErrors, validator } from '../validation/ajv.ts';
import { ADMINISTRATOR } from './capabilities.ts';
import { hashPassword } from './passwords.ts';
import type { CredentialCache } from './credential-cache.ts';
import type { RoleRegistry } from './role-registry.ts';
import { canonicalLocale, LOCALE_TAG_SCHEMA } from '../i18n/locale-tag.ts';

/** A user of the host platform (docs/identity.md). A client is a user with role `billing_client`. */
/** User ids are `serial` (int4): nothing above this names a user. */
export const USER_ID_MAX = 2_147_483_647;

export interface User {
  id: number;
  login: string;
  email: string;
  display_name: string;
  role: string;
  company: string;
  country: string;
  vat: string;
  address: string;
  /** The BCP 47 tag a client's documents print in, or null (the option `site_locale`). */
  locale: string | null;
  created: Date;
}

export interface NewUser {
  login: string;
  email: string;
  role?: string;
  password?: string;
  display_name?: string;
  company?: string;
  country?: string;
  vat?: string;
  address?: string;
  locale?: string | null;
}

export type ProfileChanges = Partial<Pick<User, 'email' | 'display_name' | 'company' | 'country' | 'vat' | 'address' | 'locale'>>;

/** Logins never hold '@', so "login or e-mail" is never ambiguous. */
const PROFILE = {
  email: { type: 'string', format: 'email', maxLength: 254 },
  display_name: { type: 'string', minLength: 1, maxLength: 250 },
  company: { type: 'string', maxLength: 250 },
  country: { type: 'string', pattern: '^([A-Z]{2})?$' },
  vat: { type: 'string', maxLength: 32 },
  address: { type: 'string', maxLength: 1000 },
  locale: { ...LOCALE_TAG_SCHEMA, type: ['string', 'null'] },
} as const;
const NEW_USER = {
  type: 'object',
  required: ['login', 'email'],
  properties: {
    login: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,60}$' },
    role: { type: 'string' },
    password: { type: 'string', minLength: 1, maxLength: 4096 },
    ...PROFILE,
  },
  additionalProperties: false,
};
const CHANGES = { type: 'object', properties: PROFILE, additionalProperties: false };

const COLUMNS = 'id, login, email, display_name, role, company, country, vat, address, locale, created_at';

export interface UserRow {
  id: number;
  login: string;
  email: string;
  display_name: string;
  role: string;
  company: string;
  country: string;
  vat: string;
  address: string;
  locale: string | null;
  created_at: string;
}

export function toUser(r: UserRow): User {
  return {
    id: r.id,
    login: r.login,
    email: r.email,
    display_name: r.display_name,
    role: r.role,
    company: r.company,
    country: r.country,
    vat: r.vat,
    address: r.address,
    locale: r.locale ?? null,
    created: timestamp(r.created_at)!,
  };
}

/**
 * Users in `billing_users`. Every change is written with its audit row in one transaction. Reads go to
 * the database each time; what the credential cache keeps of a user is forgotten on every instance
 * when a change to it commits.
 */
export class UserStore {
  private readonly db: Database;
  private readonly roles: RoleRegistry;
  private readonly credentials: CredentialCache;

  constructor(db: Database, roles: RoleRegistry, credentials: CredentialCache) {
    this.db = db;
    this.roles = roles;
    this.credentials = credentials;
  }

  async create(input: NewUser, actor: Actor, tx?: Tx): Promise<User> {
    check(NEW_USER, input);
    const role = input.role ?? 'subscriber';
    this.requireRole(role);
    const hash = input.password === undefined ? null : await hashPassword(input.password);
    const work = async (t: Tx) => {
      const clash = await t.query<{ login: string; email: string }>(
        'select login, email from billing_users where lower(login) = lower($1) or lower(email) = lower($2)',
        [input.login, input.email],
      );
      if (clash.length) {
        const what = clash.some((c) => c.login.toLowerCase() === input.login.toLowerCase()) ? 'login' : 'e-mail address';
        throw new BillingError('billing_conflict', `a user with that ${what} already exists`);
      }
      const [row] = await t.query<UserRow>(
        `insert into billing_users (login, email, display_name, password_hash, role, company, country, vat, address, locale, created_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning ${COLUMNS}`,
        [
          input.login,
          input.email,
          input.display_name ?? input.login,
          hash,
          role,
          input.company ?? '',
          input.country ?? '',
          input.vat ?? '',
          input.address ?? '',
          input.locale ? canonicalLocale(input.locale) : null,
          actor.id,
        ],
      );
      const user = toUser(row!);
      await audit(t, actor, {
        action: 'user.create',
        objectType: 'user',
        objectId: user.id,
        details: { login: user.login, email: user.email, role, password_set: hash !== null },
      });
      return user;
    };
    return tx ? work(tx) : this.db.transaction(work);
  }

  async byId(id: number): Promise<User | null> {
    const rows = await this.db.query<UserRow>(`select ${COLUMNS} from billing_users where id = $1`, [id]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async byLogin(login: string): Promise<User | null> {
    const rows = await this.db.query<UserRow>(`select ${COLUMNS} from billing_users where lower(login) = lower($1)`, [login]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  /** The CLI's and the screens' way to name a user: throws `billing_unknown_user`. */
  async require(login: string): Promise<User> {
    const u = await this.byLogin(login);
    if (!u) throw new BillingError('billing_unknown_user', `no user has the login ${login}`);
    return u;
  }

  /** The login form and HTTP Basic accept either; returns the stored password hash too. */
  async forSignIn(name: string): Promise<(User & { password_hash: string | null }) | null> {
    const rows = await this.db.query<UserRow & { password_hash: string | null }>(
      `select ${COLUMNS}, password_hash from billing_users where lower(login) = lower($1) or lower(email) = lower($1)
       order by (lower(login) = lower($1)) desc limit 1`,
      [name],
    );
    return rows[0] ? { ...toUser(rows[0]), password_hash: rows[0].password_hash } : null;
  }

  async list(filter: { role?: string } = {}): Promise<User[]> {
    const rows = filter.role
      ? await this.db.query<UserRow>(`select ${COLUMNS} from billing_users where role = $1 order by id`, [filter.role])
      : await this.db.query<UserRow>(`select ${COLUMNS} from billing_users order by id`);
    return rows.map(toUser);
  }

  async count(): Promise<number> {
    const rows = await this.db.query<{ n: number }>('select count(*)::int as n from billing_users');
    return rows[0]!.n;
  }

  async setRole(login: string, role: string, actor: Actor): Promise<User> {
    this.requireRole(role);
    return this.db.transaction(async (tx) => {
      const user = await this.lockByLogin(tx, login);
      if (user.role === role) return user;
      if (user.role === ADMINISTRATOR) await this.keepOneAdministrator(tx, user.id);
      await tx.query('update billing_users set role = $2, updated_at = now() where id = $1', [user.id, role]);
      this.credentials.changedIn(tx);
      await audit(tx, actor, {
        action: 'user.set_role',
        objectType: 'user',
        objectId: user.id,
        details: { login: user.login, old: user.role, new: role },
      });
      return { ...user, role };
    });
  }

  /** A new password signs the user out everywhere (their sessions end). */
  async setPassword(login: string, password: string, actor: Actor): Promise<void> {
    const hash = await hashPassword(password);
    await this.db.transaction(async (tx) => {
      const user = await this.lockByLogin(tx, login);
      await tx.query('update billing_users set password_hash = $2, updated_at = now() where id = $1', [user.id, hash]);
      await tx.query('delete from billing_sessions where user_id = $1', [user.id]);
      this.credentials.changedIn(tx);
      await audit(tx, actor, { action: 'user.set_password', objectType: 'user', objectId: user.id, details: { login: user.login } });
    });
  }

  async updateProfile(login: string, changes: ProfileChanges, actor: Actor, inTx?: Tx): Promise<User> {
    check(CHANGES, changes);
    if (changes.locale) changes = { ...changes, locale: canonicalLocale(changes.locale) };
    const fields = Object.entries(changes).filter(([, v]) => v !== undefined);
    const work = async (tx: Tx) => {
      const user = await this.lockByLogin(tx, login);
      if (!fields.length) return user;
      if (changes.email) {
        const clash = await tx.query('select 1 from billing_users where lower(email) = lower($1) and id <> $2', [changes.email, user.id]);
        if (clash.length) throw new BillingError('billing_conflict', 'a user with that e-mail address already exists');
      }
      const sets = fields.map(([k], i) => `${k} = $${i + 2}`).join(', ');
      this.credentials.changedIn(tx);
      const [row] = await tx.query<UserRow>(`update billing_users set ${sets}, updated_at = now() where id = $1 returning ${COLUMNS}`, [
        user.id,
        ...fields.map(([, v]) => v),
      ]);
      const old = Object.fromEntries(fields.map(([k]) => [k, (user as unknown as Record<string, unknown>)[k]]));
      await audit(tx, actor, {
        action: 'user.update',
        objectType: 'user',
        objectId: user.id,
        details: { login: user.login, old, new: Object.fromEntries(fields) },
      });
      return toUser(row!);
    };
    return inTx ? work(inTx) : this.db.transaction(work);
  }

  /** Deletes the user with their sessions and application passwords; the last administrator stays. */
  async delete(login: string, actor: Actor): Promise<User> {
    return this.db.transaction(async (tx) => {
      const user = await this.lockByLogin(tx, login);
      if (user.role === ADMINISTRATOR) await this.keepOneAdministrator(tx, user.id);
      await tx.query('delete from billing_users where id = $1', [user.id]);
      this.credentials.changedIn(tx);
      await audit(tx, actor, {
        action: 'user.delete',
        objectType: 'user',
        objectId: user.id,
        details: { login: user.login, email: user.email, role: user.role },
      });
      return user;
    });
  }

  private requireRole(role: string): void {
    if (!this.roles.has(role)) {
      throw new BillingError(
        'billing_invalid_argument',
        `unknown role ${role}; roles: ${this.roles
          .list()
          .map((r) => r.name)
          .join(', ')}`,
      );
    }
  }

  private async lockByLogin(tx: Tx, login: string): Promise<User> {
    const rows = await tx.query<UserRow>(`select ${COLUMNS} from billing_users where lower(login) = lower($1) for update`, [login]);
    if (!rows[0]) throw new BillingError('billing_unknown_user', `no user has the login ${login}`);
    return toUser(rows[0]);
  }

  /** Serialised by a transaction lock so two concurrent demotions cannot both pass. */
  private async keepOneAdministrator(tx: Tx, leaving: number): Promise<void> {
    await tx.query(`select pg_advisory_xact_lock(hashtext('billing_administrators'))`);
    const rows = await tx.query<{ n: number }>('select count(*)::int as n from billing_users where role = $1 and id <> $2', [
      ADMINISTRATOR,
      leaving,
    ]);
    if (rows[0]!.n === 0) throw new BillingError('billing_conflict', 'the last administrator cannot be removed or demoted');
  }
}

function check(schema: object, value: unknown): void {
  const v = validator(schema);
  if (!v(value)) throw new BillingError('billing_invalid_argument', `invalid user: ${describeErrors(v.errors)}`);
}
