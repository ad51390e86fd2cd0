import type { Request, Response } from 'express';
import { ANONYMOUS, NOBODY, type Authenticator, type AuthUser } from '../auth.ts';
import { BillingError } from '../../errors.ts';
import type { Logger } from '../../log.ts';
import { OwnedRegistry } from '../../owned-registry.ts';
import type { ObjectScope } from '../../scope/object-scope.ts';
import { pathParams, undeclaredError, undeclaredObjectParams } from '../../scope/object-params.ts';
import { argsSchema, checkArgs, coerceText } from '../../validation/args.ts';
import { describeTextProblem, textProblem } from '../../validation/text.ts';
import { restErrorBody } from '../error-bodies.ts';
import { corsHeaders, wantsBasicChallenge } from './cors.ts';
import { applyFields } from './fields.ts';
import type { Idempotency } from './idempotency.ts';
import { RestResponse, type ArgSchema, type HttpMethod, type RestRequest, type RestRoute } from './route.ts';

export const DEFAULT_NAMESPACE = 'billing/v1';
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface CompiledRoute {
  key: string; // '/billing/v1/invoices/(?P<id>[\d]+)'
  namespace: string;
  pattern: RegExp;
  endpoints: Array<{ methods: HttpMethod[]; route: RestRoute; argsSchema: object }>;
}

/**
 * WordPress's REST server, for the routes the core and the active plugins declare: matching on
 * WP-style regex paths, capability checks, argument validation from the declared schemas, the index
 * and OPTIONS answers, `_fields`, `_envelope`, method override, HEAD, and the headers WordPress sends.
 */
export class RestServer {
  readonly routes = new OwnedRegistry<RestRoute>('REST route');
  private compiled: CompiledRoute[] | null = null;
  readonly baseUrl: string;
  /** Who is calling: the identity module's, once the kernel has built it (until then nobody is signed in). */
  auth: Authenticator = NOBODY;
  /** Whether the database answers (an unexpected failure while it does not is a 503, not a 500). */
  health: (() => Promise<boolean>) | null = null;
  /** Where POSTs' Idempotency-Keys are kept (the kernel sets it; without, the header is ignored). */
  idempotency: Idempotency | null = null;
  /** `rest_allowed_origins`: origins whose pages may send the user's cookies (the kernel sets it). */
  allowedOrigins: (() => Promise<readonly string[]>) | null = null;
  private readonly log: Logger;
  /** The scoped resolver every object a route names goes through. */
  private readonly scope: ObjectScope;

  constructor(baseUrl: string, log: Logger, scope: ObjectScope) {
    this.baseUrl = baseUrl;
    this.log = log;
    this.scope = scope;
  }

  /**
   * Registers a route. Refused (thrown, naming the owner and the route) when it names an object it does
   * not declare: scope fails closed at registration, not at the first request of a forgotten route.
   */
  add(owner: string, route: RestRoute): void {
    const ns = route.namespace ?? DEFAULT_NAMESPACE;
    if (route.capability === null && ns === DEFAULT_NAMESPACE)
      throw new Error(`${owner}: every ${DEFAULT_NAMESPACE} route needs a capability`);
    const name = `REST route ${asArray(route.methods).join('|')} /${ns}${route.path}`;
    const undeclared = undeclaredObjectParams({
      named: pathParams(route.path),
      other: Object.keys(route.args ?? {}),
      object: route.object,
      unscoped: route.unscoped,
    });
    if (undeclared.length) throw undeclaredError(owner, name, undeclared);
    this.scope.checkRefs(owner, name, route.object);
    for (const m of asArray(route.methods)) this.routes.add(owner, `${m} /${ns}${route.path}`, route);
    this.compiled = null;
  }

  removeOwner(owner: string): void {
    if (this.routes.removeOwner(owner).length) this.compiled = null;
  }

  /** The request's caller, authenticated once per request (a failed password is counted once). */
  private userOf(req: Request): Promise<AuthUser | null> {
    let user = this.callers.get(req);
    if (!user) this.callers.set(req, (user = this.auth.restUser(req)));
    return user;
  }

  private readonly callers = new WeakMap<Request, Promise<AuthUser | null>>();

