import { posix } from 'node:path';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten-core';
import { BillingError } from '../../errors.ts';
import { GUEST_MODULE, GUEST_PRELUDE } from './guest.ts';

/** What the service does for a sandboxed plugin's context calls (`ctx.options.get(…)` → `options.get`). */
export type HostOps = (op: string, args: unknown[]) => Promise<unknown>;

export interface SandboxBounds {
  /** CPU time of one entry into the realm (a call, or its continuation after an awaited host call). */
  cpuMs: number;
  memoryMb: number;
  /** Wall-clock time a call may take in all, awaited host calls included. */
  wallMs: number;
}

export interface SandboxHooks {
  ops: HostOps;
  /** Something the plugin tried that no permission can give (a Node global, a module of Node's); audited. */
  deny(permission: string): Promise<void>;
  log(level: string, message: string, fields: unknown): void;
}

/** A call that broke a bound or threw something the plugin did not declare: counted towards its fault limit. */
export class SandboxFault extends Error {}

/**
 * One plugin's realm: its own QuickJS WebAssembly instance (so it shares no memory with the service or
 * another plugin), bounded in memory, with an interrupt at the end of each entry's CPU budget. Its only
 * way out is the `__host` bridge, answered by `SandboxHooks.ops` (docs/sandbox.md).
 */
export class Sandbox {
  private readonly runtime: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  private readonly callFn: QuickJSHandle;
  private deadline = Infinity;
  private readonly bounds: SandboxBounds;
  private readonly inFlight = new Set<(err: Error) => void>();
  private disposed = false;

  private readonly pending: Set<Promise<void>>;

  private constructor(
    runtime: QuickJSRuntime,
    vm: QuickJSContext,
    callFn: QuickJSHandle,
    bounds: SandboxBounds,
    pending: Set<Promise<void>>,
  ) {
    this.pending = pending;
    this.runtime = runtime;
    this.vm = vm;
    this.callFn = callFn;
    this.bounds = bounds;
  }

