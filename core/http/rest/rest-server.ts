import type { Request, Response } from 'express';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { ANONYMOUS, NOBODY, type Authenticator, type AuthUser } from '../auth.ts';
import { BillingError } from '../../errors.ts';
import type { Logger } from '../../log.ts';
import type { ObjectScope } from '../../scope/object-scope.ts';
import { checkArgs, coerceText } from '../../validation/args.ts';
import { describeTextProblem, textProblem } from '../../validation/text.ts';
import { restErrorBody } from '../error-bodies.ts';
import { corsHeaders, wantsBasicChallenge } from './cors.ts';
import { applyFields } from './fields.ts';
import type { Idempotency } from './idempotency.ts';
import { RestResponse, type ArgSchema, type HttpMethod, type RestFile, type RestRequest, type RestRoute } from './route.ts';
import { RouteRegistry } from './route-registry.ts';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * WordPress's REST server, for the routes the core and the active plugins declare: matching on
 * WP-style regex paths, capability checks, argument validation from the declared schemas, the index
 * and OPTIONS answers, `_fields`, `_envelope`, method override, HEAD, and the headers WordPress sends.
 */
export class RestServer {
  /** The routes: registered, checked and compiled there; this class answers requests with them. */
  readonly registry: RouteRegistry;
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
    this.registry = new RouteRegistry(baseUrl, scope);
  }

  get routes(): RouteRegistry['routes'] {
    return this.registry.routes;
  }

  /**
   * Registers a route. Refused (thrown, naming the owner and the route) when it names an object it does
   * not declare: scope fails closed at registration, not at the first request of a forgotten route.
   */
  add(owner: string, route: RestRoute): void {
    this.registry.add(owner, route);
  }

  removeOwner(owner: string): void {
    this.registry.removeOwner(owner);
  }

  /** The routes with their declarations and owners: what the OpenAPI document is made from. */
  listRoutes(): ReturnType<RouteRegistry['listRoutes']> {
    return this.registry.listRoutes();
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
    const endpoint = this.registry.match(path)?.route.endpoints.find((e) => e.methods.includes(overriddenMethod(req) as HttpMethod));
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
      if (path === '/') return this.send(req, res, 200, this.registry.index(null), method);
      const match = this.registry.match(path);
      if (!match) throw new BillingError('rest_no_route', 'No route was found matching the URL and request method.');
      refuseBadText(req.query, 'query');
      const user = await this.userOf(req);
      authenticated = user !== null;
      if (authenticated) res.setHeader('Cache-Control', 'no-store, no-cache, must-revalidate');
      if (method === 'OPTIONS') return this.send(req, res, 200, this.registry.describe(match.route), method);
      if (match.route.key === `/${match.route.namespace}`) {
        if (!user) throw unauthenticated();
        return this.send(req, res, 200, this.registry.index(match.route.namespace), method);
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
      if (response.file) return sendFile(res, response.file, method);
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

/** Content types a route gets as raw bytes (a Buffer in `RestRequest.body`), as WordPress's get_body() has them: files (XML, PDF, CSV, gzip, an attachment's image or workbook). */
const RAW_TYPES =
  /^(application\/xml|text\/xml|application\/[\w.+-]+\+xml|application\/pdf|application\/octet-stream|application\/(x-)?gzip|image\/png|image\/jpeg|application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet|text\/csv|application\/csv|application\/vnd\.ms-excel|text\/plain)\b/i;

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

/**
 * Streams a temporary file as a download and deletes it, whether the client read it all or went away:
 * the file is the answer's only copy, so memory stays flat whatever its size.
 */
async function sendFile(res: Response, file: RestFile, method: string): Promise<void> {
  try {
    res.status(200).type(file.contentType).attachment(file.name);
    if (method === 'HEAD') res.end();
    else await pipeline(createReadStream(file.path), res);
  } catch {
    // the client left mid-download: nothing to answer, the file still goes
  } finally {
    await rm(file.path, { force: true });
  }
}
