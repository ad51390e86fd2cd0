import type { Database } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import type { HookRegistry } from '../hooks/registry.ts';
import type { Authenticator, AuthUser, ObjectRef } from '../http/auth.ts';
import { OwnedRegistry } from '../owned-registry.ts';
import { listScope, type ListScope } from './list-scope.ts';
import { checkObjectKind, type ObjectKind } from './object-kind.ts';
import { objectRefs, valueAt } from './object-params.ts';

/** Where a named object lies: who created the row that owns it, and its document's id when it is one. */
export interface Located {
  owner: number | null;
  documentId: number | null;
}

/** How deep `through` may lead (a credit note → its invoice); a longer chain is a declaration's mistake. */
const MAX_THROUGH = 4;

/**
 * The one scoped resolver. Every object a route or an action names is looked up here through its kind's
 * declaration (core/scope/object-kind.ts), and lies within the caller's reach when:
 *
 * 1. its owner row was created by the user the caller's list of that kind is narrowed to
 *    (`billing_list_scope`): a single object and a list obey one rule, so nothing a list leaves out can
 *    be read, changed or named by id; and
 * 2. for a document (or an object that lies through one), `billing_user_has_cap` grants the capability
 *    for that document.
 *
 * Otherwise, and when it does not exist, the answer is the same: the route's not-found. Nothing is looked
 * up while no listener narrows anything (a plain install pays no query per request).
 */
export class ObjectScope {
  readonly kinds = new OwnedRegistry<ObjectKind>('object kind');
  private readonly db: Database;
  private readonly hooks: HookRegistry;

  constructor(db: Database, hooks: HookRegistry) {
    this.db = db;
    this.hooks = hooks;
  }

  /** Adds a unit's kind; one that lies through another needs that one declared first. */
  declare(owner: string, kind: ObjectKind): void {
    checkObjectKind(owner, kind);
    if (kind.through && !this.kinds.get(kind.through.kind))
      throw new Error(`${owner}: object kind ${kind.kind} lies through ${kind.through.kind}, which nobody declares`);
    this.kinds.add(owner, kind.kind, kind);
  }

  removeOwner(owner: string): void {
    this.kinds.removeOwner(owner);
  }

  /** Refuses a route's or an action's object declarations that name a kind, or a key of one, that nobody declares. */
  checkRefs(owner: string, what: string, object: ObjectRef | readonly ObjectRef[] | undefined): void {
    for (const ref of objectRefs(object)) {
      const k = this.kinds.get(ref.kind);
      if (!k) throw new Error(`${owner}: ${what} names an object of kind ${ref.kind}, which nobody declares`);
      if (ref.by !== undefined && !k.keys?.includes(ref.by))
        throw new Error(`${owner}: ${what} names a ${ref.kind} by ${ref.by}, which is not one of the kind's keys`);
    }
  }

  /** What `viewer`'s list of `kind` is narrowed to (`billing_list_scope`); in-process callers (no viewer) are not narrowed. */
  of(kind: string, viewer: AuthUser | undefined): Promise<ListScope> {
    return listScope(this.hooks, kind, viewer);
  }

  /**
   * The per-object half of a route's or an action's check: for each object it names that the request
   * carries, throws the answer for a missing object unless it lies within `user`'s reach (see above).
   * A parameter that is absent or not an id names nothing here; the handler's validation answers it.
   */
  async check(
    auth: Authenticator,
    user: AuthUser,
    capability: string,
    object: ObjectRef | readonly ObjectRef[] | undefined,
    params: Record<string, unknown>,
  ): Promise<void> {
    const refs = objectRefs(object);
    if (!refs.length || !(this.hooks.hasFilter('billing_list_scope') || auth.perObject())) return;
    for (const ref of refs) {
      const key = keyOf(ref, valueAt(params, ref.param));
      if (key === null) continue;
      const found = await this.locate(ref.kind, key, ref.by);
      if (!found || !(await this.within(auth, user, ref, capability, found))) throw this.missing(ref);
    }
  }

  private async within(auth: Authenticator, user: AuthUser, ref: ObjectRef, capability: string, found: Located): Promise<boolean> {
    const scope = await this.of(ref.kind, user);
    if (scope.created_by !== undefined && found.owner !== scope.created_by) return false;
    return found.documentId === null || auth.can(user, ref.capability ?? capability, found.documentId);
  }

  /** The object of `kind` with this id (or this value of key column `by`), followed through to its owner row; null when none. */
  async locate(kind: string, key: number | string, by?: string, depth = 0): Promise<Located | null> {
    const k = this.kinds.get(kind);
    if (!k) throw new Error(`no object kind ${kind} is declared`);
    const fixed = Object.entries(k.where ?? {});
    const conditions = [
      // an id as bigint: int and bigint id columns alike compare (and use their index) without overflowing
      by === undefined ? 'id = $1::bigint' : `${by} = $1::text`,
      ...fixed.map(([column], i) => `${column} = $${i + 2}`),
    ];
    const value = k.through ? `${k.through.column}::text as next` : `${k.owner}::text as owner`;
    const rows = await this.db.query<{ id: string; owner?: string | null; next?: string | null }>(
      `select id::text as id, ${value} from ${k.table} where ${conditions.join(' and ')} limit 1`,
      [key, ...fixed.map(([, v]) => v)],
    );
    const row = rows[0];
    if (!row) return null;
    if (k.through) {
      if (row.next === null || row.next === undefined || depth >= MAX_THROUGH) return null;
      return this.locate(k.through.kind, Number(row.next), undefined, depth + 1);
    }
    return {
      owner: row.owner === null || row.owner === undefined ? null : Number(row.owner),
      documentId: k.document ? Number(row.id) : null,
    };
  }

  /** The answer for an object that does not exist, and so for one outside the caller's reach. */
  private missing(ref: ObjectRef): BillingError {
    const noun = this.kinds.get(ref.kind)!.noun;
    const message = `No ${noun} has this ${ref.by ?? 'id'}.`;
    const code = ref.missing ?? 'billing_rest_not_found';
    return new BillingError(code, message, code === 'billing_rest_not_found' ? {} : { params: { [ref.param.split('.').pop()!]: message } });
  }
}

/** The id (or key text) a parameter's value gives; null when it gives none. */
function keyOf(ref: ObjectRef, value: unknown): number | string | null {
  if (ref.by !== undefined) return typeof value === 'string' && value !== '' ? value : null;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,16}$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
}
