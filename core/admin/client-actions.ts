import { saveClient } from '../documents/clients/client-writes.ts';
import type { AjaxAction } from '../http/ajax/ajax-action.ts';
import type { Identity } from '../identity/identity.ts';

const FIELDS = ['name', 'email', 'company', 'country', 'vat', 'address', 'locale'] as const;

/**
 * `billing_save_client` (Clients screen): creates or edits a client as `POST|PUT /clients` do (saveClient):
 * only the fields the request sends change. The client to edit is resolved through the scoped resolver:
 * another user's client is one that does not exist.
 */
export function clientSaveAction(identity: Identity): AjaxAction {
  return {
    action: 'billing_save_client',
    capability: 'bill_edit_clients',
    object: { param: 'id', kind: 'client' },
    fields: {
      id: 'the client to edit; absent to create one',
      name: 'display name (required to create; when sent, not empty)',
      email: '(required to create; when sent, not empty)',
      company: '',
      country: 'ISO 3166-1 alpha-2',
      vat: '',
      address: '',
      locale: 'BCP 47 tag its documents print in (empty: the site language)',
    },
    handler: async (req) => {
      const creating = req.params.id === undefined || req.params.id === '';
      const fields = Object.fromEntries(FIELDS.filter((k) => typeof req.params[k] === 'string').map((k) => [k, req.params[k]]));
      const saved = await saveClient(identity, creating ? null : Number(req.params.id), fields, req.actor);
      return { id: saved.id, name: saved.display_name, email: saved.email };
    },
  };
}
