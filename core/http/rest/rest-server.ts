import type { Request, Response } from 'express';
import { ANONYMOUS, type Authenticator } from '../auth.ts';
import { BillingError } from '../../errors.ts';
import type { Logger } from '../../log.ts';
import { OwnedRegistry } from '../../owned-registry.ts';
import { argsSchema, checkArgs, coerceText } from '../../validation/args.ts';
import { restErrorBody } from '../error-bodies.ts';
import { applyFields } from './fields.ts';
import { RestResponse, type ArgSchema, type HttpMethod, type RestRequest, type RestRoute } from './route.ts';

export const DEFAULT_NAMESPACE = 'billing/v1';
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface CompiledRoute {
  key: string;          // '/billing/v1/invoices/(?P<id>[\d]+)'
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
  auth: Authenticator;
  private readonly log: Logger;

  constructor(baseUrl: string, auth: Authenticator, log: Logger) {
    this.baseUrl = baseUrl;
    this.auth = auth;
    this.log = log;
  }

  add(owner: string, route: RestRoute): void {
    const ns = route.namespace ?? DEFAULT_NAMESPACE;
    if (route.capability === null && ns === DEFAULT_NAMESPACE) throw new Error(`${owner}: every ${DEFAULT_NAMESPACE} route needs a capability`);
    for (const m of asArray(route.methods)) this.routes.add(owner, `${m} /${ns}${route.path}`, route);
    this.compiled = null;
  }

  removeOwner(owner: string): void {
    if (this.routes.removeOwner(owner).length) this.compiled = null;
  }

  /** Express handler for everything under `/wp-json`. */
  handle = async (req: Request, res: Response): Promise<void> => {
    const path = decodeURIComponent(req.path.replace(/\/+$/, '')) || '/';
    const method = overriddenMethod(req);
    setCommonHeaders(req, res, this.baseUrl);
    let authenticated = false;
    try {
      if (path === '/') return this.send(req, res, 200, this.index(null), method);
      const match = this.match(path);
      if (!match) throw new BillingError('rest_no_route', 'No route was found matching the URL and request method.');
      const user = await this.auth.restUser(req);
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
        if (!(await this.auth.can(user, capability))) throw new BillingError('billing_rest_forbidden', 'Sorry, you are not allowed to do that.');
      }
      const params = validateArgs(endpoint.route.args ?? {}, endpoint.argsSchema, match.groups, req);
      const who = user ?? ANONYMOUS;
      const rreq: RestRequest = {
        method: lookup as HttpMethod, params, body: req.body, headers: req.headers, user: who,
        actor: user ? { id: user.id, name: user.login, ip: req.ip ?? null } : { id: null, name: 'visitor', ip: req.ip ?? null }, ip: req.ip ?? '',
        url: new URL(req.originalUrl, this.baseUrl),
      };
      const out = await endpoint.route.handler(rreq);
      const response = out instanceof RestResponse ? out : new RestResponse(out);
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
    } catch (err) {
      if (!(err instanceof BillingError)) this.log.error({ err, path, method }, 'REST handler failed');
      const { status, body, headers } = restErrorBody(err);
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
      name: 'Billing', description: 'Invoices, quotes, clients and payments', url: this.baseUrl, home: this.baseUrl,
      gmt_offset: 0, timezone_string: 'UTC', namespaces, authentication: { 'application-passwords': { endpoints: {} } },
      routes, _links: { help: [{ href: `${this.baseUrl}/wp-json/` }] },
    };
  }

  private describe(r: CompiledRoute, withSchema = true): object {
    const endpoints = r.endpoints.map((e) => ({
      methods: e.methods,
      args: Object.fromEntries(Object.entries(e.route.args ?? {}).map(([k, a]) => [k, { required: Boolean(a.required), ...a }])),
    }));
    const methods = [...new Set(r.endpoints.flatMap((e) => e.methods))];
    const schema = withSchema ? r.endpoints.find((e) => e.route.schema)?.route.schema : undefined;
    return {
      namespace: r.namespace, methods, endpoints,
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
      if (!entry.endpoints.some((e) => e.route === route)) entry.endpoints.push({ methods, route, argsSchema: argsSchema(route.args ?? {}) });
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

function setCommonHeaders(req: Request, res: Response, baseUrl: string): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Link', `<${baseUrl}/wp-json/>; rel="https://api.w.org/"`);
  res.setHeader('Access-Control-Expose-Headers', 'X-WP-Total, X-WP-TotalPages, Link');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, Idempotency-Key');
  const origin = req.get('Origin');
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Methods', 'OPTIONS, GET, POST, PUT, PATCH, DELETE');
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Vary', 'Origin');
  }
}


/**
 * Merges URL, query and body parameters (body over query over URL, as WordPress), coerces the text of
 * URL and query parameters to their declared types, applies defaults, then validates: missing required
 * → rest_missing_callback_param; invalid → rest_invalid_param. Undeclared parameters pass through
 * untouched and unchecked (WordPress ignores them).
 */
function validateArgs(args: Record<string, ArgSchema>, schema: object, groups: Record<string, string>, req: Request): Record<string, any> {
  const fromText: Record<string, unknown> = { ...(req.query as Record<string, unknown>), ...groups };
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body as Record<string, unknown> : {};
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fromText)) params[k] = k in args ? coerceText(v, args[k]!) : v;
  return checkArgs(args, Object.assign(params, body), schema);
}
