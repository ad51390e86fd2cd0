import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ajv as coreAjv } from '../../core/validation/ajv.ts';

/**
 * Every REST answer a test receives is checked against the OpenAPI document the same server serves
 * (`GET /wp-json/billing/v1/openapi.json`), so the document cannot drift from what the service returns:
 * a success with a status the document does not list, a content type it does not list, or a body its
 * schema refuses fails the test that made the request. Installed for every test file by
 * jest.config.js (`setupFilesAfterEnv`); `checkResponse` is also called directly by test/http/openapi.test.ts.
 *
 * Skipped: trimmed or wrapped answers (`_fields`, `_envelope`), method overrides, HEAD and OPTIONS,
 * errors (their shape is checked by the OpenAPI test), and servers whose document the caller may not read.
 */

const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof addFormatsModule.default;
const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
addFormats(ajv);
// the service's own formats, as its request validation defines them
for (const name of ['date-ymd', 'currency', 'country', 'timezone']) {
  const format = coreAjv.formats[name];
  if (format) ajv.addFormat(name, format as never);
}

type Json = Record<string, any>;
interface Operation {
  route: RegExp;
  method: string;
  responses: Json;
}
interface Loaded {
  doc: Json;
  operations: Operation[];
}

let paused = 0;

/**
 * Runs `fn` with the check off: for a test that makes a filter remove a documented field on purpose
 * (the document describes the service as shipped; it cannot know what a site's filters take away).
 */
export async function withoutResponseCheck<T>(fn: () => Promise<T>): Promise<T> {
  paused++;
  try {
    return await fn();
  } finally {
    paused--;
  }
}

const documents = new Map<string, Promise<Loaded | null>>();
const compiled = new WeakMap<object, ValidateFunction>();
let realFetch: typeof fetch = globalThis.fetch;

/** Wraps the global fetch of this test file so that each REST answer is checked (see above). */
export function installResponseCheck(): void {
  if ((globalThis.fetch as { checked?: boolean }).checked) return;
  realFetch = globalThis.fetch;
  const checked = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await realFetch(input, init);
    const request = input instanceof Request ? input : null;
    const url = new URL(request ? request.url : String(input));
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers ?? request?.headers);
    await checkResponse({ url, method, headers }, res);
    return res;
  };
  globalThis.fetch = Object.assign(checked, { checked: true }) as typeof fetch;
}

/** The document as a caller with these credentials reads it; null when they may not. */
async function loadDocument(origin: string, headers: Headers, fresh: boolean): Promise<Loaded | null> {
  if (!fresh && documents.has(origin)) return documents.get(origin)!;
  const credentials: Record<string, string> = {};
  for (const name of ['authorization', 'cookie', 'x-wp-nonce']) {
    const v = headers.get(name);
    if (v) credentials[name] = v;
  }
  const loading = (async () => {
    const res = await realFetch(`${origin}/wp-json/billing/v1/openapi.json`, { headers: credentials });
    if (res.status !== 200) return null;
    const doc = (await res.json()) as Json;
    const operations: Operation[] = [];
    for (const item of Object.values(doc.paths as Json)) {
      const route = new RegExp(`^/wp-json${String(item['x-wp-route']).replace(/\(\?P</g, '(?<')}$`);
      for (const [method, op] of Object.entries(item as Json)) {
        if (method.startsWith('x-')) continue;
        operations.push({ route, method: method.toUpperCase(), responses: op.responses });
      }
    }
    return { doc, operations };
  })();
  documents.set(origin, loading);
  const loaded = await loading;
  // a caller without access does not decide for the next one
  if (!loaded) documents.delete(origin);
  return loaded;
}

export interface CheckedRequest {
  url: URL;
  method: string;
  headers: Headers;
}

/** Throws when a REST success answer disagrees with the served OpenAPI document. */
export async function checkResponse(req: CheckedRequest, res: Response): Promise<void> {
  if (paused) return;
  const path = req.url.pathname.replace(/\/+$/, '');
  if (!path.startsWith('/wp-json/') || res.status < 200 || res.status >= 300) return;
  if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method)) return;
  const q = req.url.searchParams;
  if (q.has('_fields') || q.has('_envelope') || q.has('_method') || req.headers.has('x-http-method-override')) return;
  if (path === '/wp-json/billing/v1/openapi.json') return;

  const find = (l: Loaded) => l.operations.find((o) => o.method === req.method && o.route.test(path));
  let loaded = await loadDocument(req.url.origin, req.headers, false);
  // plugins come and go: a route not in the cached document may be in a fresh one
  if (loaded && !find(loaded)) loaded = await loadDocument(req.url.origin, req.headers, true);
  if (!loaded) return;
  const op = find(loaded);
  const where = `${req.method} ${path}`;
  if (!op) throw new Error(`OpenAPI drift: ${where} answered ${res.status}, but the document has no such operation`);
  const declared = op.responses[String(res.status)];
  if (!declared) {
    // a route that declares nothing of its answer is documented as `2XX`, and checked for no more
    if (op.responses['2XX']) return;
    throw new Error(`OpenAPI drift: ${where} answered ${res.status}, the document lists ${Object.keys(op.responses)}`);
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const content = declared.content as Json | undefined;
  if (!content?.[type]) throw new Error(`OpenAPI drift: ${where} answered ${type}, the document lists ${Object.keys(content ?? {})}`);
  if (type !== 'application/json') return;
  const body = await res.clone().json();
  const schema = content[type].schema as Json;
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: loaded.doc.components });
    compiled.set(schema, validate);
  }
  if (!validate(body)) {
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
    throw new Error(`OpenAPI drift: the body of ${where} (${res.status}) does not match the document: ${errors}`);
  }
}
