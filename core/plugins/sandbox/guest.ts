/**
 * The JavaScript a sandboxed plugin runs beside, inside its own QuickJS realm: the `billing-service`
 * module it imports (definePlugin, action, filter, BillingError), the context its handlers get (every
 * method a call through the one bridge function `__host`, which the service checks against the plugin's
 * permissions), and `__load`/`__call`, through which the service reads the plugin's declarations and
 * calls its handlers. Values cross the boundary as JSON text only: no object of the service's is ever
 * reachable from here.
 */
export const GUEST_MODULE = `
export function definePlugin(def) { return def; }
export function action(hook, make, priority = 10) { return { kind: 'action', hook, priority, make }; }
export function filter(hook, make, priority = 10) { return { kind: 'filter', hook, priority, make }; }
export class BillingError extends Error {
  constructor(code, message, data) { super(message); this.name = 'BillingError'; this.code = code; this.data = data; }
}
`;

/** Evaluated once per realm before the plugin's module: sets up the bridge and removes what it must not keep. */
export const GUEST_PRELUDE = `
(() => {
  const host = globalThis.__host;
  const deny = globalThis.__deny;
  delete globalThis.__host;
  delete globalThis.__deny;
  const call = (op, ...args) => host(op, JSON.stringify(args)).then((text) => JSON.parse(text));
  // names a Node program would reach for: each use is refused, reported and audited
  for (const name of ['process', 'require', 'module', 'Buffer', 'fetch', 'WebSocket', 'XMLHttpRequest', 'Deno', 'Bun']) {
    Object.defineProperty(globalThis, name, {
      configurable: false,
      get() { deny('global: ' + name); throw new Error(name + ' is not available in the sandbox'); },
    });
  }
  const table = (verb) => (name, ...rest) => call('tables.' + verb, name, ...rest);
  const reader = (resource) => ({
    get: (id) => call('read', resource, 'get', id),
    list: (query) => call('read', resource, 'list', query ?? {}),
  });
  const log = (level) => (message, fields) => { host('log', JSON.stringify([level, String(message), fields ?? null])); };
  const ctx = {
    plugin: globalThis.__plugin,
    name: globalThis.__plugin,
    options: { get: (key) => call('options.get', key), getMany: (keys) => call('options.getMany', keys) },
    api: { invoices: reader('invoices'), quotes: reader('quotes'), clients: reader('clients'), payments: reader('payments') },
    tables: { select: table('select'), insert: table('insert'), update: table('update'), delete: table('delete') },
    fetch: (url, init) => call('fetch', String(url), init ?? {}),
    log: { info: log('info'), warn: log('warn'), error: log('error') },
    self: undefined,
  };
  const handlers = [];
  const keep = (fn) => { handlers.push(fn); return handlers.length - 1; };
  const made = (v) => (typeof v === 'function' ? v(ctx) : v ?? []);
  globalThis.__load = (def) => {
    if (typeof def.services === 'function') ctx.self = def.services(ctx);
    const data = (o, skip) => Object.fromEntries(Object.entries(o).filter(([k, v]) => !skip.includes(k) && typeof v !== 'function'));
    return JSON.stringify({
      ...data(def, ['listeners', 'rest', 'jobs', 'services', 'activate', 'deactivate', 'uninstall']),
      listeners: made(def.listeners).map((l) => {
        const fn = l.make(ctx);
        // the arguments it names: the service copies no more in (0: it may read any, all are copied)
        return { kind: l.kind, hook: l.hook, priority: l.priority, arity: fn.length, id: keep(fn) };
      }),
      rest: made(def.rest).map((r) => ({ ...data(r, ['handler']), id: keep((req) => r.handler(req, ctx)) })),
      jobs: made(def.jobs).map((j) => ({ ...data(j, ['run']), id: keep((run) => j.run(run, ctx)) })),
      activate: def.activate ? keep(() => def.activate(ctx)) : null,
      deactivate: def.deactivate ? keep(() => def.deactivate(ctx)) : null,
      uninstall: def.uninstall ? keep(() => def.uninstall(ctx)) : null,
      other: ['routers', 'screens', 'gateways', 'commands', 'queues', 'ajax', 'webhooks'].filter((k) => def[k] !== undefined),
    });
  };
  // A handler that answers at once is answered at once (no promise round trip: the common filter);
  // one that awaits answers a promise of the same JSON text.
  const fail = (e) => {
    const err = e && typeof e === 'object' ? e : { message: String(e) };
    return JSON.stringify({ error: { code: err.code ?? null, message: String(err.message ?? err), data: err.data ?? null } });
  };
  const ok = (out) => JSON.stringify({ ok: out === undefined ? null : out });
  globalThis.__call = (id, argsText) => {
    let out;
    try {
      out = handlers[id](...JSON.parse(argsText));
    } catch (e) {
      return fail(e);
    }
    return out && typeof out.then === 'function' ? Promise.resolve(out).then(ok, fail) : ok(out);
  };
})();
`;
