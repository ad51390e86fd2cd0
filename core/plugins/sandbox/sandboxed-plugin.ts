import type { Database } from '../../db/database.ts';
import { BillingError, isBillingError } from '../../errors.ts';
import { ajv } from '../../validation/ajv.ts';
import type { Logger } from '../../log.ts';
import type { PluginApi } from '../../modules/service-api.ts';
import type { OptionsStore } from '../../options/options.ts';
import type { PluginDefinition } from '../define-plugin.ts';
import { hostAllowed, permissionDenied, permissionName, type PluginPermissions } from '../permissions.ts';
import { guestRequest, Sandbox, SandboxFault, type SandboxBounds } from './sandbox.ts';
import { tableVerb } from '../plugin-tables.ts';

export interface SandboxDeps {
  db: Database;
  options: OptionsStore;
  api: PluginApi;
  log: Logger;
  /** Logs and audits a refused attempt (`plugin.permission_denied`). */
  denied(plugin: string, permission: string): Promise<void>;
  /** A call broke a bound or threw: counted towards the plugin's fault limit. */
  fault(plugin: string, err: Error): void;
  bounds(): Promise<SandboxBounds>;
}

const FETCH_BYTES = 1024 * 1024;
const FETCH_MS = 10_000;

/**
 * A plugin from a package, run in its own sandbox: its declarations read out of the realm as data, each
 * handler a call into it. The context calls it makes are answered here, each checked against its
 * permissions at the point of use (docs/sandbox.md).
 */
export async function sandboxedPlugin(
  name: string,
  files: ReadonlyMap<string, Buffer>,
  main: string,
  perms: PluginPermissions,
  deps: SandboxDeps,
): Promise<{ definition: PluginDefinition; sandbox: Sandbox }> {
  const log = deps.log.child({ plugin: name, sandboxed: true });
  let declared: Record<string, unknown> = {};
  const refuse = async (permission: string): Promise<never> => {
    await deps.denied(name, permission);
    throw permissionDenied(name, permission);
  };
  const ops = async (op: string, args: any[]): Promise<unknown> => {
    switch (op) {
      case 'options.get':
      case 'options.getMany': {
        const keys: string[] = op === 'options.get' ? [String(args[0])] : (args[0] ?? []).map(String);
        for (const k of keys) if (!(k in declared)) await refuse(permissionName('read', `option ${k}`));
        return op === 'options.get' ? deps.options.get(keys[0] as never) : deps.options.getMany(keys as never);
      }
      case 'read': {
        const [resource, method, arg] = args as [string, string, unknown];
        if (!perms.read.includes(resource)) await refuse(permissionName('read', resource));
        const service = (deps.api as unknown as Record<string, Record<string, (a: unknown) => Promise<unknown>>>)[resource];
        if (!service || (method !== 'get' && method !== 'list'))
          throw new BillingError('rest_invalid_param', `${resource}.${method} is not readable`);
        return service[method]!.call(service, method === 'get' ? Number(arg) : listQuery(arg));
      }
      case 'tables.select':
      case 'tables.insert':
      case 'tables.update':
      case 'tables.delete':
        if (!perms.tables.includes(String(args[0]))) await refuse(permissionName('tables', String(args[0])));
        return tableVerb(deps.db, op.slice('tables.'.length), args);
      case 'fetch': {
        const url = new URL(String(args[0]));
        if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !hostAllowed(perms, url.hostname)) {
          await refuse(permissionName('hosts', url.hostname || url.protocol));
        }
        return boundedFetch(url, (args[1] ?? {}) as { method?: string; headers?: Record<string, string>; body?: string });
      }
      default:
        return refuse(`api: ${op}`);
    }
  };
  const { sandbox, manifest } = await Sandbox.load(name, files, main, await deps.bounds(), {
    ops,
    deny: (permission) => deps.denied(name, permission).catch((err) => log.error({ err }, 'could not audit a refusal')),
    log: (level, message, fields) => log[level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'info']({ fields }, message),
  });
  // its settings and error codes carry its name, so none can pose as the service's or another plugin's
  const prefix = `${name.replace(/-/g, '_')}_`;
  for (const key of [...Object.keys(manifest.settings ?? {}), ...Object.keys(manifest.errors ?? {})]) {
    if (!key.startsWith(prefix)) {
      sandbox.dispose();
      throw new BillingError('billing_plugin_package_invalid', `${name}: the setting or error code ${key} must start with ${prefix}`);
    }
  }
  declared = (manifest.settings as Record<string, unknown>) ?? {};
  const errors = (manifest.errors as Record<string, unknown>) ?? {};
  const call = async (id: number, args: unknown[]): Promise<any> => {
    try {
      return await sandbox.call(id, args);
    } catch (err) {
      const guest = (err as { guest?: { code: string | null; message: string; data: unknown } }).guest;
      if (guest?.code && guest.code in errors)
        throw new BillingError(guest.code as never, guest.message, (guest.data ?? undefined) as never);
      if (isBillingError(err)) throw err; // a refused permission: already audited, not a fault of the realm
      deps.fault(name, err as Error);
      throw err instanceof SandboxFault ? err : new SandboxFault(String(err));
    }
  };
  const m = manifest as any;
  const definition: PluginDefinition = {
    name: String(m.name),
    version: String(m.version),
    title: m.title,
    description: m.description,
    compatibility: m.compatibility,
    settings: m.settings,
    errors: m.errors,
    migrations: m.migrations,
    capabilities: m.capabilities,
    grants: m.grants,
    roles: m.roles,
    assets: m.assets,
    hooks: m.hooks,
    listeners: (m.listeners ?? []).map((l: { kind: 'action' | 'filter'; hook: string; priority: number; arity: number; id: number }) => ({
      kind: l.kind,
      hook: l.hook,
      priority: l.priority,
      // copying a hook's arguments is most of a call's cost: those the listener does not name stay out
      make:
        () =>
        (...args: unknown[]) =>
          call(l.id, l.arity > 0 ? args.slice(0, l.arity) : args),
    })),
    rest: (m.rest ?? []).map((r: Record<string, any>) => ({
      ...r,
      handler: (req: Parameters<typeof guestRequest>[0]) => call(r.id, [guestRequest(req)]),
    })),
    jobs: (m.jobs ?? []).map((j: Record<string, any>) => ({ ...j, run: (run: unknown) => call(j.id, [run]) })),
    activate: m.activate === null ? undefined : async () => void (await call(m.activate, [])),
    deactivate: m.deactivate === null ? undefined : async () => void (await call(m.deactivate, [])),
    uninstall: m.uninstall === null ? undefined : async () => void (await call(m.uninstall, [])),
    // parts only code in the service's realm can provide: declared, they are refused by the permission check
    ...Object.fromEntries((m.other ?? []).map((k: string) => [k, [k]])),
  } as PluginDefinition;
  return { definition, sandbox };
}

