import { AsyncSeriesHook, AsyncSeriesWaterfallHook } from 'tapable';
import type { Logger } from '../log.ts';
import { CORE_ACTIONS, CORE_FILTERS, type ActionMap, type FilterMap } from './hook-map.ts';

export type ActionListener<K extends keyof ActionMap> = (...args: ActionMap[K]) => unknown;
export type FilterListener<K extends keyof FilterMap> =
  (...args: FilterMap[K]) => FilterMap[K][0] | Promise<FilterMap[K][0]>;

type Kind = 'action' | 'filter';
type AnyFn = (...args: any[]) => any;

interface Listener {
  fn: AnyFn;
  priority: number;
  owner: string;
}

interface HookSlot {
  kind: Kind;
  owner: string;
  listeners: Listener[];
  /** Built from `listeners` on first call after a change; tapable compiles its call path once. */
  tapable: AsyncSeriesHook<unknown[]> | AsyncSeriesWaterfallHook<unknown[]> | null;
}

/** WordPress's default priority; tapable's stage is `priority - 10`, so both sort lower first. */
export const DEFAULT_PRIORITY = 10;
const ARGS = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5'] as const;

/**
 * The typed hook registry: WordPress's action/filter API over tapable (contract §2).
 *
 * Listeners are wrapped so that one that throws is logged with its owner's name and the chain goes on
 * (an action listener cannot undo committed work; a failing filter leaves the value as it was).
 * tapable cannot untap, so removal rebuilds the hook from the remaining listeners; removal is rare
 * (deactivating a plugin) and calls are frequent, so calls pay nothing for it.
 */
export class HookRegistry {
  private readonly slots = new Map<string, HookSlot>();
  private readonly fired = new Map<string, number>();
  private readonly log: Logger;

  constructor(log: Logger) {
    this.log = log;
    for (const name of CORE_ACTIONS) this.declare('action', name, 'core');
    for (const name of CORE_FILTERS) this.declare('filter', name, 'core');
  }

  /** Makes a hook exist. Core hooks exist from the start; a plugin declares its own on activation. */
  declare(kind: Kind, name: string, owner: string): void {
    const slot = this.slots.get(name);
    if (slot) {
      if (slot.kind !== kind || slot.owner !== owner) {
        throw new Error(`hook ${name} is already declared as a ${slot.kind} by ${slot.owner}`);
      }
      return;
    }
    this.slots.set(name, { kind, owner, listeners: [], tapable: null });
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

  removeAction<K extends keyof ActionMap>(name: K, fn: ActionListener<K>, priority = DEFAULT_PRIORITY): boolean {
    return this.remove(name, (l) => l.fn === fn && l.priority === priority);
  }

  removeFilter<K extends keyof FilterMap>(name: K, fn: FilterListener<K>, priority = DEFAULT_PRIORITY): boolean {
    return this.remove(name, (l) => l.fn === fn && l.priority === priority);
  }

  /** Removes every listener a plugin added, on every hook. */
  removeOwner(owner: string): void {
    for (const name of this.slots.keys()) this.remove(name, (l) => l.owner === owner);
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
    if (slot.kind !== kind) throw new Error(`${name} is a ${slot.kind}, not a ${kind}`);
    return slot;
  }

  private compiled(name: string, slot: HookSlot) {
    if (slot.tapable) return slot.tapable;
    const hook = slot.kind === 'action'
      ? new AsyncSeriesHook<unknown[]>([...ARGS], name)
      : new AsyncSeriesWaterfallHook<unknown[]>([...ARGS], name);
    for (const l of slot.listeners) {
      hook.tapPromise({ name: l.owner, stage: l.priority - DEFAULT_PRIORITY }, this.guard(name, slot.kind, l));
    }
    slot.tapable = hook;
    return hook;
  }

  private guard(name: string, kind: Kind, l: Listener) {
    return async (...args: unknown[]) => {
      try {
        const out = await l.fn(...args);
        return kind === 'filter' ? out : undefined;
      } catch (err) {
        this.log.error({ err, hook: name, plugin: l.owner }, `listener of ${name} from ${l.owner} failed`);
        return kind === 'filter' ? args[0] : undefined;
      }
    };
  }
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
    doAction: (name, ...args) => { ownHook(name); return registry.doAction(name, ...args); },
    applyFilters: (name, ...args) => { ownHook(name); return registry.applyFilters(name, ...args); },
  };
}
