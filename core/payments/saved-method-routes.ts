import type { RestRoute } from '../http/rest/route.ts';
import type { OptionsStore } from '../options/options.ts';
import { SAVED_METHOD_SCHEMA, savedMethodRepresentation, type SavedMethods } from './saved-methods.ts';

const CLIENT = { param: 'id', kind: 'client' } as const;
const ARGS = { id: { type: 'integer', minimum: 1, required: true, description: 'The client id.' } };
const PM_ARGS = { ...ARGS, pm: { type: 'integer', minimum: 1, required: true, description: 'The saved payment method id.' } };

/**
 * A client's saved cards and mandates (docs/payments.md, Autopay): listed and removed by staff who may
 * edit the client. Answers carry id, gateway, label and created — never the gateway's token.
 */
export function savedMethodRoutes(d: { saved: SavedMethods; options: OptionsStore }): RestRoute[] {
  const timezone = () => d.options.get('timezone');
  return [
    {
      path: '/clients/(?P<id>[\\d]+)/payment-methods',
      methods: 'GET',
      capability: 'bill_view_clients',
      object: CLIENT,
      args: ARGS,
      schema: SAVED_METHOD_SCHEMA,
      description: "A client's saved payment methods (cards, mandates) that autopay charges, newest first.",
      response: { schema: { type: 'array', items: SAVED_METHOD_SCHEMA } },
      handler: async (req) => {
        const tz = await timezone();
        return (await d.saved.list(req.params.id)).map((m) => savedMethodRepresentation(m, tz));
      },
    },
    {
      path: '/clients/(?P<id>[\\d]+)/payment-methods/(?P<pm>[\\d]+)',
      methods: 'DELETE',
      capability: 'bill_edit_clients',
      object: [CLIENT, { param: 'pm', kind: 'payment_method' }],
      args: PM_ARGS,
      description: 'Remove a saved payment method: it is never charged again, and autopay of the client stops until another is saved.',
      response: {
        schema: {
          type: 'object',
          properties: { deleted: { type: 'boolean' }, previous: SAVED_METHOD_SCHEMA },
          required: ['deleted', 'previous'],
        },
      },
      handler: async (req) => {
        const removed = await d.saved.remove(req.params.id, req.params.pm, req.actor);
        return { deleted: true, previous: savedMethodRepresentation(removed, await timezone()) };
      },
    },
  ];
}
