import { randomBytes } from 'node:crypto';
import type { Actor } from '../../audit/audit.ts';
import { BillingError } from '../../errors.ts';
import type { Identity } from '../../identity/identity.ts';
import { USER_ID_MAX, type User } from '../../identity/users.ts';
import { CLIENT_ROLE } from './client-service.ts';

/** What a client is made of, as the Clients screen and `POST|PUT /clients` send it. */
export interface ClientFields {
  name?: string;
  email?: string;
  company?: string;
  country?: string;
  vat?: string;
  address?: string;
  /** A BCP 47 tag; null prints the client's documents in the option `site_locale`. */
  locale?: string | null;
}

const TEXT_FIELDS = ['name', 'email', 'company', 'country', 'vat', 'address'] as const;

/**
 * Creates a client (`id` null: a user with role `billing_client`, without a password — clients reach
 * their documents through the links they are sent) or edits one. An edit changes only the fields given:
 * a field left out keeps its value, so a partial save never wipes the client's address or VAT number.
 * The user service checks every field with its schemas. The caller has resolved `id` through the
 * scoped resolver; a user of another role is no client.
 */
export async function saveClient(identity: Identity, id: number | null, given: ClientFields, actor: Actor): Promise<User> {
  const creating = id === null;
  const f: Partial<Record<(typeof TEXT_FIELDS)[number], string>> = {};
  for (const k of TEXT_FIELDS) {
    if (typeof given[k] === 'string') f[k] = given[k].trim();
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
    ...(given.locale !== undefined ? { locale: given.locale === '' ? null : given.locale } : {}),
  };
  if (!creating) {
    const user = Number.isSafeInteger(id) && id > 0 && id <= USER_ID_MAX ? await identity.users.byId(id) : null;
    if (!user || user.role !== CLIENT_ROLE) throw new BillingError('billing_rest_not_found', 'No client has this id.');
    return identity.users.updateProfile(user.login, profile, actor);
  }
  const base = (f.email!.split('@')[0] ?? 'client').replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 40) || 'client';
  return identity.users.create(
    { login: `${base}-${randomBytes(3).toString('hex')}`, role: CLIENT_ROLE, ...profile, email: f.email!, display_name: f.name! },
    actor,
  );
}