  /**
   * The body limit of a request, in bytes, when its route declares one of its own (`bodyLimit`), the
   * body is of a type the route reads raw, and the caller is signed in and allowed on the route: nobody
   * makes this service hold a large body for a route they may not call. Null for every other request
   * (the surface's default).
   */
  async bodyLimitOf(req: Request): Promise<number | null> {
    let path: string;
    try {
      path = routePath(req.path);
    } catch {
      return null;
    }
    const endpoint = this.match(path)?.route.endpoints.find((e) => e.methods.includes(overriddenMethod(req) as HttpMethod));
    const route = endpoint?.route;
    const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!route?.bodyLimit || !route.requestTypes?.some((t) => t.toLowerCase() === type) || route.capability === null) return null;
    try {
      const user = await this.userOf(req);
      return user && (await this.auth.can(user, route.capability)) ? route.bodyLimit : null;
    } catch {
      return null; // the request itself answers why (a bad nonce, the database away)
    }
  }

  /** Express handler for everything under `/wp-json`. */
  handle = async (req: Request, res: Response): Promise<void> => {
    const method = overriddenMethod(req);
    setCommonHeaders(res, this.baseUrl);
    const origin = req.get('Origin');
    if (origin !== undefined) {
      const allowed = this.allowedOrigins ? await this.allowedOrigins().catch(() => []) : [];
      corsHeaders(res, origin, new URL(this.baseUrl).origin, allowed);
    }
    let authenticated = false;
    let path = '/';
    try {
      path = routePath(req.path);
      if (path === '/') return this.send(req, res, 200, this.index(null), method);
      const match = this.match(path);
      if (!match) throw new BillingError('rest_no_route', 'No route was found matching the URL and request method.');
      refuseBadText(req.query, 'query');
      const user = await this.userOf(req);
      authenticated = user !== null;
      if (authenticated) res.setHeader('Cache-Control', 'no-store, no-cache, must-revalidate');
      if (method === 'OPTIONS') return this.send(req, res, 200, this.describe(match.route), method);
      if (match.route.key === `/${match.route.namespace}`) {
        if (!user) throw unauthenticated();
        return this.send(req, res, 200, this.index(match.route.namespace), method);
      }
      const lookup = method === 'HEAD' ? 'GET' : method;
      const endpoint = match.route.endpoints.find((e) => e.methods.includes(lookup as HttpMethod));
      if (!endpoint) throw new BillingError('rest_no_route', 'No route was found matching the URL and request method.');
      const capability = endpoint.route.capability;
      if (capability !== null) {
        if (!user) throw unauthenticated();
        if (!(await this.auth.can(user, capability)))
          throw new BillingError('billing_rest_forbidden', 'Sorry, you are not allowed to do that.');
      }
      // the body is read only now, once the route is known and its caller is: nobody makes this
      // service parse a megabyte for a route they may not call
      const { params: fields, body } = parseBody(req);
      refuseBadText(fields, 'body');
      const params = validateArgs(
        endpoint.route.args ?? {},
        endpoint.argsSchema,
        match.groups,
        req.query as Record<string, unknown>,
        fields,
      );
      if (capability !== null && user) await this.scope.check(this.auth, user, capability, endpoint.route.object, params);
      const who = user ?? ANONYMOUS;
      const rreq: RestRequest = {
        method: lookup as HttpMethod,
        params,
        body,
        headers: req.headers,
        user: who,
        actor: user ? { id: user.id, name: user.login, ip: req.ip ?? null } : { id: null, name: 'visitor', ip: req.ip ?? null },
        ip: req.ip ?? '',
        url: new URL(req.originalUrl, this.baseUrl),
      };
      const call = async () => {
        const out = await endpoint.route.handler(rreq);
        return out instanceof RestResponse ? out : new RestResponse(out);
      };
      // a signed-in caller's POST may carry an Idempotency-Key: the same request again answers the first answer
      const response =
        user && lookup === 'POST' && this.idempotency
          ? await this.idempotency.run(
              {
                userId: user.id,
                header: req.headers['idempotency-key'],
                route: `POST ${path}`,
                request: { params, raw: Buffer.isBuffer(body) ? body : null },
              },
              call,
            )
          : await call();
      for (const [k, v] of Object.entries(response.headers)) {
        // a route's Link (prev/next of a collection) joins the discovery link rather than replacing it
        if (k.toLowerCase() === 'link') res.setHeader('Link', `${res.getHeader('Link')}, ${v}`);
        else res.setHeader(k, v);
      }
      if (response.raw) {
        res.status(response.status).type(response.raw.contentType);
        res.end(method === 'HEAD' ? undefined : response.raw.body);
        return;
      }
      return this.send(req, res, response.status, response.data, method);
    } catch (caught) {
      let err = caught;
      if (!(err instanceof BillingError)) {
        this.log.error({ err, path, method }, 'REST handler failed');
        // the database not answering is not a bug of this request: say when to come back
        if (this.health && !(await this.health())) err = unavailable();
      }
      const { status, body, headers } = restErrorBody(err);
      if (!wantsBasicChallenge(req)) delete headers['WWW-Authenticate'];
      if (status === 503) res.setHeader('Retry-After', '5');
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      if (!authenticated) res.removeHeader('Cache-Control');
      return this.send(req, res, status, body, method);
    }
  };

  /** `/wp-json/` (namespace null) or a namespace index. */
  index(namespace: string | null): object {
    const routes: Record<string, object> = {};
    for (const r of this.table()) {
      if (namespace && r.namespace !== namespace) continue;
      routes[r.key] = this.describe(r, false);
    }
    const namespaces = [...new Set(this.table().map((r) => r.namespace))];
    if (namespace) {
      return { namespace, routes, _links: { up: [{ href: `${this.baseUrl}/wp-json/` }] } };
    }
    return {
      name: 'Billing',
      description: 'Invoices, quotes, clients and payments',
      url: this.baseUrl,
      home: this.baseUrl,
      gmt_offset: 0,
      timezone_string: 'UTC',
      namespaces,
      authentication: { 'application-passwords': { endpoints: {} } },
      routes,
      _links: { help: [{ href: `${this.baseUrl}/wp-json/` }] },
    };
  }

  /**
   * The routes as the index lists them (namespace indexes included, with no endpoints of their own),
   * each endpoint with its declaration and the unit that added it: what the OpenAPI document is made from.
   */
  listRoutes(): Array<{
    key: string;
    namespace: string;
    endpoints: Array<{ methods: HttpMethod[]; route: RestRoute; owner: string }>;
  }> {
    return this.table().map((r) => ({
      key: r.key,
      namespace: r.namespace,
      endpoints: r.endpoints.map((e) => ({
        methods: e.methods,
        route: e.route,
        owner: this.routes.ownerOf(`${e.methods[0]} ${r.key}`) ?? '',
      })),
    }));
  }

  private describe(r: CompiledRoute, withSchema = true): object {
    if (r.key === `/${r.namespace}`) return namespaceRoute(r.namespace, this.baseUrl);
    const endpoints = r.endpoints.map((e) => ({
      methods: e.methods,
      args: Object.fromEntries(Object.entries(e.route.args ?? {}).map(([k, a]) => [k, { required: Boolean(a.required), ...a }])),
    }));
    const methods = [...new Set(r.endpoints.flatMap((e) => e.methods))];
    const schema = withSchema ? r.endpoints.find((e) => e.route.schema)?.route.schema : undefined;
    return {
      namespace: r.namespace,
      methods,
      endpoints,
      ...(schema ? { schema } : {}),
      _links: { self: [{ href: `${this.baseUrl}/wp-json${r.key.replace(/\(\?P<[^>]+>[^)]*\)/g, '{id}')}` }] },
    };
  }

  private match(path: string): { route: CompiledRoute; groups: Record<string, string> } | null {
    for (const route of this.table()) {
      const m = route.pattern.exec(path);
      if (m) return { route, groups: { ...m.groups } };
    }
    return null;
  }

  /** Routes grouped by path, with one pseudo-route per namespace for its index. */
  private table(): CompiledRoute[] {
    if (this.compiled) return this.compiled;
    const byKey = new Map<string, CompiledRoute>();
    for (const route of this.routes.values()) {
      const namespace = route.namespace ?? DEFAULT_NAMESPACE;
      for (const key of [`/${namespace}`, `/${namespace}${route.path}`]) {
        if (!byKey.has(key)) {
          const source = key.replace(/\(\?P</g, '(?<');
          byKey.set(key, { key, namespace, pattern: new RegExp(`^${source}$`), endpoints: [] });
        }
      }
      const entry = byKey.get(`/${namespace}${route.path}`)!;
      const methods = asArray(route.methods);
      if (!entry.endpoints.some((e) => e.route === route))
        entry.endpoints.push({ methods, route, argsSchema: argsSchema(route.args ?? {}) });
    }
    this.compiled = [...byKey.values()];
    return this.compiled;
  }

  private send(req: Request, res: Response, status: number, data: unknown, method: string): void {
    let body = status < 400 && typeof req.query._fields === 'string' ? applyFields(data, req.query._fields) : data;
    if ('_envelope' in req.query) {
      // with their names as set (X-WP-Total), as WordPress's envelope has them
      // (Node has had getRawHeaderNames since 15.13; @types/node does not declare it)
      const raw = (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames();
      const names = raw.filter((k) => !['content-type', 'cache-control'].includes(k.toLowerCase()));
      const headers = Object.fromEntries(names.map((k) => [k, res.getHeader(k)]));
      body = { body, status, headers };
      status = 200;
    }
    res.status(status);
    res.setHeader('Content-Type', 'application/json; charset=UTF-8');
    res.end(method === 'HEAD' ? undefined : JSON.stringify(body));
  }
}

/** A namespace index as WordPress lists it: GET, with its `namespace` and `context` args. */
function namespaceRoute(namespace: string, baseUrl: string): object {
  const args = { namespace: { default: namespace, required: false }, context: { default: 'view', required: false } };
  return {
    namespace,
    methods: ['GET'],
    endpoints: [{ methods: ['GET'], args }],
    _links: { self: [{ href: `${baseUrl}/wp-json/${namespace}` }] },
  };
}

function unauthenticated(): BillingError {
  return new BillingError('billing_rest_unauthenticated', 'You are not currently logged in.');
}

function asArray<T>(v: T | T[]): T[] {
  return Array.isArray(v) ? v : [v];
}

/** `_method` or `X-HTTP-Method-Override` on a POST, like WordPress. */
function overriddenMethod(req: Request): string {
  if (req.method !== 'POST') return req.method;
  const o = (typeof req.query._method === 'string' && req.query._method) || req.get('X-HTTP-Method-Override');
  return o && METHODS.includes(o.toUpperCase() as HttpMethod) ? o.toUpperCase() : 'POST';
}

function setCommonHeaders(res: Response, baseUrl: string): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Link', `<${baseUrl}/wp-json/>; rel="https://api.w.org/"`);
  res.setHeader('Access-Control-Expose-Headers', 'X-WP-Total, X-WP-TotalPages, Link');
  res.setHeader(
    'Access-Control-Allow-Headers',
    'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, Idempotency-Key',
  );
}

