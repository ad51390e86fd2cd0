import { describe, expect, it } from '@jest/globals';
import { checkObjectKind } from './object-kind.ts';
import { LIST_FILTER, pathParams, undeclaredObjectParams, valueAt } from './object-params.ts';

describe('which parameters name an object', () => {
  it('every path parameter, and every other one called id or *_id, must be declared', () => {
    expect(pathParams('/invoices/(?P<id>[\\d]+)/payments/(?P<payment>[\\d]+)')).toEqual(['id', 'payment']);
    const route = { named: ['role'], other: ['role', 'capabilities', 'client_id', 'identity', 'paid', 'id'] };
    expect(undeclaredObjectParams(route)).toEqual(['role', 'client_id', 'id']);
    expect(
      undeclaredObjectParams({
        ...route,
        object: [
          { param: 'id', kind: 'invoice' },
          { param: 'client_id', kind: 'client' },
        ],
        unscoped: { role: "a role's name" },
      }),
    ).toEqual([]);
    // a reference inside a body does not declare the top-level parameter of the same name
    expect(undeclaredObjectParams({ named: [], other: ['client_id'], object: { param: 'template.client_id', kind: 'client' } })).toEqual([
      'client_id',
    ]);
    expect(undeclaredObjectParams({ named: [], other: ['recurring_id'], unscoped: { recurring_id: LIST_FILTER } })).toEqual([]);
  });
});

describe('the value at a parameter', () => {
  it('reaches into objects and JSON text; anything unreadable names nothing', () => {
    expect(valueAt({ id: '7' }, 'id')).toBe('7');
    expect(valueAt({ template: { client_id: 3 } }, 'template.client_id')).toBe(3);
    expect(valueAt({ invoice: '{"client_id":"12","items":[]}' }, 'invoice.client_id')).toBe('12');
    expect(valueAt({ invoice: '{not json' }, 'invoice.client_id')).toBeUndefined();
    expect(valueAt({ invoice: '[1,2]' }, 'invoice.client_id')).toBeUndefined();
    expect(valueAt({}, 'template.client_id')).toBeUndefined();
    // the top level is a parameter as sent: text there is a value, not JSON to read
    expect(valueAt({ id: '{"a":1}' }, 'id')).toBe('{"a":1}');
  });
});

describe('an object kind declaration', () => {
  it('takes names only, and exactly one of an owner column and a kind it lies through', () => {
    const ok = { kind: 'recurring', noun: 'recurring profile', table: 'recurring_profiles', owner: 'created_by' };
    expect(() => checkObjectKind('p', ok)).not.toThrow();
    expect(() => checkObjectKind('p', { ...ok, owner: 'created_by; drop table x' })).toThrow(/not a snake_case/);
    expect(() => checkObjectKind('p', { ...ok, where: { "kind = 'x' or 1": 'a' } })).toThrow(/not a snake_case/);
    expect(() => checkObjectKind('p', { ...ok, through: { kind: 'invoice', column: 'invoice_id' } })).toThrow(/either/);
    expect(() => checkObjectKind('p', { ...ok, owner: undefined })).toThrow(/either/);
    expect(() => checkObjectKind('p', { ...ok, kind: 'Recurring' })).toThrow(/snake_case name/);
  });
});
