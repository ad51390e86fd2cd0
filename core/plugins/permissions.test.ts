import { describe, expect, it } from '@jest/globals';
import { hostAllowed, parsePermissions, tablesNamed } from './permissions.ts';

describe('permissions', () => {
  it('read the tables a migration names, constraints and indexes included', () => {
    const sql = `
      create table stamp_visits (id bigserial primary key, invoice_id bigint references billing_documents (id) on delete cascade);
      create index stamp_visits_at on stamp_visits (id);
      alter table stamp_visits rename to stamp_marks;
      insert into stamp_marks (id) select id from billing_users;`;
    expect(tablesNamed(sql).sort()).toEqual(['billing_documents', 'billing_users', 'stamp_marks', 'stamp_visits']);
  });

  it('name every statement that could do more than change tables, so it is refused', () => {
    expect(tablesNamed("select pg_read_file('/etc/passwd')")).toContain('pg_read_file');
    expect(tablesNamed('create function stamp_f() returns int as $$ select 1 $$ language sql')).toEqual(
      expect.arrayContaining(['function', 'language']),
    );
    expect(tablesNamed("copy stamp_visits to program 'sh'")).toContain('copy');
    expect(tablesNamed('grant all on stamp_visits to public')).toContain('grant');
    expect(tablesNamed('do $$ begin perform 1; end $$')).toContain('do');
  });

  it('want tables named after the plugin, and read only what the service lends', () => {
    expect(parsePermissions('stamp', { tables: ['stamp_visits'], read: ['invoices'] })).toMatchObject({
      tables: ['stamp_visits'],
      hooks: [],
    });
    expect(() => parsePermissions('stamp', { tables: ['billing_users'] })).toThrow(/must be named stamp_/);
    expect(() => parsePermissions('stamp', { read: ['users'] })).toThrow(/permissions is invalid/);
    expect(() => parsePermissions('stamp', { everything: true })).toThrow(/permissions is invalid/);
  });

  it('match hosts exactly or by a wildcard below a domain', () => {
    const perms = parsePermissions('stamp', { hosts: ['api.example.com', '*.example.org'] });
    expect(
      ['api.example.com', 'API.example.com', 'a.example.org', 'example.org', 'evil-example.com', 'x.api.example.com'].map((h) =>
        hostAllowed(perms, h),
      ),
    ).toEqual([true, true, true, false, false, false]);
  });
});
