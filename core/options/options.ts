import { audit, type Actor } from '../audit/audit.ts';
import type { Database, Tx } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import { describeErrors, validator } from '../validation/ajv.ts';
import { describeTextProblem, textProblem } from '../validation/text.ts';
import { followFeed, type Feed } from '../db/change-feed.ts';
import { bumpRevision } from '../db/revision.ts';
import { apiBaseProblem } from './api-base.ts';
import type { OptionMap, SettingSchema, SettingsDeclaration } from './option-map.ts';

interface Declared {
  owner: string;
  schema: SettingSchema;
}

export interface OptionRow {
  key: string;
  value: unknown;
  owner: string;
  isDefault: boolean;
  secret: boolean;
}

/**
 * The options store (WordPress's wp_options): typed get/set over `billing_options`, every value checked
 * against the schema its owner declared.
 *
 * A change made through one instance (or the CLI) is what every instance reads next. On PostgreSQL the
 * stored options are cached in memory while the change feed is live: every write notifies all instances
 * on commit and each forgets its copy, and a lost feed turns the cache off. Without a feed (the embedded
 * database) every read goes to the database.
 */
export class OptionsStore {
  private readonly declared = new Map<string, Declared>();
  /** Every stored option, while the change feed vouches for it; null when not loaded. */
  private stored: Map<string, unknown> | null = null;
  /** Bumped on every forget, so a load that raced with a change is not kept. */
  private generation = 0;
  private feed: Feed | null = null;
  private readonly db: Database;
  private readonly hooks: HookRegistry;
  /** Whether an `api-base` option may be plain http: to this machine (tests' fake gateways). */
  private readonly loopbackHttp: boolean;

  constructor(db: Database, hooks: HookRegistry, opts: { loopbackHttp?: boolean } = {}) {
    this.db = db;
    this.hooks = hooks;
    this.loopbackHttp = opts.loopbackHttp ?? false;
  }

  /** Whether `value` may be stored as an `api-base` option here (https:, or loopback http: where allowed). */
  apiBaseProblem(value: unknown): string | null {
    return apiBaseProblem(value, this.loopbackHttp);
  }

  /** The schema `key` was declared with, if any. */
  schemaOf(key: string): SettingSchema | undefined {
    return this.declared.get(key)?.schema;
  }

  /** Caches while `feed` is live; forgets on every change it reports. */
  attachFeed(feed: Feed): () => void {
    return followFeed(feed, 'options', { attach: (f) => (this.feed = f), forget: () => this.forget() });
  }

  private forget(): void {
    this.stored = null;
    this.generation++;
  }

