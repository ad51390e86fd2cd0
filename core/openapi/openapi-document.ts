import { readFileSync } from 'node:fs';
import { errorStatus } from '../errors.ts';
import type { RestServer } from '../http/rest/rest-server.ts';
import type { ArgSchema, HttpMethod, RestRoute } from '../http/rest/route.ts';
import { objectRefs } from '../scope/object-params.ts';
import { SESSION_COOKIE } from '../identity/sessions.ts';

const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

type RouteTable = ReturnType<RestServer['listRoutes']>;
type Json = Record<string, any>;

/** Methods whose declared args are a JSON body; the others' are query parameters. */
const BODY_METHODS: HttpMethod[] = ['POST', 'PUT', 'PATCH'];

/** Keywords whose values are schemas (converted); every other keyword's value is copied as it is. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/**
 * The OpenAPI 3.1 document of the routes registered right now — the core's and the active plugins' —
 * made from what each route declares as data: its WordPress path regex, args (ajv schemas), capability,
 * resource `schema` and `response`. Nothing here names a route: a plugin's routes appear while it is
 * active and are gone once it is deactivated, because they are in (or out of) the registry.
 */
/** Fields plugins add to resources' representations, by resource title (`invoice`) and field name. */
export type ResourceFields = Record<string, Record<string, Json>>;

export function openApiDocument(routes: RouteTable, baseUrl: string, pluginFields: ResourceFields = {}): Json {
  const components = new ComponentSchemas(pluginFields);
  // resources first, so that responses refer to them by name
  for (const r of routes) for (const e of r.endpoints) for (const s of [e.route.schema, e.route.response?.schema]) components.register(s);
  const paths: Json = {};
  const operationIds = new Set<string>();
  for (const r of routes) {
    const { path, groups } = openApiPath(r.key);
    const item: Json = { 'x-wp-route': r.key };
    if (r.key === `/${r.namespace}`) {
      item.get = namespaceOperation(r.namespace);
    } else {
      for (const e of r.endpoints)
        for (const m of e.methods) {
          item[m.toLowerCase()] = operation(r.key, r.namespace, m, e.route, e.owner, groups, components, operationIds);
        }
    }
    paths[path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Billing REST API',
      version: VERSION,
      description:
        'Invoices, quotes, clients and payments behind a WordPress-shaped REST API. Generated at run time from the routes of the core and the active plugins. See docs/api.md.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: `${baseUrl}/wp-json` }],
    security: SIGNED_IN,
    paths,
    components: {
      schemas: { ...components.schemas(), error: ERROR_SCHEMA },
      securitySchemes: {
        applicationPassword: {
          type: 'http',
          scheme: 'basic',
          description:
            'An application password (`billing app-password create <login>`) sent as HTTP Basic, with the login or e-mail as user name.',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The session cookie set by `POST /wp-login.php`; only together with `X-WP-Nonce`.',
        },
        restNonce: {
          type: 'apiKey',
          in: 'header',
          name: 'X-WP-Nonce',
          description:
            'A `wp_rest` nonce (`GET /wp-admin/admin-ajax.php?action=rest-nonce`); a bad one is 403 `rest_cookie_invalid_nonce`.',
        },
      },
    },
  };
}

/** Basic application passwords, or the session cookie with its nonce (both at once). */
const SIGNED_IN = [{ applicationPassword: [] }, { sessionCookie: [], restNonce: [] }];

const ERROR_SCHEMA = {
  type: 'object',
  description: "WordPress's error body, with the HTTP status repeated in `data.status`.",
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    data: {
      type: 'object',
      properties: {
        status: { type: 'integer' },
        params: {
          description: 'rest_missing_callback_param: the missing names; rest_invalid_param: name → message',
          anyOf: [
            { type: 'array', items: { type: 'string' } },
            { type: 'object', additionalProperties: { type: 'string' } },
          ],
        },
        details: { type: 'object' },
      },
      required: ['status'],
    },
  },
  required: ['code', 'message', 'data'],
};

const PAGINATION_HEADERS = {
  'X-WP-Total': { description: 'How many items the whole collection has.', schema: { type: 'integer', minimum: 0 } },
  'X-WP-TotalPages': { description: 'How many pages of `per_page` items.', schema: { type: 'integer', minimum: 0 } },
  Link: { description: '`rel="prev"` / `rel="next"` URLs keeping every query parameter.', schema: { type: 'string' } },
};

/** `/billing/v1/invoices/(?P<id>[\d]+)` → `/billing/v1/invoices/{id}` and its groups' patterns. */
export function openApiPath(key: string): { path: string; groups: Record<string, string> } {
  const groups: Record<string, string> = {};
  const path = key.replace(/\(\?P<(\w+)>((?:[^()]|\([^()]*\))*)\)/g, (_all, name: string, pattern: string) => {
    groups[name] = pattern;
    return `{${name}}`;
  });
  return { path, groups };
}

