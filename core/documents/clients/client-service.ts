import { timestamp, type Database } from '../../db/database.ts';
import { BillingError } from '../../errors.ts';
import { containsPattern } from '../../db/like.ts';
import type { HookRegistry } from '../../hooks/registry.ts';
import type { AuthUser } from '../../http/auth.ts';
import { listScope, type ListScope } from '../../scope/list-scope.ts';

/** Money a client owes and paid, in one currency, as exact decimal text (`numeric` sums from SQL). */
export type ClientTotals = { invoiced: string; paid: string; due: string };

/**
 * A client: a user with role `billing_client` (docs/identity.md), with what their documents add up to.
 * A type, not an interface, so it is a hook model (`billing_rest_client`) as it is.
 */
export type Client = {
  id: number;
  name: string;
  email: string;
  company: string;
  country: string;
  vat: string;
  /** Postal address, one line per line. */
  address: string;
  /** The BCP 47 tag its documents print in, or null (the option `site_locale`). */
  locale: string | null;
  created: Date;
  /** Non-trashed documents of the client. */
  counts: { invoices: number; quotes: number };
  /**
   * Per currency (ISO 4217 code), for every currency the client has a non-trashed invoice in:
   * `invoiced` = Σ total and `due` = Σ due of issued invoices (not draft, not cancelled), `paid` = Σ paid
   * of all of them (money received stays received, even on a cancelled invoice). Amounts of different
   * currencies are never added together.
   */
  totals: Record<string, ClientTotals>;
};

/** What the client autocomplete shows. */
export type ClientSummary = { id: number; name: string; email: string; company: string };

export interface ClientQuery {
  page: number;
  per_page: number;
  /** Case-insensitive substring of the name (display name), e-mail or company. */
  search?: string;
  /** The user the list is for: narrowed to their scope (`billing_list_scope`, kind `client`). */
  viewer?: AuthUser;
}

export const CLIENT_ROLE = 'billing_client';

/** Invoice statuses that are not (yet, or any longer) owed: left out of `invoiced` and `due`. */
const NOT_OWED = ['draft', 'cancelled'];

const SUMMARY_COLUMNS = 'id, display_name as name, email, company';
const CLIENT_COLUMNS = `${SUMMARY_COLUMNS}, country, vat, address, locale, created_at`;

interface ClientRow extends ClientSummary {
  country: string;
  vat: string;
  address: string;
  locale: string | null;
  created_at: string;
}

/**
 * Clients, in process: the one path `GET /clients`, the autocomplete and plugins take. Reads users and
 * documents directly; users are changed through the identity module, documents through their services.
 */
export class ClientService {
  private readonly db: Database;
  private readonly hooks: HookRegistry | undefined;

  constructor(deps: { db: Database; hooks?: HookRegistry }) {
    this.db = deps.db;
    this.hooks = deps.hooks;
  }

  private async scope(viewer: AuthUser | undefined): Promise<ListScope> {
    return this.hooks ? listScope(this.hooks, 'client', viewer) : {};
  }

  /** One page of clients, ordered by name, with their counts and totals; and how many match in all. */
  async list(q: ClientQuery): Promise<{ items: Client[]; total: number }> {
    const { where, params } = matching(q.search, await this.scope(q.viewer));
    const count = await this.db.query<{ n: number }>(`select count(*)::int as n from billing_users where ${where}`, params);
    const total = count[0]!.n;
    if (total === 0 || (q.page - 1) * q.per_page >= total) return { items: [], total };
    const n = params.length;
    const rows = await this.db.query<ClientRow>(
      `select ${CLIENT_COLUMNS} from billing_users where ${where}
        order by lower(display_name), id limit $${n + 1} offset $${n + 2}`,
      [...params, q.per_page, (q.page - 1) * q.per_page],
    );
    return { items: await this.withFigures(rows, q.viewer), total };
  }

