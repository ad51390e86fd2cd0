// Team roles (docs/team-roles.md): three staff roles, per-role editing of billing capabilities, and the
// sales own-scope. Everything is decided in the two filters the core asks on every surface:
// `billing_user_has_cap` (the capabilities a role holds after its edits) and `billing_list_scope`
// (what a list of a kind is narrowed to). The core's scoped resolver holds every object a route or an
// action names to its kind's list scope (docs/security.md, Scope), so REST, AJAX, the PDF and screens
// agree, for documents, clients, payments, credit notes and plugins' kinds alike.
import { CLI, definePlugin, filter, type PluginContext } from '../../core/plugin-api.ts';
import { ADMINISTRATOR, MANAGE_TEAM, SALES, TEAM_ROLES, applyEdits } from './roles.ts';
import { RoleStore, type RoleView } from './role-store.ts';
import { teamRoutes, teamScreen } from './team.ts';

declare module 'billing-service' {
  interface OptionMap {
    team_sales_scope: 'all' | 'own';
  }
}

/** The plugin's own services: the role edits, read and written per request. */
type Services = { roles: RoleStore };

const ROLE_ARGS = { role: { type: 'string', required: true, description: 'The role name, e.g. billing_sales.' } };
/** A role is named, not owned: no scope governs it (the routes are for those who manage the team). */
const ROLE_NAME = { role: "a role's name, not an object of anyone's" };

/** Whether `user` is held to their own documents now. */
async function ownScope(ctx: PluginContext, roles: readonly string[]): Promise<boolean> {
  if (!roles.includes(SALES) || roles.includes(ADMINISTRATOR)) return false;
  return (await ctx.options.get('team_sales_scope')) === 'own';
}

const text = (v: RoleView) => `${v.role}\t${v.name}\t${v.capabilities.join(',')}`;

export default definePlugin<Services>({
  services: (ctx) => ({ roles: new RoleStore(ctx) }),
  name: 'team-roles',
  version: '1.0.0',
  compatibility: '^0.1.0',
  title: 'Team roles',
  description: 'Billing manager, accountant and sales roles; per-role capabilities; sales see only their own documents.',
  settings: {
    team_sales_scope: {
      type: 'string',
      enum: ['all', 'own'],
      default: 'all',
      description: 'What a billing_sales user sees and changes: every document, or only those they created.',
    },
  },
  capabilities: [MANAGE_TEAM],
  roles: TEAM_ROLES,
  migrations: [
    {
      name: '0001_role_caps',
      up: `
        -- an edit of a role's billing capabilities: added (granted) or taken away from its declaration
        create table billing_team_role_caps (
          role text not null,
          capability text not null,
          granted boolean not null,
          primary key (role, capability)
        );
      `,
    },
    {
      name: '0002_prefixed_tables',
      up: `
          -- a plugin's tables carry its name (docs/plugins.md, the read model)
          alter table billing_team_role_caps rename to team_roles_caps;
        `,
    },
  ],
  listeners: [
    // in an export: each role's capability changes
    filter('billing_export_sections', () => async (sections) => [
      ...sections,
      { name: 'team-roles/caps', table: 'team_roles_caps', key: ['role', 'capability'] },
    ]),
    filter('billing_user_has_cap', (ctx: PluginContext<Services>) => async (allcaps, _caps, _args, user) => {
      // the administrator cannot lose a capability
      if (user.roles.includes(ADMINISTRATOR)) return allcaps;
      const edits = await ctx.self.roles.edits(user.roles);
      let caps = allcaps;
      for (const role of user.roles) caps = applyEdits(caps, edits.get(role));
      return caps;
    }),
    // the own scope, for every kind: lists are narrowed to what the user created, and the core holds each
    // object a route names to the same rule (a payment or credit note goes by its invoice's creator)
    filter(
      'billing_list_scope',
      (ctx: PluginContext<Services>) => async (scope, _kind, user) =>
        (await ownScope(ctx, user.roles)) ? { ...scope, created_by: user.id } : scope,
    ),
  ],
  screens: (ctx: PluginContext<Services>) => [teamScreen(ctx)],
  rest: (ctx: PluginContext<Services>) => [
    ...teamRoutes(ctx),
    {
      path: '/roles',
      methods: 'GET',
      capability: MANAGE_TEAM,
      description: 'Every role with its capabilities (after edits).',
      handler: async () => ctx.self.roles.list(),
    },
    {
      path: '/roles/(?P<role>[a-z0-9_]+)',
      methods: 'GET',
      capability: MANAGE_TEAM,
      unscoped: ROLE_NAME,
      args: ROLE_ARGS,
      description: 'One role with its capabilities.',
      handler: async (req) => ctx.self.roles.get(req.params.role),
    },
    {
      path: '/roles/(?P<role>[a-z0-9_]+)',
      methods: 'PUT',
      capability: MANAGE_TEAM,
      unscoped: ROLE_NAME,
      args: {
        ...ROLE_ARGS,
        capabilities: {
          type: 'array',
          items: { type: 'string' },
          required: true,
          description: 'Every billing capability the role is to hold (others it holds are taken away).',
        },
      },
      description: "Sets a role's billing capabilities.",
      handler: async (req) => ctx.self.roles.set(req.params.role, req.params.capabilities, req.actor),
    },
  ],
  commands: [
    {
      words: ['role', 'list'],
      usage: 'billing role list',
      run: async (_input, ctx) => ctx.self.roles.list(),
      text: (rows: RoleView[]) => rows.map(text).join('\n'),
    },
    {
      words: ['role', 'grant'],
      usage: 'billing role grant <role> <capability>',
      arity: 2,
      run: async ({ args }, ctx) => ctx.self.roles.grant(args[0]!, args[1]!, CLI),
      text: text,
    },
    {
      words: ['role', 'revoke'],
      usage: 'billing role revoke <role> <capability>',
      arity: 2,
      run: async ({ args }, ctx) => ctx.self.roles.revoke(args[0]!, args[1]!, CLI),
      text: text,
    },
  ],
});
