import { defineModule } from '../modules/define-module.ts';
import { AjaxText } from '../http/ajax/ajax-action.ts';
import { Identity } from './identity.ts';
import { identityCommands } from './identity-commands.ts';
import { NONCE_REST } from './nonces.ts';
import { identityRoutes } from './rest-routes.ts';
import { IDENTITY_MIGRATIONS } from './migrations.ts';
import { THROTTLE_SETTINGS } from './throttle.ts';

/**
 * Users, roles and capabilities, passwords, application passwords, sessions and nonces (docs/identity.md).
 * Its service is what the HTTP surfaces ask who is calling; its sink takes the roles and capabilities
 * every unit declares.
 */
export const identityModule = defineModule({
  name: 'identity',
  settings: THROTTLE_SETTINGS,
  migrations: IDENTITY_MIGRATIONS,
  services: (ctx) =>
    new Identity({
      db: ctx.db,
      hooks: ctx.hooks,
      config: ctx.config,
      log: ctx.log,
      throttleLimits: async () => {
        const o = await ctx.options.getMany(['signin_max_failures_account', 'signin_max_failures_address', 'signin_lockout_seconds']);
        return { account: o.signin_max_failures_account, address: o.signin_max_failures_address, seconds: o.signin_lockout_seconds };
      },
    }),
  init: (ctx) => ctx.self.init(),
  sinks: (ctx) => [ctx.self.sink()],
  rest: (ctx) => identityRoutes(ctx.self),
  ajax: (ctx) => [
    {
      // WordPress's own: a fresh `wp_rest` nonce, as text, for a signed-in user (docs/identity.md)
      action: 'rest-nonce',
      capability: null,
      nonce: false,
      handler: async (req) => new AjaxText(ctx.self.createNonce(NONCE_REST, req.user)),
    },
  ],
  commands: (ctx) => identityCommands(ctx.self),
});