  /**
   * Evaluates the package's `main` with its own files as the only modules (plus `billing-service`),
   * and answers what its default export declares, with handler ids in place of functions.
   */
  static async load(
    plugin: string,
    files: ReadonlyMap<string, Buffer>,
    main: string,
    bounds: SandboxBounds,
    hooks: SandboxHooks,
  ): Promise<{ sandbox: Sandbox; manifest: Record<string, any> }> {
    const quickjs = await newQuickJSWASMModuleFromVariant(variant as never);
    // refusals are written while the realm goes on; a call (or the load) ends only once they are
    const pending = new Set<Promise<void>>();
    const deny = (permission: string) => {
      const p = hooks.deny(permission).finally(() => pending.delete(p));
      pending.add(p);
    };
    const runtime = quickjs.newRuntime();
    runtime.setMemoryLimit(bounds.memoryMb * 1024 * 1024);
    runtime.setMaxStackSize(512 * 1024);
    runtime.setModuleLoader(
      (name) => {
        // the plugin API, by its package name or (a plugin of the service's own) by its path in the service
        if (name === 'billing-service' || name.endsWith('core/plugin-api.ts')) return GUEST_MODULE;
        const file = files.get(name);
        if (file === undefined || !/\.(m?js|ts|json)$/.test(name)) {
          deny(`module: ${name}`);
          throw new Error(`the module ${name} is not available in the sandbox`);
        }
        return name.endsWith('.json') ? `export default ${file.toString('utf8')};` : file.toString('utf8');
      },
      (base, requested) => (requested.startsWith('.') ? posix.normalize(posix.join(posix.dirname(base), requested)) : requested),
    );
    const vm = runtime.newContext();
    let sandbox: Sandbox | null = null;
    try {
      const host = vm.newFunction('__host', (opH, argsH) => {
        const op = vm.getString(opH);
        const args = JSON.parse(vm.getString(argsH)) as unknown[];
        if (op === 'log') {
          hooks.log(String(args[0]), String(args[1]), args[2]);
          return vm.undefined;
        }
        const deferred = vm.newPromise();
        hooks
          .ops(op, args)
          .then(
            (value) => {
              if (sandbox?.disposed) return;
              vm.newString(JSON.stringify(value ?? null)).consume((s) => deferred.resolve(s));
            },
            (err: Error & { code?: string }) => {
              if (sandbox?.disposed) return;
              const e = vm.newError({ name: 'Error', message: err.message });
              vm.setProp(e, 'code', vm.newString(err.code ?? 'error'));
              deferred.reject(e);
              e.dispose();
            },
          )
          .finally(() => {
            if (sandbox?.disposed) return;
            deferred.dispose();
            sandbox?.pump();
          });
        return deferred.handle;
      });
      vm.setProp(vm.global, '__host', host);
      host.dispose();
      vm.newFunction('__deny', (permH) => {
        deny(vm.getString(permH));
        return vm.undefined;
      }).consume((f) => vm.setProp(vm.global, '__deny', f));
      vm.newString(plugin).consume((s) => vm.setProp(vm.global, '__plugin', s));
      vm.unwrapResult(vm.evalCode(GUEST_PRELUDE, 'prelude.js')).dispose();
      const callFn = vm.getProp(vm.global, '__call');
      sandbox = new Sandbox(runtime, vm, callFn, bounds, pending);
      runtime.setInterruptHandler(() => performance.now() > sandbox!.deadline);
      const text = sandbox.enter(() => {
        const ns = vm.unwrapResult(vm.evalCode(files.get(main)!.toString('utf8'), main, { type: 'module' }));
        const def = vm.getProp(ns, 'default');
        ns.dispose();
        const loadFn = vm.getProp(vm.global, '__load');
        const out = vm.unwrapResult(vm.callFunction(loadFn, vm.undefined, def));
        loadFn.dispose();
        def.dispose();
        return out.consume((h) => vm.getString(h));
      });
      return { sandbox, manifest: JSON.parse(text) };
    } catch (err) {
      await Promise.allSettled([...pending]);
      if (sandbox) sandbox.dispose();
      else {
        vm.dispose();
        runtime.dispose();
      }
      throw new SandboxFault(`${plugin} could not be loaded in the sandbox: ${(err as Error).message ?? err}`);
    }
  }

  /** Calls handler `id` with JSON copies of `args`; answers a JSON copy of what it returns. */
  async call(id: number, args: unknown[]): Promise<unknown> {
    if (this.disposed) throw new SandboxFault('the plugin is unloaded');
    const argsText = toJson(args);
    let reject!: (err: Error) => void;
    const broken = new Promise<never>((_, rej) => (reject = rej));
    this.inFlight.add(reject);
    let timer: NodeJS.Timeout | undefined;
    try {
      const settled = this.enter(() => {
        const idH = this.vm.newNumber(id);
        const argsH = this.vm.newString(argsText);
        const res = this.vm.callFunction(this.callFn, this.vm.undefined, idH, argsH);
        idH.dispose();
        argsH.dispose();
        const handle = this.vm.unwrapResult(res);
        // answered at once: the JSON text itself; else a promise of it
        if (this.vm.typeof(handle) === 'string') return handle.consume((h) => this.vm.getString(h));
        const promise = this.vm.resolvePromise(handle);
        handle.dispose();
        return promise;
      });
      let text: string;
      if (typeof settled === 'string') text = settled;
      else {
        const timeout = new Promise<never>((_, rej) => {
          timer = setTimeout(() => rej(new SandboxFault(`the call took longer than ${this.bounds.wallMs} ms`)), this.bounds.wallMs);
        });
        this.pump();
        const result = await Promise.race([settled, broken, timeout]);
        if (result.error) {
          const e = this.vm.dump(result.error);
          result.error.dispose();
          throw new SandboxFault(String(e?.message ?? e));
        }
        text = result.value.consume((h) => this.vm.getString(h));
      }
      const answer = JSON.parse(text) as {
        ok?: unknown;
        error?: { code: string | null; message: string; data: unknown };
      };
      if (answer.error) throw guestError(answer.error);
      return answer.ok;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(reject);
      if (this.pending.size) await Promise.allSettled([...this.pending]);
    }
  }