  /** Stored values (not defaults) of the given keys: from the cache when it may be trusted. */
  private async read(keys: readonly string[], tx?: Tx): Promise<Map<string, unknown>> {
    // a transaction uses the cache when it is loaded, but never fills it from its own snapshot; and it
    // must not read outside itself (on the embedded database, that would wait for its own end)
    if (tx && this.feed?.live && this.stored) return this.stored;
    if (!tx && this.feed?.live) {
      if (!this.stored) {
        const gen = this.generation;
        const rows = await this.db.query<{ key: string; value: unknown }>('select key, value from billing_options');
        const all = new Map(rows.map((r) => [r.key, r.value]));
        if (gen === this.generation && this.feed.live) this.stored = all;
        return all;
      }
      return this.stored;
    }
    const rows = await (tx ?? this.db).query<{ key: string; value: unknown }>(
      'select key, value from billing_options where key = any($1)',
      [keys],
    );
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  /** Declares settings. Plugins' settings are declared when they are discovered, active or not. */
  declare(owner: string, settings: SettingsDeclaration): void {
    for (const [key, schema] of Object.entries(settings)) {
      const prior = this.declared.get(key);
      if (prior && prior.owner !== owner) throw new Error(`option ${key} of ${owner} is already declared by ${prior.owner}`);
      this.declared.set(key, { owner, schema });
    }
  }

  isDeclared(key: string): boolean {
    return this.declared.has(key);
  }

  async get<K extends keyof OptionMap>(key: K, tx?: Tx): Promise<OptionMap[K]> {
    const decl = this.require(key);
    const stored = await this.read([key], tx);
    return (stored.has(key) ? stored.get(key) : decl.schema.default) as OptionMap[K];
  }

  /** Several options in one query (or none, from the cache). */
  async getMany<K extends keyof OptionMap>(keys: readonly K[], tx?: Tx): Promise<Pick<OptionMap, K>> {
    for (const k of keys) this.require(k);
    const stored = await this.read(keys, tx);
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = stored.has(k) ? stored.get(k) : this.declared.get(k)!.schema.default;
    return out as Pick<OptionMap, K>;
  }

  /** Every declared option with its owner and schema (the Settings screen draws its fields from these). */
  declarations(): Array<{ key: string; owner: string; schema: SettingSchema }> {
    return [...this.declared].map(([key, d]) => ({ key, owner: d.owner, schema: d.schema }));
  }

  /** Throws `billing_invalid_option` when `value` does not fit the option's schema (what `set` checks first). */
  check(key: string, value: unknown): void {
    const decl = this.require(key);
    const check = validator(decl.schema);
    if (!check(value)) throw new BillingError('billing_invalid_option', `${key} ${describeErrors(check.errors)}`, { key });
    const problem = textProblem(value, key);
    if (problem) throw new BillingError('billing_invalid_option', describeTextProblem(problem), { key });
    const base = decl.schema.format === 'api-base' ? this.apiBaseProblem(value) : null;
    if (base) throw new BillingError('billing_invalid_option', `${key} ${base}`, { key });
  }

  /**
   * Sets one option. Changing an `api-base` option (where a secret is sent) empties, in the same
   * transaction, every secret option of the same owner: keys of the old host are never sent to a new
   * one — whoever changes the base must give the secrets again. Answers the keys emptied.
   */
  async set<K extends keyof OptionMap>(key: K, value: OptionMap[K], actor: Actor): Promise<{ cleared: string[] }> {
    return this.setMany([[key, value]], actor);
  }

  /**
   * Sets several options in one transaction (the settings screen's save), each checked first: one bad
   * value changes nothing. `api-base` options are written first, so secrets given in the same save
   * are the ones kept.
   */
  async setMany(changes: ReadonlyArray<readonly [string, unknown]>, actor: Actor): Promise<{ cleared: string[] }> {
    for (const [key, value] of changes) this.check(key, value);
    const ordered = [...changes].sort(([a], [b]) => Number(this.isApiBase(b)) - Number(this.isApiBase(a)));
    return this.db.transaction(async (tx) => {
      const cleared: string[] = [];
      for (const [key, value] of ordered) {
        const changed = await this.write(tx, key, value, actor);
        if (changed && this.isApiBase(key)) cleared.push(...(await this.clearSecrets(tx, key, actor)));
      }
      return { cleared: cleared.filter((k) => !ordered.some(([key]) => key === k)) };
    });
  }

  private isApiBase(key: string): boolean {
    return this.declared.get(key)?.schema.format === 'api-base';
  }

  /** Writes one checked option; answers whether its value changed. */
  private async write(tx: Tx, key: string, value: unknown, actor: Actor): Promise<boolean> {
    const decl = this.require(key);
    const prior = await tx.query<{ value: unknown }>('select value from billing_options where key = $1 for update', [key]);
    await tx.query(
      `insert into billing_options (key, value, updated_at) values ($1, $2, now())
                    on conflict (key) do update set value = excluded.value, updated_at = now()`,
      [key, JSON.stringify(value)],
    );
    await bumpRevision(tx, 'options');
    const oldValue = prior.length ? prior[0]!.value : decl.schema.default;
    // this instance's copy goes before the listeners run, so they read the new value
    tx.afterCommit(() => this.forget());
    await this.hooks.fire(tx, 'billing_option_updated', key, oldValue, value);
    await audit(tx, actor, {
      action: 'option.set',
      objectType: 'option',
      objectId: key,
      details: decl.schema.secret ? {} : { old: oldValue, new: value },
    });
    return JSON.stringify(oldValue) !== JSON.stringify(value);
  }

  /** Empties the secret options of `baseKey`'s owner (back to their defaults), in `tx`. */
  private async clearSecrets(tx: Tx, baseKey: string, actor: Actor): Promise<string[]> {
    const owner = this.require(baseKey).owner;
    const secrets = [...this.declared].filter(([, d]) => d.owner === owner && d.schema.secret).map(([k]) => k);
    if (!secrets.length) return [];
    const gone = await tx.query<{ key: string }>('delete from billing_options where key = any($1) returning key', [secrets]);
    for (const { key } of gone) {
      await this.hooks.fire(tx, 'billing_option_updated', key, undefined, this.declared.get(key)!.schema.default);
      await audit(tx, actor, { action: 'option.delete', objectType: 'option', objectId: key, details: { reason: `${baseKey} changed` } });
    }
    return gone.map((r) => r.key);
  }

  /** Back to the declared default. */
  async delete(key: keyof OptionMap, actor: Actor): Promise<void> {
    const decl = this.require(key);
    await this.db.transaction(async (tx) => {
      await tx.query('delete from billing_options where key = $1', [key]);
      await bumpRevision(tx, 'options');
      await audit(tx, actor, { action: 'option.delete', objectType: 'option', objectId: key });
      tx.afterCommit(() => this.forget());
      await this.hooks.fire(tx, 'billing_option_updated', key, undefined, decl.schema.default);
    });
  }

  async list(): Promise<OptionRow[]> {
    const rows = await this.db.query<{ key: string; value: unknown }>('select key, value from billing_options');
    const stored = new Map(rows.map((r) => [r.key, r.value]));
    return [...this.declared]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, d]) => ({
        key,
        value: stored.has(key) ? stored.get(key) : d.schema.default,
        owner: d.owner,
        isDefault: !stored.has(key),
        secret: Boolean(d.schema.secret),
      }));
  }

  /** Turns the text of `billing option set key value` into a value of the declared type. */
  parseText(key: string, text: string): unknown {
    const { schema } = this.require(key);
    const types: string[] = Array.isArray(schema.type) ? [...schema.type] : [schema.type];
    if (types.includes('null') && text === 'null') return null;
    if (types.includes('boolean')) {
      if (text === 'true') return true;
      if (text === 'false') return false;
      throw new BillingError('billing_invalid_option', `${key} must be true or false`, { key });
    }
    if (types.includes('integer') || types.includes('number')) {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) throw new BillingError('billing_invalid_option', `${key} must be a number`, { key });
      return n;
    }
    if (types.includes('object') || types.includes('array')) {
      try {
        return JSON.parse(text);
      } catch {
        throw new BillingError('billing_invalid_option', `${key} must be JSON`, { key });
      }
    }
    return text;
  }

  private require(key: string): Declared {
    const d = this.declared.get(key);
    if (!d) throw new BillingError('billing_unknown_option', `unknown option ${key}`, { key });
    return d;
  }
}
