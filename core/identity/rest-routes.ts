import type { RestRoute } from '../http/rest/route.ts';
import { BillingError } from '../errors.ts';
import type { Identity } from './identity.ts';

/**
 * The identity module's REST routes. `GET /users/me` answers who the credentials belong to (as
 * WordPress's `/wp/v2/users/me`), which is what a client checks first.
 */
export function identityRoutes(identity: Identity): RestRoute[] {
  return [
    {
      path: '/users/me',
      methods: 'GET',
      capability: 'read',
      description: 'The signed-in user.',
      schema: {
        $schema: 'http://json-schema.org/draft-04/schema#',
        title: 'user',
        type: 'object',
        properties: {
          id: { type: 'integer' },
          login: { type: 'string' },
          name: { type: 'string' },
          email: { type: 'string' },
          roles: { type: 'array', items: { type: 'string' } },
          company: { type: 'string' },
          country: { type: 'string' },
          vat: { type: 'string' },
          registered_date: { type: 'string' },
        },
      },
      handler: async (req) => {
        const user = await identity.users.byId(req.user.id);
        if (!user) throw new BillingError('billing_rest_not_found', 'The user does not exist.');
        return {
          id: user.id,
          login: user.login,
          name: user.display_name,
          email: user.email,
          roles: [user.role],
          company: user.company,
          country: user.country,
          vat: user.vat,
          registered_date: user.created.toISOString(),
        };
      },
    },
  ];
}
