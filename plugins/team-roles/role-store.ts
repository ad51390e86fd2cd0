import { audit, BillingError, type Actor, type PluginContext, type Tx } from '../../core/plugin-api.ts';
import { ADMINISTRATOR, applyEdits, editsFor, type Edits } from './roles.ts';

export interface RoleView {
  role: string;
  name: string;
  capabilities: string[];
}

/**
 * The edits of roles' billing capabilities, kept in the database so that every instance applies the
 * same ones at its next request (roles themselves are code; only the differences are data).
 */
export class RoleStore {
  private readonly ctx: PluginContext;

  constructor(ctx: PluginContext) {
    this.ctx = ctx;
  }

  /** The edits of these roles (one query: it runs on every capability check of an edited user). */
  async edits(roles: readonly string[], tx?: Tx): Promise<Map<string, Edits>> {
    const rows = await (tx ?? this.ctx.db).query<{ role: string; capability: string; granted: boolean }>(
      'select role, capability, granted from team_roles_caps where role = any($1::text[])',
      [roles],
    );
    const out = new Map<string, Edits>();
    for (const r of rows) {
      if (!out.has(r.role)) out.set(r.role, new Map());
      out.get(r.role)!.set(r.capability, r.granted);
    }
    return out;
  }

  async list(): Promise<RoleView[]> {
    const roles = this.ctx.api.roles.list();
    const edits = await this.edits(roles.map((r) => r.name));
    return roles.map((r) => this.view(r.name, r.label, edits.get(r.name)));
  }

  async get(role: string, tx?: Tx): Promise<RoleView> {
    const info = this.ctx.api.roles.list().find((r) => r.name === role);
    if (!info) throw new BillingError('billing_rest_not_found', `No role is named "${role}".`);
    return this.view(role, info.label, (await this.edits([role], tx)).get(role));
  }

  private view(role: string, label: string, edits: Edits | undefined): RoleView {
    const declared = this.ctx.api.roles.capabilitiesOf(role);
    const caps = role === ADMINISTRATOR ? { ...declared } : applyEdits(declared, edits);
    return { role, name: label, capabilities: Object.keys(caps).sort() };
  }

  /** The billing capabilities that exist now (the core's and every loaded plugin's `bill_*`). */
  billingCapabilities(): string[] {
    return this.ctx.api.roles.allCapabilities().filter((c) => c.startsWith('bill_'));
  }

  /**
   * Makes `role` hold exactly the billing capabilities in `wanted` (others, such as `read`, stay as
   * declared); every capability gained or lost is one audit entry, in the same transaction.
   */
  async set(role: string, wanted: readonly string[], actor: Actor): Promise<RoleView> {
    const billing = this.billingCapabilities();
    const unknown = wanted.filter((c) => !billing.includes(c));
    if (unknown.length) {
      const message = `Not a billing capability: ${unknown.join(', ')}.`;
      throw new BillingError('rest_invalid_param', message, { params: { capabilities: message } });
    }
    const before = await this.get(role);
    const want = new Set(wanted);
    if (role === ADMINISTRATOR) {
      if (billing.some((c) => !want.has(c))) {
        throw new BillingError('billing_invalid_argument', 'The administrator keeps every capability.');
      }
      return before;
    }
    const edits = editsFor(this.ctx.api.roles.capabilitiesOf(role), want, billing);
    return this.ctx.db.transaction(async (tx) => {
      // one editor of a role at a time, so the audit entries describe the changes in the order they hold
      await tx.query(`select pg_advisory_xact_lock(hashtext('billing_team_role:' || $1))`, [role]);
      const old = new Set((await this.get(role, tx)).capabilities);
      await tx.query('delete from team_roles_caps where role = $1', [role]);
      for (const [cap, granted] of edits) {
        await tx.query('insert into team_roles_caps (role, capability, granted) values ($1, $2, $3)', [role, cap, granted]);
      }
      const after = await this.get(role, tx);
      const now = new Set(after.capabilities);
      for (const cap of billing) {
        if (old.has(cap) === now.has(cap)) continue;
        await audit(tx, actor, {
          action: now.has(cap) ? 'role.grant' : 'role.revoke',
          objectType: 'role',
          objectId: role,
          details: { capability: cap },
        });
      }
      return after;
    });
  }

  async grant(role: string, cap: string, actor: Actor): Promise<RoleView> {
    const current = await this.get(role);
    return this.set(role, [...current.capabilities.filter((c) => c.startsWith('bill_')), cap], actor);
  }

  async revoke(role: string, cap: string, actor: Actor): Promise<RoleView> {
    if (!this.billingCapabilities().includes(cap)) return this.set(role, [cap], actor); // refused as unknown
    const current = await this.get(role);
    return this.set(
      role,
      current.capabilities.filter((c) => c.startsWith('bill_') && c !== cap),
      actor,
    );
  }
}