function namespaceOperation(namespace: string): Json {
  return {
    operationId: `index_${namespace.replace(/\W+/g, '_')}`,
    summary: `The ${namespace} namespace index: its routes, their methods and args.`,
    tags: ['index'],
    'x-billing-capability': 'read',
    parameters: [
      { name: 'context', in: 'query', schema: { type: 'string', default: 'view' } },
      { name: 'namespace', in: 'query', schema: { type: 'string', default: namespace } },
    ],
    responses: {
      '200': {
        description: 'The namespace, its routes (keyed by their WordPress regex) and links.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { namespace: { type: 'string', const: namespace }, routes: { type: 'object' }, _links: { type: 'object' } },
              required: ['namespace', 'routes'],
            },
          },
        },
      },
      ...errorResponses(['billing_rest_unauthenticated', 'rest_cookie_invalid_nonce', 'billing_unavailable']),
    },
  };
}

function operation(
  key: string,
  namespace: string,
  method: HttpMethod,
  route: RestRoute,
  owner: string,
  groups: Record<string, string>,
  components: ComponentSchemas,
  operationIds: Set<string>,
): Json {
  const args = route.args ?? {};
  const response = route.response ?? {};
  const collection = response.collection ?? (method === 'GET' && route.schema !== undefined && 'per_page' in args);
  const bodySchema = response.schema ?? (method === 'GET' && !response.contentType ? route.schema : undefined);
  const inBody = BODY_METHODS.includes(method);

  const parameters: Json[] = Object.entries(groups).map(([name, pattern]) => ({
    name,
    in: 'path',
    required: true,
    schema: args[name] ? argSchema(args[name]!, components) : { type: 'string', pattern: `^${pattern}$` },
    ...(args[name]?.description ? { description: args[name]!.description } : {}),
  }));
  const rest = Object.entries(args).filter(([name]) => !(name in groups));
  if (!inBody) {
    for (const [name, arg] of rest) {
      const schema = argSchema(arg, components);
      parameters.push({
        name,
        in: 'query',
        ...(arg.required ? { required: true } : {}),
        ...(arg.description ? { description: arg.description } : {}),
        schema,
        // WordPress reads an array parameter as a comma list (`status=paid,partial`)
        ...(schema.type === 'array' ? { style: 'form', explode: false } : {}),
      });
    }
  }
  // the REST server keeps an Idempotency-Key for every signed-in caller's POST (docs/security.md)
  const idempotent = method === 'POST' && route.capability !== null;
  if (idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      description: 'A retried request with the same key does its work once and answers as the first time.',
      schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,100}$' },
    });
  }

  const op: Json = {
    operationId: operationId(method, key, operationIds),
    ...(route.description ? { summary: route.description } : {}),
    tags: [tag(key, namespace)],
    'x-billing-capability': route.capability,
    'x-billing-owner': owner,
  };
  if (route.capability === null) op.security = [{}, ...SIGNED_IN];
  if (parameters.length) op.parameters = parameters;
  if (inBody && rest.length) {
    const properties = Object.fromEntries(rest.map(([name, arg]) => [name, argSchema(arg, components)]));
    const required = rest.filter(([, a]) => a.required).map(([n]) => n);
    const schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
    op.requestBody = {
      required: required.length > 0,
      content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
    };
  } else if (route.requestTypes?.length) {
    op.requestBody = {
      required: true,
      content: Object.fromEntries(route.requestTypes.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }])),
    };
  }

  // a route that says nothing of its answer (no `response`, no resource to GET) is documented as some
  // JSON success: what it does say is never a guess
  const declared = route.response !== undefined || bodySchema !== undefined;
  const statuses = declared ? [response.status ?? 200].flat() : ['2XX'];
  const success: Json = {};
  for (const status of statuses) {
    const content = response.contentType
      ? Object.fromEntries([response.contentType].flat().map((t) => [t, { schema: { type: 'string', contentMediaType: t } }]))
      : {
          'application/json': {
            schema: bodySchema
              ? collection
                ? { type: 'array', items: components.convert(bodySchema) }
                : components.convert(bodySchema)
              : {},
          },
        };
    const headers: Json = collection ? { ...PAGINATION_HEADERS } : {};
    if (status === 201) headers.Location = { description: 'The URL of what was created.', schema: { type: 'string', format: 'uri' } };
    success[String(status)] = {
      description: collection
        ? 'A page of the collection.'
        : status === 201
          ? 'Created.'
          : declared
            ? 'Success.'
            : 'Success (the route declares no more of its answer).',
      ...(Object.keys(headers).length ? { headers } : {}),
      content,
    };
  }
  op.responses = { ...success, ...errorResponses(errorCodes(method, route, groups, collection)) };
  return op;
}

