import { randomBytes } from 'node:crypto';
import type { Actor } from '../../audit/audit.ts';
import type { Tx } from '../../db/database.ts';
import { CLIENT_ROLE } from '../../documents/clients/client-service.ts';
import type { UserStore } from '../../identity/users.ts';

export interface ClientFields {
  name: string;
  email: string;
  company: string;
  country: string;
  vat: string;
  address: string;
}

export interface FoundClient {
  id: number;
  login: string;
  display_name: string;
  company: string;
  country: string;
  vat: string;
  address: string;
}

/**
 * The client an imported row names: by e-mail (case-insensitive), else — when the row has no e-mail —
 * by name, when exactly one client bears it. Only users with the client role: an e-mail that belongs to
 * a member of staff does not make them the customer.
 */
export async function findClient(tx: Tx, email: string | null, name: string | null): Promise<FoundClient | null> {
  const columns = 'id, login, display_name, company, country, vat, address';
  if (email) {
    const rows = await tx.query<FoundClient>(`select ${columns} from billing_users where role = $1 and lower(email) = lower($2)`, [
      CLIENT_ROLE,
      email,
    ]);
    return rows[0] ?? null;
  }
  if (name) {
    const rows = await tx.query<FoundClient>(
      `select ${columns} from billing_users where role = $1 and lower(display_name) = lower($2) limit 2`,
      [CLIENT_ROLE, name],
    );
    return rows.length === 1 ? rows[0]! : null;
  }
  return null;
}

/** A new client (a user with the client role and no password, as the Clients screen makes one), in `tx`. */
export async function newClient(tx: Tx, users: UserStore, f: ClientFields, actor: Actor): Promise<number> {
  const base = (f.email.split('@')[0] ?? 'client').replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 40) || 'client';
  const user = await users.create(
    {
      login: `${base}-${randomBytes(3).toString('hex')}`,
      role: CLIENT_ROLE,
      email: f.email,
      display_name: f.name.slice(0, 250),
      company: f.company,
      country: f.country,
      vat: f.vat,
      address: f.address,
    },
    actor,
    tx,
  );
  return user.id;
}
