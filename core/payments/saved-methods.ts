import { audit, type Actor } from '../audit/audit.ts';
import { timestamp, type Database, type Tx } from '../db/database.ts';
import { BillingError } from '../errors.ts';
import { siteDateTime } from '../time/site-time.ts';
import type { SavedMethodReport } from './gateways/gateway-provider.ts';

/** A client's saved card or mandate as people see it: never its token. */
export interface SavedMethod {
  id: number;
  clientId: number;
  /** The payment method (gateway) it charges through: `gateway_a`. */
  method: string;
  label: string;
  createdAt: Date;
}

/** What only the core reads: the gateway's token and customer, for `chargeSaved`. */
export interface UsableMethod extends SavedMethod {
  token: string;
  gatewayCustomer: string | null;
}

/** `GET /clients/{id}/payment-methods` items: `{id, gateway, label, created}`. */
export const SAVED_METHOD_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'payment_method',
  type: 'object',
  properties: {
    id: { type: 'integer', readonly: true },
    gateway: { type: 'string', description: 'The payment method it charges through (gateway_a).' },
    label: { type: 'string', description: 'What the gateway says it is: "Visa •••• 4242", "SEPA mandate NL•• 4300".' },
    created: { type: 'string', description: 'Y-m-d H:i:s in the site timezone.' },
  },
  required: ['id', 'gateway', 'label', 'created'],
  additionalProperties: false,
};

export function savedMethodRepresentation(m: SavedMethod, timezone: string): Record<string, unknown> {
  return { id: m.id, gateway: m.method, label: m.label, created: siteDateTime(m.createdAt, timezone) };
}

const COLUMNS = 'id, client_id, method, label, created_at, token, gateway_customer';
type Row = {
  id: string;
  client_id: string;
  method: string;
  label: string;
  created_at: string;
  token: string;
  gateway_customer: string | null;
};
const fromRow = (r: Row): UsableMethod => ({
  id: Number(r.id),
  clientId: Number(r.client_id),
  method: r.method,
  label: r.label,
  createdAt: timestamp(r.created_at)!,
  token: r.token,
  gatewayCustomer: r.gateway_customer,
});
const shown = ({ token: _t, gatewayCustomer: _c, ...m }: UsableMethod): SavedMethod => m;

/**
 * Clients' saved cards and mandates (docs/payments.md, Autopay). Only a verified success of a checkout
 * that asked to save (`billing_payments.save_for_client`) records one: nothing a browser sends can.
 * Tokens stay in this table; everything that leaves the service is a `SavedMethod`.
 */
export class SavedMethods {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** A client's saved methods that can still be charged, newest first. */
  async list(clientId: number): Promise<SavedMethod[]> {
    return (await this.usable(clientId)).map(shown);
  }

  /** The same with their tokens, for the core's charges only. */
  async usable(clientId: number, method?: string): Promise<UsableMethod[]> {
    const rows = await this.db.query<Row>(
      `select ${COLUMNS} from billing_payment_methods
        where client_id = $1 and removed_at is null and ($2::text is null or method = $2) order by created_at desc, id desc`,
      [clientId, method ?? null],
    );
    return rows.map(fromRow);
  }

  /**
   * Removes a client's saved method: it is never charged again, so autopay of the client stops until
   * another is saved. Another client's id, or one removed already, is not found.
   */
  async remove(clientId: number, id: number, actor: Actor): Promise<SavedMethod> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<Row>(
        `update billing_payment_methods set removed_at = now()
          where id = $1 and client_id = $2 and removed_at is null returning ${COLUMNS}`,
        [id, clientId],
      );
      if (!rows[0]) throw new BillingError('billing_rest_not_found', 'No saved payment method has this id.');
      const m = shown(fromRow(rows[0]));
      await audit(tx, actor, {
        action: 'payment_method.remove',
        objectType: 'client',
        objectId: clientId,
        details: { payment_method: m.id, gateway: m.method, label: m.label },
      });
      return m;
    });
  }

  /**
   * Saves what a gateway's verified success reported for payment `paymentId`, when that payment's
   * checkout asked to save for a client (else nothing). Saving the same card again brings it back.
   */
  async recordFor(paymentId: number, method: string, report: SavedMethodReport, tx: Tx | Database = this.db): Promise<boolean> {
    if (typeof report.token !== 'string' || !report.token || report.token.length > 500) return false;
    const label = String(report.label ?? '').slice(0, 100) || method;
    const rows = await tx.query<{ id: string }>(
      `insert into billing_payment_methods (client_id, method, token, gateway_customer, label)
       select p.save_for_client, p.method, $3, $4, $5 from billing_payments p
        where p.id = $1 and p.method = $2 and p.save_for_client is not null
       on conflict (client_id, method, token) do update set removed_at = null, label = excluded.label
       returning id`,
      [paymentId, method, report.token, report.customer ?? null, label],
    );
    return rows.length > 0;
  }
}