  /** The client with this id (a user of another role is no client): 404 `billing_rest_not_found`. */
  async get(id: number): Promise<Client> {
    const rows =
      Number.isSafeInteger(id) && id > 0
        ? await this.db.query<ClientRow>(`select ${CLIENT_COLUMNS} from billing_users where id = $1 and role = $2`, [id, CLIENT_ROLE])
        : [];
    if (!rows.length) throw new BillingError('billing_rest_not_found', 'No client has this id.');
    return (await this.withFigures(rows))[0]!;
  }

  /** Autocomplete: at most `limit` clients matching `term` (all of them, by name, for an empty term). */
  async search(term: string, limit = 20, viewer?: AuthUser): Promise<ClientSummary[]> {
    const { where, params } = matching(term, await this.scope(viewer));
    return this.db.query<ClientSummary>(
      `select ${SUMMARY_COLUMNS} from billing_users where ${where} order by lower(display_name), id limit $${params.length + 1}`,
      [...params, Math.max(1, Math.min(Math.trunc(limit) || 1, 100))],
    );
  }

  /**
   * Counts and per-currency totals of the given clients' documents, summed exactly by PostgreSQL; for a
   * viewer, only of the documents their lists show (`billing_list_scope` of `invoice` and `quote`): a
   * client's figures never tell of documents the caller may not see.
   */
  private async withFigures(rows: ClientRow[], viewer?: AuthUser): Promise<Client[]> {
    const invoicesOf = this.hooks ? (await listScope(this.hooks, 'invoice', viewer)).created_by : undefined;
    const quotesOf = this.hooks ? (await listScope(this.hooks, 'quote', viewer)).created_by : undefined;
    const figures = await this.db.query<{
      client_id: number;
      kind: string;
      currency: string;
      n: number;
      invoiced: string;
      paid: string;
      due: string;
    }>(
      `select client_id, kind, currency, count(*)::int as n,
              coalesce(sum(total) filter (where kind = 'invoice' and status <> all($2::text[])), 0)::text as invoiced,
              coalesce(sum(paid) filter (where kind = 'invoice'), 0)::text as paid,
              coalesce(sum(due) filter (where kind = 'invoice' and status <> all($2::text[])), 0)::text as due
         from billing_documents
        where client_id = any($1::int[]) and kind in ('invoice', 'quote') and trashed_at is null
          and (kind <> 'invoice' or $3::int is null or created_by = $3)
          and (kind <> 'quote' or $4::int is null or created_by = $4)
        group by client_id, kind, currency`,
      [rows.map((r) => r.id), NOT_OWED, invoicesOf ?? null, quotesOf ?? null],
    );
    const clients = new Map<number, Client>(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          name: r.name,
          email: r.email,
          company: r.company,
          country: r.country,
          vat: r.vat,
          address: r.address,
          locale: r.locale ?? null,
          created: timestamp(r.created_at)!,
          counts: { invoices: 0, quotes: 0 },
          totals: {},
        },
      ]),
    );
    for (const f of figures) {
      const c = clients.get(Number(f.client_id))!;
      if (f.kind === 'quote') {
        c.counts.quotes += f.n;
        continue;
      }
      c.counts.invoices += f.n;
      c.totals[f.currency] = { invoiced: f.invoiced, paid: f.paid, due: f.due };
    }
    return [...clients.values()];
  }
}

/**
 * Clients whose name, e-mail or company holds `search` (case-insensitive; `%` and `_` match themselves).
 * One expression over the three, as the document search does, so that a trigram index on exactly it
 * can serve the match when client lists grow large.
 */
function matching(search: string | undefined, scope: ListScope = {}): { where: string; params: unknown[] } {
  const params: unknown[] = [CLIENT_ROLE];
  let where = 'role = $1';
  if (search) {
    params.push(containsPattern(search));
    where += ` and lower(display_name || ' ' || email || ' ' || company) like $${params.length}`;
  }
  if (scope.created_by !== undefined) {
    params.push(scope.created_by);
    where += ` and created_by = $${params.length}`;
  }
  return { where, params };
}