/**
 * Merges URL, query and body parameters (body over query, as WordPress), coerces the text of query
 * and URL parameters to their declared types, applies defaults, then validates: missing required →
 * rest_missing_callback_param; invalid → rest_invalid_param. The URL's parameters name the resource:
 * a query or body parameter of the same name that says otherwise is a 400, never an override (the
 * document a proxy, an access rule and the audit log see is the one acted on). Undeclared parameters
 * pass through untouched and unchecked (WordPress ignores them).
 */
function validateArgs(
  args: Record<string, ArgSchema>,
  schema: object,
  groups: Record<string, string>,
  query: Record<string, unknown>,
  body: Record<string, unknown>,
): Record<string, any> {
  const coerce = (k: string, v: unknown) => (k in args ? coerceText(v, args[k]!) : v);
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) params[k] = coerce(k, v);
  Object.assign(params, body);
  for (const [k, v] of Object.entries(groups)) {
    const own = coerce(k, v);
    if (k in params && String(params[k]) !== String(own)) {
      throw new BillingError('rest_invalid_param', `Invalid parameter(s): ${k}`, {
        params: { [k]: `${k} is given by the URL (${String(own)}); the request may not name another.` },
      });
    }
    params[k] = own;
  }
  return checkArgs(args, params, schema);
}

