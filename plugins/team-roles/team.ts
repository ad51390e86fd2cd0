// The Team screen's two routes: who the users are with their role, and giving one of them another role.
// Roles are the core's user records (`user.set_role`, audited); this plugin only lets a team manager
// (bill_manage_team) hand out the roles below the administrator without the CLI.
import {
  BillingError,
  COLLECTION_ARGS,
  collectionResponse,
  pageWindow,
  resourceScreen,
  type PluginContext,
  type RestRequest,
  type RestRoute,
} from '../../core/plugin-api.ts';
import { ADMINISTRATOR, MANAGE_TEAM } from './roles.ts';

/** The roles a team manager may give: every role loaded now but the administrator's. */
function assignable(ctx: PluginContext): Array<{ name: string; label: string }> {
  return ctx.api.roles
    .list()
    .filter((r) => r.name !== ADMINISTRATOR)
    .map((r) => ({ name: r.name, label: r.label }));
}

const LOGIN = { type: 'string', minLength: 1, maxLength: 60, required: true, description: 'The login of the user.' };

export function teamRoutes(ctx: PluginContext): RestRoute[] {
  const roleName = (name: string) => ctx.api.roles.list().find((r) => r.name === name)?.label ?? name;
  const view = (u: { id: number; login: string; display_name: string; email: string; role: string }) => ({
    id: u.id,
    login: u.login,
    name: u.display_name || u.login,
    email: u.email,
    role: u.role,
    role_name: roleName(u.role),
  });
  return [
    {
      path: '/team',
      methods: 'GET',
      capability: MANAGE_TEAM,
      args: { page: COLLECTION_ARGS.page, per_page: COLLECTION_ARGS.per_page },
      description: 'The users, with their role, by id (the clients of the billing_client role left out).',
      handler: async (req: RestRequest) => {
        const users = (await ctx.api.users.list()).filter((u) => u.role !== 'billing_client');
        const { perPage, offset } = pageWindow(req.params);
        return collectionResponse(req, users.slice(offset, offset + perPage).map(view), users.length);
      },
    },
    {
      path: '/team/(?P<login>[^/]+)',
      methods: 'PUT',
      capability: MANAGE_TEAM,
      unscoped: { login: "a team member's login, for those who manage the team: users are not objects a scope governs" },
      args: {
        login: LOGIN,
        role: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$', required: true, description: 'The role to give, e.g. billing_sales.' },
      },
      description: "Gives a user another role (not the administrator's, and not to an administrator: that stays with the CLI).",
      handler: async (req: RestRequest) => {
        const { login, role } = req.params as { login: string; role: string };
        if (!assignable(ctx).some((r) => r.name === role)) {
          throw new BillingError('rest_invalid_param', 'Invalid parameter(s): role', {
            params: {
              role: `role must be one of ${assignable(ctx)
                .map((r) => r.name)
                .join(', ')}.`,
            },
          });
        }
        const user = (await ctx.api.users.list()).find((u) => u.login.toLowerCase() === login.toLowerCase());
        if (!user) throw new BillingError('billing_rest_not_found', 'No user has that login.');
        if (user.role === ADMINISTRATOR) {
          throw new BillingError('billing_invalid_argument', "An administrator's role is changed with the CLI (billing user set-role).");
        }
        return view(await ctx.api.users.setRole(user.login, role, req.actor));
      },
    },
  ];
}

/** The Team screen, as data: the users and their roles, a "Change role" form per user. */
export const teamScreen = (ctx: PluginContext) =>
  resourceScreen({
    slug: 'team.php',
    title: 'Team',
    capability: MANAGE_TEAM,
    order: 85,
    description: 'Who signs in, and what each may do. Change what a role may do with billing role grant/revoke.',
    list: {
      route: '/team',
      rowLabel: '{login}',
      empty: 'No users yet. Add one with billing user create.',
      columns: [
        { key: 'name', label: 'Name' },
        { key: 'login', label: 'Login' },
        { key: 'email', label: 'E-mail' },
        { key: 'role_name', label: 'Role' },
      ],
    },
    actions: [
      {
        label: 'Change role',
        method: 'PUT',
        route: '/team/{login}',
        when: { role: [] },
        fields: { role: { type: 'string', enum: [], required: true, title: 'Role' } },
        submit: 'Save role',
        done: '{login} is now {role_name}.',
      },
    ],
    // the roles are those loaded when the page is drawn (another plugin may add some)
    refine: async (d) => {
      const roles = assignable(ctx).map((r) => r.name);
      return {
        ...d,
        actions: d.actions!.map((a) => ({ ...a, when: { role: roles }, fields: { role: { ...a.fields!.role, enum: roles } } })),
      };
    },
  });
