import { describe, expect, it, jest } from '@jest/globals';
import pino from 'pino';
import { HookRegistry, pluginHooks } from './registry.ts';

function registry() {
  const lines: any[] = [];
  const log = pino({ level: 'error' }, { write: (s: string) => lines.push(JSON.parse(s)) });
  return { hooks: new HookRegistry(log), lines };
}

describe('HookRegistry', () => {
  it('runs lower priorities first and keeps registration order on ties', async () => {
    const { hooks } = registry();
    const order: string[] = [];
    hooks.addAction('billing_plugin_activated', () => {
      order.push('p10-a');
    });
    hooks.addAction(
      'billing_plugin_activated',
      () => {
        order.push('p5');
      },
      5,
    );
    hooks.addAction('billing_plugin_activated', () => {
      order.push('p10-b');
    });
    hooks.addAction(
      'billing_plugin_activated',
      () => {
        order.push('p20');
      },
      20,
    );
    hooks.addAction(
      'billing_plugin_activated',
      () => {
        order.push('p-1');
      },
      -1,
    );
    await hooks.doAction('billing_plugin_activated', 'x');
    expect(order).toEqual(['p-1', 'p5', 'p10-a', 'p10-b', 'p20']);
  });

  it("passes each filter the previous one's value, with the extra arguments", async () => {
    const { hooks } = registry();
    hooks.addFilter('billing_model_to_array', (data, model) => ({ ...data, second: (data.first as number) + 1, model }), 11);
    hooks.addFilter('billing_model_to_array', (data) => ({ ...data, first: 1 }));
    expect(await hooks.applyFilters('billing_model_to_array', { start: true }, 'm')).toEqual({
      start: true,
      first: 1,
      second: 2,
      model: 'm',
    });
  });

  it('returns the value unchanged when nothing listens', async () => {
    const { hooks } = registry();
    const value = { a: 1 };
    expect(await hooks.applyFilters('billing_model_to_array', value, null)).toBe(value);
  });

  it('removes a listener by function and priority, and through the returned handle', async () => {
    const { hooks } = registry();
    const calls: string[] = [];
    const a = () => {
      calls.push('a');
    };
    const b = () => {
      calls.push('b');
    };
    hooks.addAction('billing_plugin_activated', a, 7);
    const offB = hooks.addAction('billing_plugin_activated', b);
    expect(hooks.removeAction('billing_plugin_activated', a, 10)).toBe(false); // wrong priority
    expect(hooks.hasAction('billing_plugin_activated', a)).toBe(7);
    expect(hooks.removeAction('billing_plugin_activated', a, 7)).toBe(true);
    await hooks.doAction('billing_plugin_activated', 'x');
    expect(offB()).toBe(true);
    await hooks.doAction('billing_plugin_activated', 'x');
    expect(calls).toEqual(['b']);
    expect(hooks.hasAction('billing_plugin_activated')).toBe(false);
    expect(hooks.didAction('billing_plugin_activated')).toBe(2);
  });

  it('logs a throwing action listener with its owner and goes on with the others; a failing filter fails the call', async () => {
    const { hooks, lines } = registry();
    const after = jest.fn();
    hooks.addAction(
      'billing_plugin_activated',
      () => {
        throw new Error('boom');
      },
      10,
      'bad-plugin',
    );
    hooks.addAction('billing_plugin_activated', after, 11);
    hooks.addFilter(
      'billing_model_to_array',
      () => {
        throw new Error('bad filter');
      },
      10,
      'bad-plugin',
    );
    await expect(hooks.doAction('billing_plugin_activated', 'x')).resolves.toBeUndefined();
    expect(after).toHaveBeenCalledWith('x');
    // every core filter fails closed: the value a broken listener may have been changing is not passed on
    await expect(hooks.applyFilters('billing_model_to_array', { kept: 1 }, null)).rejects.toMatchObject({
      code: 'billing_hook_failed',
      status: 500,
    });
    expect(lines.map((l) => [l.plugin, l.hook])).toEqual([
      ['bad-plugin', 'billing_plugin_activated'],
      ['bad-plugin', 'billing_model_to_array'],
    ]);
  });

  it('refuses hooks nobody declared, and kinds mixed up', () => {
    const { hooks } = registry();
    expect(() => hooks.addAction('billing_invoice_craeted' as any, () => {})).toThrow(/unknown hook/);
    expect(() => hooks.addAction('billing_rest_invoice' as any, () => {})).toThrow(/is a filter/);
  });

  it('lets a plugin raise only the hooks it declared, and forgets them when it goes', async () => {
    const { hooks } = registry();
    hooks.declare('action', 'mine_happened', 'mine');
    const view = pluginHooks(hooks, 'mine');
    const heard = jest.fn();
    view.addAction('mine_happened' as any, heard);
    await view.doAction('mine_happened' as any, 1 as any);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(() => view.doAction('billing_plugin_activated', 'x')).toThrow(/only raise hooks it declared/);
    hooks.removeOwner('mine');
    hooks.undeclare('mine');
    expect(hooks.isDeclared('mine_happened')).toBe(false);
  });

  it("passes a plugin filter's value on when it declared its filter as isolating, and fails the call by default", async () => {
    const { hooks } = registry();
    hooks.declare('filter', { name: 'soft_value', onError: 'isolate' }, 'mine');
    hooks.declare('filter', 'hard_value', 'mine');
    for (const name of ['soft_value', 'hard_value']) {
      hooks.addFilter(name as any, () => {
        throw new Error('broken');
      });
    }
    expect(await hooks.applyFilters('soft_value' as any, 41)).toBe(41);
    await expect(hooks.applyFilters('hard_value' as any, 41)).rejects.toMatchObject({ code: 'billing_hook_failed' });
  });

  it('fires an action in a transaction: durable payloads go to the outbox in it, listeners run after commit', async () => {
    const { hooks } = registry();
    const written: Array<[string, unknown]> = [];
    hooks.useDurableWriter({
      enqueueMany: async (_tx, items) => void written.push(...items.map((i): [string, unknown] => [i.topic, i.payload])),
    });
    hooks.addDurable('billing_plugin_activated', 'notes.plugin', (name: string) => ({ name }), 'mine');
    hooks.addDurable('billing_plugin_activated', 'notes.skipped', () => null, 'mine');
    const heard = jest.fn();
    hooks.addAction('billing_plugin_activated', heard);
    const committed: Array<() => unknown> = [];
    const tx = { afterCommit: (fn: () => unknown) => void committed.push(fn) } as any;
    await hooks.fire(tx, 'billing_plugin_activated', 'x');
    expect(written).toEqual([['notes.plugin', { name: 'x' }]]);
    expect(heard).not.toHaveBeenCalled();
    for (const fn of committed) await fn();
    expect(heard).toHaveBeenCalledWith('x');
    hooks.removeOwner('mine');
    written.length = 0;
    await hooks.fire(tx, 'billing_plugin_activated', 'y');
    expect(written).toEqual([]);
  });
});
