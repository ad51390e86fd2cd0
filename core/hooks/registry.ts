import { AsyncSeriesHook, AsyncSeriesWaterfallHook } from 'tapable';
import type { Tx } from '../db/types.ts';
import { BillingError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { CORE_HOOKS, type ActionMap, type FilterMap, type HookDeclaration, type HookPolicy, type HookSpec } from './hook-map.ts';

export type ActionListener<K extends keyof ActionMap> = (...args: ActionMap[K]) => unknown;
export type FilterListener<K extends keyof FilterMap> = (...args: FilterMap[K]) => FilterMap[K][0] | Promise<FilterMap[K][0]>;

/** A durable listener's payload: the JSON its queue needs, made from the action's arguments (null: nothing to do). */
export type DurablePayload = (...args: any[]) => Record<string, unknown> | null;

/** Where durable listeners' payloads go: the outbox, in the firing transaction (see core/outbox). */
export interface DurableWriter {
  enqueueMany(tx: Tx, items: ReadonlyArray<{ topic: string; payload: Record<string, unknown> }>): Promise<unknown>;
}

type Kind = 'action' | 'filter';
type AnyFn = (...args: any[]) => any;

interface Listener {
  fn: AnyFn;
  priority: number;
  owner: string;
}

interface Durable {
  topic: string;
  payload: DurablePayload;
  owner: string;
}

interface HookSlot {
  spec: HookSpec;
  owner: string;
  listeners: Listener[];
  durable: Durable[];
  /** Built from `listeners` on first call after a change; tapable compiles its call path once. */
  tapable: AsyncSeriesHook<unknown[]> | AsyncSeriesWaterfallHook<unknown[]> | null;
}

/** WordPress's default priority; tapable's stage is `priority - 10`, so both sort lower first. */
export const DEFAULT_PRIORITY = 10;
/** Arity of a plugin's hook declared by name only. */
const DEFAULT_ARGS = ['a0', 'a1', 'a2', 'a3'];

/** A listener of an `abort` hook threw: the call fails (docs/plugins.md, "When a listener fails"). */
export function hookFailed(name: string, owner: string): BillingError {
  return new BillingError('billing_hook_failed', `A listener of ${name} (${owner}) failed; nothing was done.`, { hook: name });
}

/**
 * The typed hook registry: WordPress's action/filter API over tapable (docs/plugins.md).
 *
 * Each hook has a declared arity and error policy (hook-map.ts): a throwing listener of an `isolate`
 * hook is logged with its owner and the chain goes on; one of an `abort` hook is logged and the call
 * fails with `billing_hook_failed`. tapable cannot untap, so removal rebuilds the hook from the
 * remaining listeners; removal is rare (deactivating a plugin) and calls are frequent.
 *
 * Actions about a database change are raised with `fire(tx, …)`: durable listeners' payloads are
 * written to the outbox inside the transaction, and the in-process listeners run after it commits.
 */
export class HookRegistry {
  private readonly slots = new Map<string, HookSlot>();
  private readonly fired = new Map<string, number>();
  private readonly log: Logger;
  private writer: DurableWriter | null = null;

  constructor(log: Logger) {
    this.log = log;
    for (const [name, spec] of Object.entries(CORE_HOOKS)) this.slots.set(name, emptySlot(spec, 'core'));
  }

  /** Gives durable listeners their outbox (the kernel does, at boot). */
  useDurableWriter(writer: DurableWriter): void {
    this.writer = writer;
  }

  /** Makes a plugin's hook exist (core hooks exist from the start). */
  declare(kind: Kind, declaration: HookDeclaration, owner: string): void {
    const d = typeof declaration === 'string' ? { name: declaration } : declaration;
    const spec: HookSpec = { kind, args: d.args ?? DEFAULT_ARGS, onError: d.onError ?? (kind === 'action' ? 'isolate' : 'abort') };
    const slot = this.slots.get(d.name);
    if (slot) {
      if (slot.spec.kind !== kind || slot.owner !== owner) {
        throw new Error(`hook ${d.name} is already declared as a ${slot.spec.kind} by ${slot.owner}`);
      }
      return;
    }
    this.slots.set(d.name, emptySlot(spec, owner));
  }

  /** Forgets the hooks a plugin declared (with every listener on them). */
  undeclare(owner: string): void {
    for (const [name, slot] of this.slots) if (slot.owner === owner && owner !== 'core') this.slots.delete(name);
  }

  addAction<K extends keyof ActionMap>(name: K, fn: ActionListener<K>, priority = DEFAULT_PRIORITY, owner = 'core'): () => boolean {
    return this.add('action', name, fn as AnyFn, priority, owner);
  }

  addFilter<K extends keyof FilterMap>(name: K, fn: FilterListener<K>, priority = DEFAULT_PRIORITY, owner = 'core'): () => boolean {
    return this.add('filter', name, fn as AnyFn, priority, owner);
  }

  /** A durable listener (see `durable()` in core/plugins/contributions.ts). */
  addDurable(name: keyof ActionMap | string, topic: string, payload: DurablePayload, owner: string): void {
    this.slot(name, 'action').durable.push({ topic, payload, owner });
  }

  removeAction<K extends keyof ActionMap>(name: K, fn: ActionListener<K>, priority = DEFAULT_PRIORITY): boolean {
    return this.remove(name, (l) => l.fn === fn && l.priority === priority);
  }

  removeFilter<K extends keyof FilterMap>(name: K, fn: FilterListener<K>, priority = DEFAULT_PRIORITY): boolean {
    return this.remove(name, (l) => l.fn === fn && l.priority === priority);
  }

  /** Removes every listener a plugin added, on every hook. */
  removeOwner(owner: string): void {
    for (const [name, slot] of this.slots) {
      this.remove(name, (l) => l.owner === owner);
      slot.durable = slot.durable.filter((d) => d.owner !== owner);
    }
  }

  /** Like WordPress: without `fn`, whether anything listens; with it, its priority or false. */
  hasAction(name: keyof ActionMap, fn?: AnyFn): boolean | number {
    return this.has(name, fn);
  }

  hasFilter(name: keyof FilterMap, fn?: AnyFn): boolean | number {
    return this.has(name, fn);
  }

  /** How many times the action has fired in this process. */
  didAction(name: keyof ActionMap): number {
    return this.fired.get(name) ?? 0;
  }

  isDeclared(name: string): boolean {
    return this.slots.has(name);
  }

  ownerOf(name: string): string | undefined {
    return this.slots.get(name)?.owner;
  }

  spec(name: string): HookSpec | undefined {
    return this.slots.get(name)?.spec;
  }

  /**
   * Raises an action about the change `tx` is making: durable listeners' payloads are written to the
   * outbox in `tx` (so they commit or vanish with the change), in-process listeners run after commit.
   */
  async fire<K extends keyof ActionMap>(tx: Tx, name: K, ...args: ActionMap[K]): Promise<void> {
    const slot = this.slot(name, 'action');
    const entries: Array<{ topic: string; payload: Record<string, unknown> }> = [];
    for (const d of slot.durable) {
      const payload = d.payload(...args);
      if (!payload) continue;
      if (!this.writer) throw new Error(`durable listener of ${name} (${d.owner}) has no outbox`);
      entries.push({ topic: d.topic, payload });
    }
    // every durable listener's item in one statement: this runs while the change's locks are held
    if (entries.length) await this.writer!.enqueueMany(tx, entries);
    tx.afterCommit(() => this.doAction(name, ...args));
  }

  /** Runs an action's in-process listeners now (after commit: see `fire`). Never throws for a listener. */
  async doAction<K extends keyof ActionMap>(name: K, ...args: ActionMap[K]): Promise<void> {
    const slot = this.slot(name, 'action');
    this.fired.set(name, (this.fired.get(name) ?? 0) + 1);
    if (slot.listeners.length === 0) return;
    await (this.compiled(name, slot) as AsyncSeriesHook<unknown[]>).promise(...args);
  }

  async applyFilters<K extends keyof FilterMap>(name: K, ...args: FilterMap[K]): Promise<FilterMap[K][0]> {
    const slot = this.slot(name, 'filter');
    if (slot.listeners.length === 0) return args[0];
    return (this.compiled(name, slot) as AsyncSeriesWaterfallHook<unknown[]>).promise(...args) as Promise<FilterMap[K][0]>;
  }

  private add(kind: Kind, name: string, fn: AnyFn, priority: number, owner: string): () => boolean {
    if (!Number.isInteger(priority)) throw new Error(`priority of ${name} must be an integer`);
    const slot = this.slot(name, kind);
    const listener = { fn, priority, owner };
    slot.listeners.push(listener);
    slot.tapable = null;
    return () => this.remove(name, (l) => l === listener);
  }

  private remove(name: string, match: (l: Listener) => boolean): boolean {
    const slot = this.slots.get(name);
    if (!slot) return false;
    const kept = slot.listeners.filter((l) => !match(l));
    if (kept.length === slot.listeners.length) return false;
    slot.listeners = kept;
    slot.tapable = null;
    return true;
  }

  private has(name: string, fn?: AnyFn): boolean | number {
    const listeners = this.slots.get(name)?.listeners ?? [];
    if (!fn) return listeners.length > 0;
    return listeners.find((l) => l.fn === fn)?.priority ?? false;
  }

  private slot(name: string, kind: Kind): HookSlot {
    const slot = this.slots.get(name);
    if (!slot) throw new Error(`unknown hook ${name}: hooks must be declared before use`);
    if (slot.spec.kind !== kind) throw new Error(`${name} is a ${slot.spec.kind}, not a ${kind}`);
    return slot;
  }

  private compiled(name: string, slot: HookSlot) {
    if (slot.tapable) return slot.tapable;
    // tapable types its argument names as a non-empty tuple; the spec's list is that, as data
    const args = [...slot.spec.args] as unknown as [string];
    const hook =
      slot.spec.kind === 'action' ? new AsyncSeriesHook<unknown[]>(args, name) : new AsyncSeriesWaterfallHook<unknown[]>(args, name);
    for (const l of slot.listeners) {
      hook.tapPromise({ name: l.owner, stage: l.priority - DEFAULT_PRIORITY }, this.guard(name, slot.spec, l));
    }
    slot.tapable = hook;
    return hook;
  }

  private guard(name: string, spec: HookSpec, l: Listener) {
    const policy: HookPolicy = spec.onError;
    return async (...args: unknown[]) => {
      try {
        const out = await l.fn(...args);
        return spec.kind === 'filter' ? out : undefined;
      } catch (err) {
        this.log.error({ err, hook: name, plugin: l.owner, policy }, `listener of ${name} from ${l.owner} failed`);
        if (policy === 'abort') throw hookFailed(name, l.owner);
        return spec.kind === 'filter' ? args[0] : undefined;
      }
    };
  }
}

function emptySlot(spec: HookSpec, owner: string): HookSlot {
  return { spec, owner, listeners: [], durable: [], tapable: null };
}

/** What a plugin gets: it may tap any hook, but raise only the hooks it declared itself. */
export interface PluginHooks {
  addAction<K extends keyof ActionMap>(name: K, fn: ActionListener<K>, priority?: number): () => boolean;
  addFilter<K extends keyof FilterMap>(name: K, fn: FilterListener<K>, priority?: number): () => boolean;
  removeAction<K extends keyof ActionMap>(name: K, fn: ActionListener<K>, priority?: number): boolean;
  removeFilter<K extends keyof FilterMap>(name: K, fn: FilterListener<K>, priority?: number): boolean;
  hasAction(name: keyof ActionMap, fn?: AnyFn): boolean | number;
  hasFilter(name: keyof FilterMap, fn?: AnyFn): boolean | number;
  didAction(name: keyof ActionMap): number;
  doAction<K extends keyof ActionMap>(name: K, ...args: ActionMap[K]): Promise<void>;
  /** Raises the plugin's own action about the change `tx` makes (durable listeners included). */
  fire<K extends keyof ActionMap>(tx: Tx, name: K, ...args: ActionMap[K]): Promise<void>;
  applyFilters<K extends keyof FilterMap>(name: K, ...args: FilterMap[K]): Promise<FilterMap[K][0]>;
}

export function pluginHooks(registry: HookRegistry, owner: string): PluginHooks {
  const ownHook = (name: string) => {
    if (registry.ownerOf(name) !== owner) throw new Error(`${owner} may only raise hooks it declared, not ${name}`);
  };
  return {
    addAction: (name, fn, priority) => registry.addAction(name, fn, priority, owner),
    addFilter: (name, fn, priority) => registry.addFilter(name, fn, priority, owner),
    removeAction: (name, fn, priority) => registry.removeAction(name, fn, priority),
    removeFilter: (name, fn, priority) => registry.removeFilter(name, fn, priority),
    hasAction: (name, fn) => registry.hasAction(name, fn),
    hasFilter: (name, fn) => registry.hasFilter(name, fn),
    didAction: (name) => registry.didAction(name),
    doAction: (name, ...args) => {
      ownHook(name);
      return registry.doAction(name, ...args);
    },
    fire: (tx, name, ...args) => {
      ownHook(name);
      return registry.fire(tx, name, ...args);
    },
    applyFilters: (name, ...args) => {
      ownHook(name);
      return registry.applyFilters(name, ...args);
    },
  };
}
