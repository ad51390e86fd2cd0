// The one text form of a definition: the cache key is hashed from it and the worker renders from it, so
// what is cached is exactly what was rendered. Keys are sorted, so two equal definitions built in a
// different order share one cache entry.
import { BillingError } from '../errors.ts';

/**
 * JSON with object keys sorted. Only plain data is accepted: a function (a pdfmake layout or a dynamic
 * header) cannot reach a render worker, so it is refused here instead of silently vanishing.
 */
export function canonicalJson(value: unknown): string {
  return write(value, '$');
}

function write(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : refuse(path, 'a non-finite number');
    case 'object':
      break;
    default:
      return refuse(path, `a ${typeof value}`);
  }
  if (Array.isArray(value)) {
    return `[${value.map((v, i) => (v === undefined ? 'null' : write(v, `${path}[${i}]`))).join(',')}]`;
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return refuse(path, `a ${proto?.constructor?.name ?? 'class'} instance`);
  const obj = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(obj).sort()) {
    if (obj[key] === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${write(obj[key], `${path}.${key}`)}`);
  }
  return `{${parts.join(',')}}`;
}

function refuse(path: string, what: string): never {
  throw new BillingError(
    'billing_invalid_argument',
    `A PDF definition must be plain JSON data; ${path} is ${what} (name table layouts, pass images as data: URLs).`,
  );
}
