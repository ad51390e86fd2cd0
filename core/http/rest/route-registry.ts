import { OwnedRegistry } from '../../owned-registry.ts';
import type { ObjectScope } from '../../scope/object-scope.ts';
import { pathParams, undeclaredError, undeclaredObjectParams } from '../../scope/object-params.ts';
import { argsSchema } from '../../validation/args.ts';
import type { HttpMethod, RestRoute } from './route.ts';

export const DEFAULT_NAMESPACE = 'billing/v1';

export interface CompiledRoute {
  key: string; // '/billing/v1/invoices/(?P<id>[\d]+)'
  namespace: string;
  pattern: RegExp;
  endpoints: Array<{ methods: HttpMethod[]; route: RestRoute; argsSchema: object }>;
}

/**
 * The REST routes the core and the active plugins declare, as WordPress's REST server holds them:
 * checked when they are registered, compiled to patterns grouped by path (with one pseudo-route per
 * namespace for its index), and described for the index, OPTIONS and the OpenAPI document.
 */
export class RouteRegistry {
  readonly routes = new OwnedRegistry<RestRoute>('REST route');
  private compiled: CompiledRoute[] | null = null;
  private readonly baseUrl: string;
  /** The scoped resolver every object a route names goes through. */
  private readonly scope: ObjectScope;

  constructor(baseUrl: string, scope: ObjectScope) {
    this.baseUrl = baseUrl;
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

  describe(r: CompiledRoute, withSchema = true): object {
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

  match(path: string): { route: CompiledRoute; groups: Record<string, string> } | null {
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

export function asArray<T>(v: T | T[]): T[] {
  return Array.isArray(v) ? v : [v];
}
