import { ADMINISTRATOR, CAPABILITY_NAME, CORE_CAPABILITIES, CORE_ROLES, type RoleDefinition } from './capabilities.ts';

/** A role as a unit declares it: name, label, capabilities. */
export type RoleDeclaration = RoleDefinition;

/** What a plugin declares about roles (the matching fields of `definePlugin`). */
export interface RoleContribution {
  capabilities?: readonly string[];
  roles?: readonly RoleDefinition[];
  /** Capabilities added to existing roles (of the core or of other plugins) while the plugin is loaded. */
  grants?: Readonly<Record<string, readonly string[]>>;
}

export interface RoleInfo {
  name: string;
  label: string;
  owner: string;
  capabilities: string[];
}

/**
 * Roles and capabilities in this process: the core's, plus those of the loaded plugins. Plugins are
 * loaded on every instance alike (the plugin manager syncs them), so every instance sees the same
 * table; roles are code, not data, and only the role a user holds is stored.
 *
 * The administrator holds every capability that exists, so a plugin's new capability is the
 * administrator's as soon as the plugin loads.
 */
export class RoleRegistry {
  private readonly roles = new Map<string, { owner: string; label: string; capabilities: readonly string[] }>();
  private readonly capabilities = new Map<string, string>();
  private readonly grants: Array<{ owner: string; role: string; capabilities: readonly string[] }> = [];
  private cache = new Map<string, Readonly<Record<string, boolean>>>();

  constructor() {
    for (const c of CORE_CAPABILITIES) this.capabilities.set(c, 'core');
    for (const r of CORE_ROLES) this.roles.set(r.name, { owner: 'core', label: r.label, capabilities: r.capabilities });
  }

  /** Adds what a plugin declares; all or nothing (a clash leaves the registry as it was). */
  add(owner: string, c: RoleContribution): void {
    const newCaps = c.capabilities ?? [];
    const newRoles = c.roles ?? [];
    for (const cap of [...newCaps, ...newRoles.flatMap((r) => r.capabilities), ...Object.values(c.grants ?? {}).flat()]) {
      if (!CAPABILITY_NAME.test(cap)) throw new Error(`capability "${cap}" of ${owner} is not a snake_case name`);
    }
    for (const cap of newCaps) {
      const prior = this.capabilities.get(cap);
      if (prior) throw new Error(`capability ${cap} of ${owner} is already declared by ${prior}`);
    }
    for (const r of newRoles) {
      if (!CAPABILITY_NAME.test(r.name)) throw new Error(`role "${r.name}" of ${owner} is not a snake_case name`);
      const prior = this.roles.get(r.name);
      if (prior) throw new Error(`role ${r.name} of ${owner} is already declared by ${prior.owner}`);
    }
    if (new Set(newRoles.map((r) => r.name)).size !== newRoles.length) throw new Error(`roles of ${owner} repeat`);
    for (const cap of newCaps) this.capabilities.set(cap, owner);
    for (const r of newRoles) this.roles.set(r.name, { owner, label: r.label, capabilities: [...r.capabilities] });
    for (const [role, caps] of Object.entries(c.grants ?? {})) this.grants.push({ owner, role, capabilities: [...caps] });
    this.cache = new Map();
  }

  removeOwner(owner: string): void {
    if (owner === 'core') return;
    for (const [k, v] of this.capabilities) if (v === owner) this.capabilities.delete(k);
    for (const [k, v] of this.roles) if (v.owner === owner) this.roles.delete(k);
    for (let i = this.grants.length - 1; i >= 0; i--) if (this.grants[i]!.owner === owner) this.grants.splice(i, 1);
    this.cache = new Map();
  }

  has(role: string): boolean {
    return this.roles.has(role);
  }

  /** Every capability that exists now (the core's and the loaded plugins'). */
  allCapabilities(): string[] {
    return [...this.capabilities.keys()];
  }

  list(): RoleInfo[] {
    return [...this.roles].map(([name, r]) => ({
      name,
      label: r.label,
      owner: r.owner,
      capabilities: Object.keys(this.capabilitiesOf(name)),
    }));
  }

  /**
   * WordPress's `allcaps` for one role: `{cap: true}` for each capability it holds. An unknown role (a
   * plugin's, while that plugin is inactive) holds nothing. The answer is shared: copy before changing.
   */
  capabilitiesOf(role: string): Readonly<Record<string, boolean>> {
    let caps = this.cache.get(role);
    if (caps) return caps;
    const r = this.roles.get(role);
    const out: Record<string, boolean> = {};
    if (r) {
      const granted =
        role === ADMINISTRATOR
          ? [
              ...this.capabilities.keys(),
              ...[...this.roles.values()].flatMap((x) => x.capabilities),
              ...this.grants.flatMap((g) => g.capabilities),
            ]
          : [...r.capabilities, ...this.grants.filter((g) => g.role === role).flatMap((g) => g.capabilities)];
      for (const c of granted) out[c] = true;
    }
    caps = Object.freeze(out);
    this.cache.set(role, caps);
    return caps;
  }
}