  /** Bytes the realm uses now (for the bench and the logs). */
  memoryUsed(): number {
    return this.disposed ? 0 : Number(this.runtime.computeMemoryUsage().consume((h) => this.vm.dump(h))?.memory_used_size ?? 0);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const reject of this.inFlight) reject(new SandboxFault('the plugin was unloaded'));
    this.callFn.dispose();
    try {
      this.vm.dispose();
      this.runtime.dispose();
    } catch {
      // a realm left with live handles by an interrupted call: its WebAssembly instance goes with it
    }
  }

  /** Runs pending promise jobs (continuations after host answers), each entry with its own CPU budget. */
  private pump(): void {
    if (this.disposed) return;
    try {
      this.enter(() => {
        const res = this.runtime.executePendingJobs();
        if (res.error) {
          const e = this.vm.dump(res.error);
          res.error.dispose();
          throw new SandboxFault(String(e?.message ?? e));
        }
        res.value;
      });
    } catch (err) {
      // a continuation broke a bound: every call waiting in this realm fails closed
      for (const reject of this.inFlight) reject(err instanceof SandboxFault ? err : new SandboxFault(String(err)));
    }
  }

  private enter<T>(fn: () => T): T {
    this.deadline = performance.now() + this.bounds.cpuMs;
    try {
      return fn();
    } catch (err) {
      if (err instanceof SandboxFault) throw err;
      const e = err as { name?: string; message?: string; cause?: { message?: string } };
      throw new SandboxFault(String(e.cause?.message ?? e.message ?? err));
    } finally {
      this.deadline = Infinity;
    }
  }
}

/** A plugin's own declared error goes to the caller as itself; anything else is a fault. */
function guestError(e: { code: string | null; message: string; data: unknown }): Error {
  if (e.code === 'billing_plugin_permission_denied') {
    return new BillingError('billing_plugin_permission_denied', e.message, (e.data ?? undefined) as Record<string, unknown> | undefined);
  }
  const err = new SandboxFault(e.message);
  (err as SandboxFault & { guest?: unknown }).guest = e;
  return err;
}

/**
 * A request as a plugin in the sandbox sees it: never its headers (credentials, cookies), its raw body
 * or the caller's capabilities — the method, the parameters, the path and who is calling.
 */
export function guestRequest(req: { method?: unknown; params?: unknown; user?: { id: number; login: string } | null; url?: unknown }) {
  return {
    method: req.method,
    params: req.params,
    path: req.url instanceof URL ? req.url.pathname : undefined,
    user: req.user ? { id: req.user.id, login: req.user.login } : null,
  };
}

function isRequest(v: object): v is Parameters<typeof guestRequest>[0] {
  return 'headers' in v && 'params' in v && 'actor' in v;
}

/** A JSON copy of hook arguments: functions dropped, cycles cut, big integers as text, at most 1 MiB. */
function toJson(value: unknown): string {
  const seen = new WeakSet<object>();
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'function' || typeof v === 'symbol') return undefined;
    // raw bodies (a Buffer as its toJSON made it) and binary arrays are not the plugin's to read
    if (ArrayBuffer.isView(v) || (v && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer')) return undefined;
    if (v && typeof v === 'object') {
      if (isRequest(v)) return guestRequest(v);
      if (seen.has(v)) return undefined;
      seen.add(v);
    }
    return v;
  });
  if (text === undefined) return '[]';
  if (text.length > 1024 * 1024) throw new SandboxFault('the arguments are larger than 1 MiB');
  return text;
}
