import { describe, expect, it } from '@jest/globals';
import { BILL_CAPABILITIES } from './capabilities.ts';
import { RoleRegistry } from './role-registry.ts';

const caps = (r: RoleRegistry, role: string) => Object.keys(r.capabilitiesOf(role)).sort();

describe('roles', () => {
  it('ship WordPress roles and the billing roles of docs/identity.md', () => {
    const r = new RoleRegistry();
    expect(caps(r, 'administrator')).toEqual(
      expect.arrayContaining([...BILL_CAPABILITIES, 'manage_options', 'edit_posts', 'read', 'list_users']),
    );
    expect(caps(r, 'editor')).toEqual(['edit_posts', 'read']);
    expect(caps(r, 'subscriber')).toEqual(['read']);
    expect(caps(r, 'billing_client')).toEqual(['read']);
    expect(caps(r, 'billing_viewer')).toEqual([
      'bill_view_audit_log',
      'bill_view_clients',
      'bill_view_invoices',
      'bill_view_payments',
      'bill_view_quotes',
      'bill_view_reports',
      'read',
    ]);
    expect(caps(r, 'nobody_knows')).toEqual([]);
  });

  it("take plugins' capabilities, roles and grants, and give them back", () => {
    const r = new RoleRegistry();
    r.add('team', {
      capabilities: ['team_manage'],
      roles: [{ name: 'accountant', label: 'Accountant', capabilities: ['read', 'bill_view_invoices'] }],
      grants: { editor: ['bill_view_invoices'] },
    });
    expect(r.capabilitiesOf('administrator').team_manage).toBe(true);
    expect(caps(r, 'accountant')).toEqual(['bill_view_invoices', 'read']);
    expect(caps(r, 'editor')).toEqual(['bill_view_invoices', 'edit_posts', 'read']);
    r.removeOwner('team');
    expect(r.capabilitiesOf('administrator').team_manage).toBeUndefined();
    expect(r.has('accountant')).toBe(false);
    expect(caps(r, 'editor')).toEqual(['edit_posts', 'read']);
  });

  it('refuse clashes whole', () => {
    const r = new RoleRegistry();
    expect(() => r.add('p', { capabilities: ['fresh_cap', 'bill_view_invoices'] })).toThrow(/already declared by core/);
    expect(() => r.add('p', { roles: [{ name: 'editor', label: 'E', capabilities: [] }] })).toThrow(/already declared/);
    expect(() => r.add('p', { capabilities: ['Bad Cap'] })).toThrow(/snake_case/);
    expect(r.allCapabilities()).not.toContain('fresh_cap');
  });
});
