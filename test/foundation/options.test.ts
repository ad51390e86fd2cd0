import { beforeAll, describe, expect, it } from '@jest/globals';
import { CLI } from '../../core/audit/audit.ts';
import type { Kernel } from '../../core/kernel.ts';
import { bootKernel, useService } from '../../testing/index.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';

const svc = useService({ serve: false, pluginDirs: [FIXTURE_PLUGINS] });
let k: Kernel;
let other: Kernel;

beforeAll(async () => {
  k = svc.kernel;
  other = await bootKernel(svc.databaseUrl, { serve: false, pluginDirs: [FIXTURE_PLUGINS] });
  svc.beforeStop(() => other.stop());
});

describe('options', () => {
  it('answer declared defaults before anything is stored', async () => {
    expect(await k.options.get('currency')).toBe('USD');
    expect(await k.options.get('payment_terms_days')).toBe(30);
    expect(await k.options.get('next_invoice_number')).toBeNull();
    expect(await k.options.getMany(['invoice_prefix', 'number_padding'])).toEqual({ invoice_prefix: 'INV', number_padding: 4 });
  });

  it('store typed values that every instance reads at once', async () => {
    await k.options.set('currency', 'EUR', CLI);
    await k.options.set('allow_partial_payments', true, CLI);
    expect(await other.options.get('currency')).toBe('EUR');
    expect(await other.options.get('allow_partial_payments')).toBe(true);
  });

  it('refuse values their schema rejects, and change nothing', async () => {
    await k.options.set('currency', 'EUR', CLI);
    await expect(k.options.set('currency', 'euro', CLI)).rejects.toMatchObject({ code: 'billing_invalid_option' });
    await expect(k.options.set('number_padding', 2.5, CLI)).rejects.toMatchObject({ code: 'billing_invalid_option' });
    await expect(k.options.set('tax_rate', '20' as never, CLI)).rejects.toMatchObject({ code: 'billing_invalid_option' });
    expect(await k.options.get('currency')).toBe('EUR');
  });

  it('refuse keys nobody declared', async () => {
    await expect(k.options.get('no_such_option' as never)).rejects.toMatchObject({ code: 'billing_unknown_option' });
    await expect(k.options.set('no_such_option' as never, 1 as never, CLI)).rejects.toMatchObject({ code: 'billing_unknown_option' });
  });

  it('go back to their default when deleted', async () => {
    await k.options.delete('currency', CLI);
    expect(await other.options.get('currency')).toBe('USD');
  });

  it('parse command-line text by their declared type', () => {
    expect(k.options.parseText('allow_partial_payments', 'false')).toBe(false);
    expect(k.options.parseText('tax_rate', '19.5')).toBe(19.5);
    expect(k.options.parseText('next_invoice_number', 'null')).toBeNull();
    expect(k.options.parseText('company_name', 'true')).toBe('true');
    expect(() => k.options.parseText('allow_partial_payments', 'yes')).toThrow(/true or false/);
    expect(() => k.options.parseText('tax_rate', '')).toThrow(/number/);
  });

  it('record every change in the audit log and fire billing_option_updated after commit', async () => {
    const heard: unknown[][] = [];
    const off = k.hooks.addAction('billing_option_updated', async (key, oldValue, newValue) => {
      // fires after commit: another connection already sees the new value
      heard.push([key, oldValue, newValue, await other.options.get('company_name')]);
    });
    await k.options.set('company_name', 'Acme Ltd', CLI);
    off();
    expect(heard).toEqual([['company_name', 'My Company', 'Acme Ltd', 'Acme Ltd']]);
    const rows = await k.db.query('select actor, action, object_id, details from billing_audit_log where object_id = $1', ['company_name']);
    expect(rows).toEqual([
      { actor: 'cli', action: 'option.set', object_id: 'company_name', details: { old: 'My Company', new: 'Acme Ltd' } },
    ]);
  });

  it('know plugin settings whether or not the plugin is active', async () => {
    expect((await k.plugins.list()).find((p) => p.name === 'hello')?.active).toBe(false);
    expect(await k.options.get('hello_greeting')).toBe('Hello');
    const listed = await k.options.list();
    expect(listed.find((o) => o.key === 'hello_greeting')).toEqual({
      key: 'hello_greeting',
      value: 'Hello',
      owner: 'hello',
      isDefault: true,
      secret: false,
    });
  });
});