const LIST_QUERY = ajv.compile({
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 100000 },
    per_page: { type: 'integer', minimum: 1, maximum: 100 },
    search: { type: 'string', maxLength: 200 },
    status: { type: 'array', items: { type: 'string', maxLength: 40 }, maxItems: 10 },
    client_id: { type: 'integer', minimum: 1 },
    after: { type: 'string', format: 'date' },
    before: { type: 'string', format: 'date' },
    number: { type: 'string', maxLength: 100 },
    orderby: { enum: ['date', 'id', 'number', 'due_date', 'total'] },
    order: { enum: ['asc', 'desc'] },
  },
});

/** A list query from the sandbox, checked like a REST one: known fields, pages of at most 100. */
function listQuery(raw: unknown): Record<string, unknown> {
  const q = { page: 1, per_page: 20, ...((raw ?? {}) as Record<string, unknown>) };
  if (!LIST_QUERY(q)) throw new BillingError('rest_invalid_param', `invalid list query: ${ajv.errorsText(LIST_QUERY.errors)}`);
  return q;
}

/** The service fetches for the plugin: bounded in time and in the body it reads, no redirect followed. */
async function boundedFetch(url: URL, init: { method?: string; headers?: Record<string, string>; body?: string }) {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: init.headers,
    body: init.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(FETCH_MS),
  });
  const reader = res.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > FETCH_BYTES) {
      await reader.cancel();
      throw new BillingError('rest_invalid_param', `the answer of ${url.host} is larger than ${FETCH_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return {
    status: res.status,
    headers: Object.fromEntries([...(res.headers as unknown as Iterable<[string, string]>)]),
    body: Buffer.concat(chunks).toString('utf8'),
  };
}
