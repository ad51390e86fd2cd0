import { BillingError } from '../errors.ts';
import { ajv } from '../validation/ajv.ts';
import type { PluginDefinition } from './define-plugin.ts';

/**
 * What a plugin from a package says it needs (package.json `billing.permissions`), shown to whoever
 * installs it before activation, and the only things it may do: anything else is refused where it is
 * tried with an error naming the missing permission (`read: invoices`), logged and audited as
 * `plugin.permission_denied` (docs/sandbox.md).
 */
export interface PluginPermissions {
  /** Action and filter names it listens to. */
  hooks: string[];
  /** Capabilities it adds or grants to a role. */
  capabilities: string[];
  /** REST paths it adds (as declared, e.g. `/greeting`). */
  routes: string[];
  /** Job hooks it schedules. */
  jobs: string[];
  /** Host names it may fetch from (exact, or `*.example.com`). */
  hosts: string[];
  /** Its own tables, each prefixed with its name (`greeter_visits`). */
  tables: string[];
  /** Core resources it may read through the service API. */
  read: string[];
}

export const PERMISSION_KINDS = ['hooks', 'capabilities', 'routes', 'jobs', 'hosts', 'tables', 'read'] as const;
export type PermissionKind = (typeof PERMISSION_KINDS)[number];

/** The core resources a plugin may be allowed to read, each a part of the plugin service API. */
export const READABLE = ['invoices', 'quotes', 'clients', 'payments'] as const;

const list = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 200 }, maxItems: 200 };
const validate = ajv.compile({
  type: 'object',
  additionalProperties: false,
  properties: {
    ...Object.fromEntries(PERMISSION_KINDS.map((k) => [k, list])),
    read: { type: 'array', items: { enum: [...READABLE] }, maxItems: READABLE.length },
  },
});

/** A package's declared permissions, every kind present (empty when not declared). */
export function parsePermissions(plugin: string, raw: unknown): PluginPermissions {
  if (!validate(raw ?? {})) {
    throw new BillingError(
      'billing_plugin_package_invalid',
      `${plugin}: billing.permissions is invalid: ${ajv.errorsText(validate.errors)}`,
    );
  }
  const given = (raw ?? {}) as Partial<PluginPermissions>;
  const out = Object.fromEntries(PERMISSION_KINDS.map((k) => [k, [...(given[k] ?? [])]])) as unknown as PluginPermissions;
  const prefix = `${plugin.replace(/-/g, '_')}_`;
  for (const t of out.tables) {
    if (!t.startsWith(prefix) || !/^[a-z0-9_]+$/.test(t)) {
      throw new BillingError('billing_plugin_package_invalid', `${plugin}: table ${t} must be named ${prefix}…`);
    }
  }
  return out;
}

/** `read: invoices`: how a permission is named in errors, logs and the audit log. */
export function permissionName(kind: PermissionKind, value: string): string {
  return `${kind}: ${value}`;
}

/** The error a refused attempt answers (after it is logged and audited). */
export function permissionDenied(plugin: string, permission: string): BillingError {
  return new BillingError('billing_plugin_permission_denied', `${plugin} does not have the permission "${permission}"`, {
    plugin,
    permission,
  });
}

export function hostAllowed(perms: PluginPermissions, host: string): boolean {
  const h = host.toLowerCase();
  return perms.hosts.some((p) => (p.startsWith('*.') ? h.endsWith(p.slice(1).toLowerCase()) : p.toLowerCase() === h));
}

/**
 * What a definition declares beyond its permissions, checked before it is activated or loaded: every
 * listener's hook, REST path, job, added or granted capability, and table its migrations name.
 */
export function undeclaredUses(def: PluginDefinition, perms: PluginPermissions, ctx: unknown): string[] {
  const missing: string[] = [];
  const need = (kind: PermissionKind, value: string) => {
    if (!perms[kind].includes(value)) missing.push(permissionName(kind, value));
  };
  const made = <T>(v: readonly T[] | ((c: never) => readonly T[]) | undefined): readonly T[] =>
    typeof v === 'function' ? v(ctx as never) : (v ?? []);
  for (const l of made(def.listeners)) need('hooks', l.hook);
  for (const r of made(def.rest)) need('routes', r.path);
  for (const a of made(def.ajax)) need('routes', `admin-ajax:${a.action}`);
  for (const w of made(def.webhooks)) need('routes', `admin-ajax:${w.action}`);
  for (const j of made(def.jobs)) need('jobs', j.hook);
  for (const c of def.capabilities ?? []) need('capabilities', c);
  for (const caps of Object.values(def.grants ?? {})) for (const c of caps) need('capabilities', c);
  for (const r of def.roles ?? []) for (const c of r.capabilities) need('capabilities', c);
  for (const m of def.migrations ?? []) {
    if (typeof m.up !== 'string') missing.push(permissionName('tables', `migration ${m.name} as code`));
    else for (const t of tablesNamed(m.up)) need('tables', t);
  }
  // parts a sandboxed plugin cannot declare at all (they hand the service code to run in its realm)
  for (const k of ['routers', 'screens', 'gateways', 'commands', 'queues'] as const) {
    if (made(def[k] as never).length) missing.push(permissionName('routes', k));
  }
  return [...new Set(missing)];
}

/**
 * The tables a migration's SQL names (created, altered, written, read, referenced, indexed) — a coarse
 * reading, enough to refuse a plugin's migration that reaches beyond its own tables; statements that
 * could do more than change its tables (functions, roles, COPY, DO blocks, server files) name
 * themselves as tables so that they are refused.
 */
// words that follow `on`/`update` in a column's constraints, not table names
const SQL_WORDS = new Set(['delete', 'update', 'cascade', 'set', 'restrict', 'no', 'conflict', 'commit']);

export function tablesNamed(sql: string): string[] {
  const out = new Set<string>();
  const text = sql.replace(/--.*$/gm, '').toLowerCase();
  const re =
    /\b(?:table(?:\s+if\s+(?:not\s+)?exists)?|into|update|from|join|references|on|rename\s+to)\s+(?:only\s+)?("?[a-z_][a-z0-9_.$"]*)/g;
  for (const m of text.matchAll(re)) {
    const name = m[1]!.replace(/"/g, '');
    if (!SQL_WORDS.has(name)) out.add(name);
  }
  const forbidden =
    /\b(copy|grant|revoke|do|function|procedure|extension|role|trigger|language|server|pg_[a-z_]+|lo_[a-z_]+|dblink[a-z_]*)\b/g;
  for (const m of text.matchAll(forbidden)) out.add(m[1]!);
  return [...out];
}

/**
 * The permissions a plugin's own declarations need, every core resource readable and no host: what a
 * plugin of the service's own is given when it runs sandboxed.
 */
export function permissionsOf(def: PluginDefinition, ctx: unknown): PluginPermissions {
  const none = Object.fromEntries(PERMISSION_KINDS.map((k) => [k, [] as string[]])) as unknown as PluginPermissions;
  for (const p of undeclaredUses(def, none, ctx)) {
    const [kind, value] = p.split(': ') as [PermissionKind, string];
    if (!(kind === 'routes' && ['routers', 'screens', 'gateways', 'commands', 'queues'].includes(value))) none[kind].push(value);
  }
  none.read = [...READABLE];
  return none;
}
