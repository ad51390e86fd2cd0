import { defineModule } from '../modules/define-module.ts';
import { AjaxText } from '../http/ajax/ajax-action.ts';
import { Identity } from './identity.ts';
import { identityCommands } from './identity-commands.ts';
import { NONCE_REST } from './nonces.ts';
import { identityRoutes } from './rest-routes.ts';

/**
 * Users, roles and capabilities, passwords, application passwords, sessions and nonces (contract §3).
 * Its service is what the HTTP surfaces ask who is calling; its sink takes the roles and capabilities
 * every unit declares.
 */
export const identityModule = defineModule({
  name: 'identity',
  services: (ctx) => new Identity({ db: ctx.db, hooks: ctx.hooks, config: ctx.config, log: ctx.log }),
  init: (ctx) => ctx.self.init(),
  sinks: (ctx) => [ctx.self.sink()],
  rest: (ctx) => identityRoutes(ctx.self),
  ajax: (ctx) => [
    {
      // WordPress's own: a fresh `wp_rest` nonce, as text, for a signed-in user (contract §3)
      action: 'rest-nonce',
      capability: null,
      nonce: false,
      handler: async (req) => new AjaxText(ctx.self.createNonce(NONCE_REST, req.user)),
    },
  ],
  commands: (ctx) => identityCommands(ctx.self),
});