/**
 * The route part of `/wp-json/…`, decoded. A malformed escape is a 400; an encoded slash (`%2F`) would
 * make `/invoices%2F1` mean `/invoices/1`, so it matches no route.
 */
function routePath(raw: string): string {
  if (/%2f/i.test(raw)) throw new BillingError('rest_no_route', 'No route was found matching the URL and request method.');
  try {
    return decodeURIComponent(raw.replace(/\/+$/, '')) || '/';
  } catch {
    throw new BillingError('billing_bad_request', 'The URL is not correctly encoded.');
  }
}

/** Content types a route gets as raw bytes (a Buffer in `RestRequest.body`), as WordPress's get_body() has them. */
const RAW_TYPES = /^(application\/xml|text\/xml|application\/[\w.+-]+\+xml|application\/pdf|application\/octet-stream)\b/i;

/**
 * The request body: JSON (or a form, as WordPress takes them) as parameters; a file (XML, PDF) as its
 * bytes, which are never parameters.
 */
function parseBody(req: Request): { params: Record<string, unknown>; body: unknown } {
  const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const type = req.get('content-type') ?? '';
  if (RAW_TYPES.test(type)) return { params: {}, body: raw };
  if (!raw.length) return { params: {}, body: {} };
  if (/^application\/x-www-form-urlencoded/i.test(type)) {
    const form = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    return { params: form, body: form };
  }
  if (!/json/i.test(type)) return { params: {}, body: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BillingError('rest_invalid_json', 'Invalid JSON body passed.');
  }
  const params = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { params, body: value };
}

function refuseBadText(value: unknown, where: string): void {
  const problem = textProblem(value, where);
  if (problem)
    throw new BillingError('rest_invalid_param', describeTextProblem(problem), {
      params: { [problem.where]: describeTextProblem(problem) },
    });
}

function unavailable(): BillingError {
  return new BillingError('billing_unavailable', 'The service cannot reach its database right now; please try again shortly.');
}
