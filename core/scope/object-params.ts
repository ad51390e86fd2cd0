import type { ObjectRef, UnscopedParams } from '../http/auth.ts';

/** A parameter that names an object by its name alone: `id` and `*_id` (`client_id`, `invoice_id`, `recurring_id`). */
const ID_LIKE = /^(id|[a-z0-9_]+_id)$/;

/** The parameters of a WordPress-style path: `/invoices/(?P<id>[\d]+)` → `['id']`. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\(\?P<(\w+)>/g)].map((m) => m[1]!);
}

/**
 * The reason of a list's filter parameter (`GET /invoices?client_id=`) in `unscoped`: the list is
 * narrowed to the caller's scope already (`billing_list_scope`), so a filter can only narrow it further
 * and tells nothing of objects outside it.
 */
export const LIST_FILTER = "filters a list that is already narrowed to the caller's scope";

/** What a route or an action declares about the objects it names, as the registration check reads it. */
export interface ObjectDeclarations {
  /** Parameters that name an object whatever they are called: a REST path's. */
  named: readonly string[];
  /** Every other parameter or field it takes: those called `id` or `*_id` name an object too. */
  other: readonly string[];
  object?: ObjectRef | readonly ObjectRef[];
  unscoped?: UnscopedParams;
}

/**
 * The object-naming parameters a route or an action leaves undeclared: each path parameter and each
 * `id` / `*_id` argument or field must be named by one of its `object` entries or listed in `unscoped`.
 * The REST server and the AJAX dispatcher refuse to register one that leaves any, so scope cannot be
 * forgotten: a new route that names an object either resolves it through the scoped resolver or says,
 * visibly, why it names nothing a scope governs.
 */
export function undeclaredObjectParams(d: ObjectDeclarations): string[] {
  const declared = new Set([...objectRefs(d.object).map((o) => o.param), ...Object.keys(d.unscoped ?? {})]);
  const naming = new Set([...d.named, ...d.other.filter((p) => ID_LIKE.test(p))]);
  return [...naming].filter((p) => !declared.has(p));
}

/** Why a route or an action that names an object without declaring it is refused. */
export function undeclaredError(owner: string, name: string, params: string[]): Error {
  const list = params.map((p) => `"${p}"`).join(', ');
  return new Error(
    `${owner}: ${name} names an object in ${list} without declaring it: add object: { param, kind } so the scoped ` +
      `resolver checks it, or unscoped: { ${params[0]}: 'why it names nothing a scope governs' }`,
  );
}

/** A route's or action's object declarations as a list. */
export function objectRefs(object: ObjectRef | readonly ObjectRef[] | undefined): readonly ObjectRef[] {
  return object === undefined ? [] : Array.isArray(object) ? object : [object as ObjectRef];
}

/**
 * The value at an object's parameter: `a.b` is field `b` of parameter `a`, which may be an object or
 * JSON text (the builders send their document as text). Undefined when any step is missing or unreadable:
 * nothing is named, and the handler's own validation answers.
 */
export function valueAt(params: Record<string, unknown>, path: string): unknown {
  let value: unknown = params;
  for (const [i, step] of path.split('.').entries()) {
    if (i > 0 && typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        return undefined;
      }
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}