/** The codes a route can answer: those every route of its kind can, then those it declares. */
function errorCodes(method: HttpMethod, route: RestRoute, groups: Record<string, string>, collection: boolean): string[] {
  const args = Object.entries(route.args ?? {});
  const codes = ['rest_invalid_param', 'billing_bad_request'];
  if (route.capability !== null) codes.push('billing_rest_unauthenticated', 'billing_rest_forbidden', 'rest_cookie_invalid_nonce');
  if (args.some(([name, a]) => a.required && !(name in groups))) codes.push('rest_missing_callback_param');
  if (BODY_METHODS.includes(method)) codes.push('rest_invalid_json', 'rest_payload_too_large');
  if (route.object || Object.keys(groups).length) codes.push('billing_rest_not_found');
  // an object outside the caller's scope answers what its declaration says (core/scope/object-scope.ts)
  for (const ref of objectRefs(route.object)) codes.push(ref.missing ?? 'billing_rest_not_found');
  if (collection) codes.push('billing_rest_invalid_page_number');
  if (method === 'POST' && route.capability !== null) codes.push('billing_rest_idempotency_mismatch', 'billing_conflict');
  codes.push(...(route.response?.errors ?? []), 'billing_unavailable', 'billing_internal');
  return [...new Set(codes)];
}

function errorResponses(codes: string[]): Json {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = errorStatus(code);
    if (status === undefined) continue;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Json = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: list.map((c) => `\`${c}\``).join(', '),
      ...(list.includes('billing_rest_unauthenticated')
        ? { headers: { 'WWW-Authenticate': { schema: { type: 'string', const: 'Basic realm="billing"' } } } }
        : {}),
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: '#/components/schemas/error' }], properties: { code: { type: 'string', enum: list } } },
        },
      },
    };
  }
  return out;
}

/** `GET /billing/v1/invoices/(?P<id>…)/pdf` → `get_billing_v1_invoices_id_pdf`, unique in the document. */
function operationId(method: HttpMethod, key: string, taken: Set<string>): string {
  const base = `${method.toLowerCase()}_${openApiPath(key)
    .path.replace(/[{}]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')}`;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

/** The first segment after the namespace (`invoices`), which groups operations in generated docs. */
function tag(key: string, namespace: string): string {
  const rest = key.slice(namespace.length + 2);
  return rest.split('/')[0]?.replace(/\(.*$/, '') || namespace;
}

/** An arg as JSON Schema 2020-12: WordPress's `required: true` is the parameter's, not the schema's. */
function argSchema(arg: ArgSchema, components: ComponentSchemas): Json {
  const { required: _required, description: _description, ...schema } = arg;
  return components.convert(schema);
}

/**
 * The resources' schemas under `components/schemas`, named by their `title`; a schema met again (the same
 * object) becomes a `$ref`. Converting turns WordPress's draft-04 dialect into 2020-12: no `$schema`,
 * `readonly` as `readOnly`, a property's `required: true` into its parent's `required` list.
 */
class ComponentSchemas {
  private readonly names = new Map<object, string>();
  private readonly converted = new Map<string, Json>();
  private readonly extra: ResourceFields;

  constructor(extra: ResourceFields) {
    this.extra = extra;
  }

  register(schema: object | undefined): void {
    if (!schema || this.names.has(schema)) return;
    const title = (schema as Json).title;
    if (typeof title !== 'string' || !title) return;
    let name = title.replace(/[^A-Za-z0-9._-]+/g, '_');
    for (let n = 2; this.converted.has(name); n++) name = `${title}_${n}`;
    this.converted.set(name, {});
    this.names.set(schema, name);
    // a plugin's fields are described while it is active (they are not required: older clients ignore them)
    const fields = this.extra[title];
    const full = fields && Object.keys(fields).length ? { ...schema, properties: { ...(schema as Json).properties, ...fields } } : schema;
    this.converted.set(name, this.convertBody(full as Json));
  }

  schemas(): Json {
    return Object.fromEntries(this.converted);
  }

  convert(schema: object): Json {
    const name = this.names.get(schema);
    return name ? { $ref: `#/components/schemas/${name}` } : this.convertBody(schema as Json);
  }

  private convertBody(s: Json): Json {
    const out: Json = {};
    const required = new Set<string>(Array.isArray(s.required) ? s.required : []);
    for (const [k, v] of Object.entries(s)) {
      if (k === '$schema' || k === 'invalidMessage' || k === 'required') continue;
      if (k === 'readonly') out.readOnly = v;
      else if (SCHEMA_MAPS.includes(k) && v && typeof v === 'object') {
        out[k] = Object.fromEntries(Object.entries(v).map(([n, p]) => [n, this.convert(p as object)]));
        if (k === 'properties') for (const [n, p] of Object.entries(v)) if ((p as Json)?.required === true) required.add(n);
      } else if (SCHEMA_VALUES.includes(k) && v && typeof v === 'object') out[k] = this.convert(v);
      else if (SCHEMA_LISTS.includes(k) && Array.isArray(v)) out[k] = v.map((x) => this.convert(x));
      else out[k] = v;
    }
    if (required.size) out.required = [...required];
    return out;
  }
}
