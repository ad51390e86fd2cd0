import type { Actor } from '../../audit/audit.ts';
import type { Database } from '../../db/database.ts';
import { BillingError } from '../../errors.ts';
import type { UserStore } from '../../identity/users.ts';
import { countryCode } from '../country-names.ts';
import { ImportRowError, type ImportResource, type ImportRow, type ImportWriteResult } from '../types.ts';
import { findClient, newClient, type ClientFields } from './client-lookup.ts';

/** Clients: one row each, matched by e-mail (a row whose client exists updates what differs). */
export function clientsResource(deps: { db: Database; users: UserStore }): ImportResource<ClientRecord> {
  return {
    name: 'clients',
    label: 'Clients',
    fields: [
      { name: 'name', label: 'Name', synonyms: ['Client Name', 'Customer Name', 'Display Name', 'Client', 'Customer', 'Contact'] },
      { name: 'email', label: 'E-mail', synonyms: ['E-mail Address', 'Email Address', 'EmailID', 'Mail'] },
      { name: 'company', label: 'Company', synonyms: ['Company Name', 'Organization', 'Organisation', 'Business'] },
      { name: 'country', label: 'Country', synonyms: ['Billing Country', 'Country Code'] },
      { name: 'vat', label: 'VAT number', synonyms: ['VAT Number', 'VAT ID', 'Tax Number', 'Tax ID', 'VAT No'] },
      { name: 'address', label: 'Address', synonyms: ['Street', 'Billing Address', 'Billing Street', 'Address Line 1', 'Address 1'] },
      { name: 'locale', label: 'Language', synonyms: ['Language', 'Locale'] },
    ],
    presets: {
      'invoice-ninja': {
        columns: { Name: 'name', Email: 'email', 'VAT Number': 'vat', 'Billing Country': 'country', 'Billing Street': 'address' },
      },
      freshbooks: {
        columns: { Organization: 'name', Email: 'email', Country: 'country', Street: 'address' },
      },
      wave: {
        columns: { customer_name: 'name', email: 'email', country: 'country', address_line_1: 'address' },
      },
      zoho: {
        columns: {
          'Display Name': 'name',
          'Company Name': 'company',
          EmailID: 'email',
          'Billing Country': 'country',
          'Billing Address': 'address',
        },
      },
    },
    batchSize: 200,
    prepare(rows) {
      const row = rows[0]!;
      const v = row.values;
      const email = (v.email ?? '').trim();
      const name = (v.name ?? '').trim() || (v.company ?? '').trim();
      if (!email) throw new ImportRowError('email: a client needs an e-mail address (it is how a re-import finds it).', 'email');
      if (!name) throw new ImportRowError('name: a client needs a name.', 'name');
      return {
        row: row.row,
        fields: {
          name,
          email,
          company: (v.company ?? '').trim(),
          country: countryCode(v.country ?? '', 'country'),
          vat: (v.vat ?? '').trim(),
          address: (v.address ?? '').trim(),
        },
      };
    },
    // a batch in one transaction; if any of it fails, each record alone, so one bad row costs only itself
    async write(records, env) {
      try {
        return await deps.db.transaction(async (tx) => {
          const out: ImportWriteResult[] = [];
          for (const r of records) out.push(await writeClient(tx, deps.users, r, env.actor));
          return out;
        });
      } catch {
        const out: ImportWriteResult[] = [];
        for (const r of records) {
          try {
            out.push(await deps.db.transaction((tx) => writeClient(tx, deps.users, r, env.actor)));
          } catch (err) {
            out.push({
              failed: err instanceof BillingError || err instanceof ImportRowError ? err.message : 'The client could not be written.',
            });
          }
        }
        return out;
      }
    },
  };
}

export interface ClientRecord {
  row: number;
  fields: ClientFields;
}

async function writeClient(
  tx: Parameters<Parameters<Database['transaction']>[0]>[0],
  users: UserStore,
  r: ClientRecord,
  actor: Actor,
): Promise<ImportWriteResult> {
  const found = await findClient(tx, r.fields.email, null);
  if (!found) {
    await newClient(tx, users, r.fields, actor);
    return 'created';
  }
  const changes: Record<string, string> = {};
  if (found.display_name !== r.fields.name) changes.display_name = r.fields.name;
  for (const k of ['company', 'country', 'vat', 'address'] as const) if (r.fields[k] && found[k] !== r.fields[k]) changes[k] = r.fields[k];
  if (!Object.keys(changes).length) return 'skipped';
  await users.updateProfile(found.login, changes, actor, tx);
  return 'updated';
}

export type { ImportRow };
