import { randomBytes } from 'node:crypto';
import { BillingError } from '../errors.ts';
import type { AjaxAction } from '../http/ajax/ajax-action.ts';
import type { Identity } from '../identity/identity.ts';
import { USER_ID_MAX } from '../identity/users.ts';

const CLIENT_ROLE = 'billing_client';
const FIELDS = ['name', 'email', 'company', 'country', 'vat', 'address'] as const;

/**
 * `billing_save_client` (Clients screen): creates a client (a user with role `billing_client`, without a
 * password: clients reach their documents through the links they are sent) or edits one. An edit
 * changes only the fields the request sends: a field left out keeps its value, so a partial save
 * (another screen, an older form) never wipes the client's address or VAT number. The client to edit is
 * resolved through the scoped resolver: another user's client is one that does not exist. The user
 * service checks every field with its schemas.
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
    },
    handler: async (req) => {
      const creating = req.params.id === undefined || req.params.id === '';
      // the fields sent, trimmed; on an edit, the others are left as they are
      const f: Partial<Record<(typeof FIELDS)[number], string>> = {};
      for (const k of FIELDS) {
        if (typeof req.params[k] === 'string') f[k] = req.params[k].trim();
        else if (creating) f[k] = '';
      }
      const missing = (['name', 'email'] as const).filter((k) => f[k] === '');
      if (missing.length) {
        throw new BillingError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, {
          params: Object.fromEntries(missing.map((k) => [k, `${k === 'name' ? 'The name' : 'The e-mail address'} is required.`])),
        });
      }
      if (f.country) f.country = f.country.toUpperCase();
      const profile = {
        email: f.email,
        display_name: f.name,
        company: f.company,
        country: f.country,
        vat: f.vat,
        address: f.address,
      };
      if (!creating) {
        const id = Number(req.params.id);
        const user = Number.isSafeInteger(id) && id > 0 && id <= USER_ID_MAX ? await identity.users.byId(id) : null;
        if (!user || user.role !== CLIENT_ROLE) throw new BillingError('billing_rest_not_found', 'No client has this id.');
        const saved = await identity.users.updateProfile(user.login, profile, req.actor);
        return { id: saved.id, name: saved.display_name, email: saved.email };
      }
      const base = (f.email!.split('@')[0] ?? 'client').replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 40) || 'client';
      const saved = await identity.users.create(
        { login: `${base}-${randomBytes(3).toString('hex')}`, role: CLIENT_ROLE, ...profile, email: f.email!, display_name: f.name! },
        req.actor,
      );
      return { id: saved.id, name: saved.display_name, email: saved.email };
    },
  };
}
