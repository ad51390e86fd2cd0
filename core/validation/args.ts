import { BillingError } from '../errors.ts';
import type { ArgSchema } from '../http/rest/route.ts';
import { describeErrors, validator } from './ajv.ts';

/**
 * Checking named parameters against WordPress-style `args` (a JSON schema per parameter plus
 * `required`, `description`, `default`): what a REST route and an admin-ajax action both do, so the
 * two surfaces give the same codes for the same input (docs/api.md, docs/ajax.md).
 */

const schemas = new WeakMap<object, object>();

/**
 * The args as one JSON schema over the merged parameters; `required`, `description` and `default` are
 * WordPress's and stay out of it. Cached per args object, so ajv compiles each one once.
 */
export function argsSchema(args: Record<string, ArgSchema>): object {
  let schema = schemas.get(args);
  if (!schema) {
    const properties: Record<string, object> = {};
    for (const [name, a] of Object.entries(args)) {
      const { required: _r, description: _d, default: _def, ...rest } = a;
      // no integer beyond what JavaScript holds exactly (a 20-digit id is a 400, not a database error)
      const integer = rest.type === 'integer' || (Array.isArray(rest.type) && rest.type.includes('integer'));
      properties[name] = integer && rest.maximum === undefined ? { ...rest, maximum: Number.MAX_SAFE_INTEGER } : rest;
    }
    schema = { type: 'object', properties };
    schemas.set(args, schema);
  }
  return schema;
}

/** The text of a query or form field turned into the argument's declared type, where it reads as one. */
export function coerceText(value: unknown, arg: ArgSchema): unknown {
  if (typeof value !== 'string') return value;
  const types = (Array.isArray(arg.type) ? arg.type : [arg.type ?? 'string']) as string[];
  // beyond 15 digits a JSON number loses precision: such text stays text and fails as "not an integer"
  if (types.includes('integer') && /^-?\d{1,15}$/.test(value)) return Number(value);
  if (types.includes('number') && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (types.includes('boolean')) {
    if (['true', '1'].includes(value)) return true;
    if (['false', '0', ''].includes(value)) return false;
  }
  if (types.includes('array')) return value === '' ? [] : value.split(',').map((s) => s.trim());
  return value;
}

/**
 * Checks `params` (already typed: JSON, or text through `coerceText`) against `args`: a missing required
 * one → 400 `rest_missing_callback_param` with `data.params: [names]`; defaults filled in; an invalid
 * one → 400 `rest_invalid_param` with `data.params: {name: message}` and `data.details`. Parameters the
 * args do not declare pass through untouched and unchecked, as WordPress ignores them. Returns a copy.
 */
export function checkArgs(args: Record<string, ArgSchema>, input: Record<string, unknown>, schema = argsSchema(args)): Record<string, any> {
  const params: Record<string, any> = { ...input };
  const missing = Object.entries(args)
    .filter(([k, a]) => a.required && params[k] === undefined)
    .map(([k]) => k);
  if (missing.length) {
    throw new BillingError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, { params: missing });
  }
  for (const [k, a] of Object.entries(args)) if (params[k] === undefined && a.default !== undefined) params[k] = structuredClone(a.default);
  const check = validator(schema);
  if (!check(params)) {
    const invalid: Record<string, string> = {};
    const details: Record<string, object> = {};
    for (const e of check.errors ?? []) {
      const name = e.instancePath.split('/')[1] ?? String(e.params?.missingProperty ?? '');
      if (!name || invalid[name]) continue;
      const own = args[name]?.invalidMessage;
      invalid[name] =
        typeof own === 'string'
          ? own
          : `${name}${e.instancePath
              .split('/')
              .slice(2)
              .map((p) => `[${p}]`)
              .join('')} ${describeErrors([{ ...e, instancePath: '' }])}.`;
      details[name] = { code: 'rest_invalid_param', message: invalid[name], data: { keyword: e.keyword, params: e.params } };
    }
    throw new BillingError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(invalid).join(', ')}`, { params: invalid, details });
  }
  return params;
}

/**
 * The declared fields of a form (admin-ajax's `$_REQUEST`, all text) typed and checked as `checkArgs`
 * does; undeclared fields are left out.
 */
export function checkFields(args: Record<string, ArgSchema>, fields: Record<string, unknown>): Record<string, any> {
  const typed: Record<string, unknown> = {};
  for (const [k, a] of Object.entries(args)) if (fields[k] !== undefined) typed[k] = coerceText(fields[k], a);
  return checkArgs(args, typed);
}
