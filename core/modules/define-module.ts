import type { HookRegistry } from '../hooks/registry.ts';
import type { ContributionSink, Contributions, UnitContext } from '../plugins/contributions.ts';
import type { ModuleName, ServiceMap } from './service-map.ts';

/** What a core module's `services()` is given: the unit context, the full hook registry, the services it requires. */
export interface ModuleSetupContext<R extends ModuleName> extends UnitContext {
  /** Core modules raise the core's hooks (plugins get a register-only view). */
  readonly hooks: HookRegistry;
  /** The services of the modules listed in `requires`, and only those. */
  readonly use: Pick<ServiceMap, R>;
}

/** What a core module's declarations are made from: its setup context plus its own services. */
export interface ModuleContext<S, R extends ModuleName> extends ModuleSetupContext<R> {
  readonly self: S;
}

/**
 * A core module, declared exactly as a plugin is (the same `Contributions`, loaded through the same
 * sinks), plus what only the core has: services that other modules may require, sinks that take
 * what units declare (roles, screens, gateways), and start/stop steps. The kernel builds modules in
 * the order of `requires`, then loads their declarations, then the active plugins'.
 *
 *   export const documentsModule = defineModule({
 *     name: 'documents',
 *     requires: ['pdf'],
 *     migrations: DOCUMENT_MIGRATIONS,
 *     services: (ctx) => { const invoices = new InvoiceService(ctx); … return { invoices, quotes, clients }; },
 *     rest: (ctx) => documentRoutes(ctx),
 *   });
 */
export interface ModuleDefinition<R extends ModuleName, S> extends Contributions<ModuleContext<S, R>> {
  name: ModuleName;
  requires?: readonly R[];
  /** Builds the module's services (synchronously: no I/O here; use `init`). */
  services?(ctx: ModuleSetupContext<R>): S;
  /** Sinks this module provides for every unit's declarations (built after the services). */
  sinks?(ctx: ModuleContext<S, R>): ContributionSink[];
  /** Runs once after every module's services exist, before anything is served. */
  init?(ctx: ModuleContext<S, R>): Promise<void>;
  /** Runs at shutdown, in reverse order of the modules, after HTTP and jobs have stopped. */
  stop?(ctx: ModuleContext<S, R>): Promise<void>;
}

/** Any module, whatever its requirements and services (the kernel's list). */
export type AnyModule = ModuleDefinition<any, any>;

export function defineModule<const R extends ModuleName = never, S = void>(def: ModuleDefinition<R, S>): ModuleDefinition<R, S> {
  return Object.freeze(def);
}
