import { audit, BillingError, type Actor, type ArgSchema, type PluginContext, type RestRequest, type Tx } from '../../core/plugin-api.ts';
// What e-invoices to a client need beyond its client record: where it receives them (its electronic
// address, BT-49), the reference it routes them by (BT-10: a German public body's Leitweg-ID, a cost
// centre), and whether it is a public body (XRechnung then requires that reference). One row per client,
// kept by this plugin; `GET|PUT /clients/{id}/einvoice`.
import { electronicAddressProblem, PEPPOL_EAS, type Endpoint } from './electronic-address.ts';

export interface ClientEinvoice {
  client_id: number;
  /** Null: none set (the client is then addressed by its VAT number where that has a scheme). */
  einvoice_address: Endpoint | null;
  /** BT-10; empty: none set. */
  buyer_reference: string;
  public_body: boolean;
}

export const CLIENT_EINVOICE_MIGRATION = {
  name: '0001_einvoice_clients',
  up: `
    create table e_invoicing_clients (
      client_id int primary key references billing_users (id) on delete cascade,
      address_scheme text not null default '',
      address_id text not null default '',
      buyer_reference text not null default '',
      public_body boolean not null default false,
      -- an address is a scheme and an identifier, or neither
      check ((address_scheme = '') = (address_id = ''))
    );
  `,
};

const ENDPOINT_OBJECT = {
  type: 'object',
  properties: {
    scheme: {
      type: 'string',
      enum: [...PEPPOL_EAS],
      description: 'EAS code (Peppol code list), e.g. 0088 for a GLN, 9930 for a German VAT number.',
    },
    id: { type: 'string', minLength: 1, maxLength: 100, description: 'The identifier in that scheme.' },
  },
  required: ['scheme', 'id'],
  additionalProperties: false,
};
const ENDPOINT_SCHEMA = { anyOf: [ENDPOINT_OBJECT, { type: 'null' }] };

export const CLIENT_EINVOICE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'client_einvoice',
  type: 'object',
  properties: {
    client_id: { type: 'integer', readonly: true },
    einvoice_address: { ...ENDPOINT_SCHEMA, description: 'Where the client receives e-invoices (BT-49), or null.' },
    buyer_reference: { type: 'string', description: "BT-10 of the client's e-invoices (a Leitweg-ID), or empty." },
    public_body: { type: 'boolean', description: 'A public body: its XRechnung needs a buyer_reference.' },
  },
  required: ['client_id', 'einvoice_address', 'buyer_reference', 'public_body'],
};

export const CLIENT_EINVOICE_ARGS: Record<string, ArgSchema> = {
  id: { type: 'integer', minimum: 1, required: true, description: 'The client id.' },
};

const CHANGE_ARGS: Record<string, ArgSchema> = {
  einvoice_address: { ...ENDPOINT_SCHEMA, description: 'Where the client receives e-invoices (an EAS scheme and id), or null for none.' },
  buyer_reference: { type: 'string', maxLength: 200, description: 'BT-10 (a Leitweg-ID for German public bodies), or empty.' },
  public_body: { type: 'boolean', description: 'Whether the client is a public body.' },
};

interface Row {
  address_scheme: string;
  address_id: string;
  buyer_reference: string;
  public_body: boolean;
}

const represent = (clientId: number, r: Row | undefined): ClientEinvoice => ({
  client_id: clientId,
  einvoice_address: r?.address_scheme ? { scheme: r.address_scheme, id: r.address_id } : null,
  buyer_reference: r?.buyer_reference ?? '',
  public_body: r?.public_body ?? false,
});

/** The e-invoice details of a client (none set: nothing but defaults). */
export async function clientEinvoice(ctx: PluginContext, clientId: number, tx?: Tx): Promise<ClientEinvoice> {
  const rows = await (tx ?? ctx.db).query<Row>(
    'select address_scheme, address_id, buyer_reference, public_body from e_invoicing_clients where client_id = $1',
    [clientId],
  );
  return represent(clientId, rows[0]);
}

/** Changes the fields given; an address Peppol would reject is 400 and nothing changes. */
async function changeClientEinvoice(
  ctx: PluginContext,
  clientId: number,
  input: Partial<ClientEinvoice>,
  actor: Actor,
): Promise<ClientEinvoice> {
  const address = input.einvoice_address;
  if (address) {
    const trimmed = { scheme: address.scheme, id: address.id.trim() };
    const problem = electronicAddressProblem(trimmed);
    if (problem) {
      throw new BillingError('rest_invalid_param', 'Invalid parameter(s): einvoice_address', { params: { einvoice_address: problem } });
    }
    input = { ...input, einvoice_address: trimmed };
  }
  return ctx.db.transaction(async (tx) => {
    const current = await clientEinvoice(ctx, clientId, tx);
    const next = { ...current, ...input, client_id: clientId, buyer_reference: (input.buyer_reference ?? current.buyer_reference).trim() };
    await tx.query(
      `insert into e_invoicing_clients (client_id, address_scheme, address_id, buyer_reference, public_body)
       values ($1, $2, $3, $4, $5)
       on conflict (client_id) do update set address_scheme = $2, address_id = $3, buyer_reference = $4, public_body = $5`,
      [clientId, next.einvoice_address?.scheme ?? '', next.einvoice_address?.id ?? '', next.buyer_reference, next.public_body],
    );
    await audit(tx, actor, { action: 'client.einvoice', objectType: 'user', objectId: clientId, details: { fields: Object.keys(input) } });
    return next;
  });
}

/** `GET` and `PUT /clients/{id}/einvoice`, through the scoped resolver (a client out of scope is 404). */
export const clientEinvoiceRoutes = [
  {
    path: '/clients/(?P<id>[\\d]+)/einvoice',
    methods: 'GET',
    capability: 'bill_view_clients',
    object: { param: 'id', kind: 'client' },
    args: CLIENT_EINVOICE_ARGS,
    schema: CLIENT_EINVOICE_SCHEMA,
    description: "The client's e-invoice details: electronic address, buyer reference, public body.",
    handler: async (req: RestRequest, ctx: PluginContext) => clientEinvoice(ctx, req.params.id),
  },
  {
    path: '/clients/(?P<id>[\\d]+)/einvoice',
    methods: 'PUT',
    capability: 'bill_edit_clients',
    object: { param: 'id', kind: 'client' },
    args: { ...CLIENT_EINVOICE_ARGS, ...CHANGE_ARGS },
    schema: CLIENT_EINVOICE_SCHEMA,
    response: { schema: CLIENT_EINVOICE_SCHEMA },
    description: "Sets the client's e-invoice details (the fields given).",
    handler: async (req: RestRequest, ctx: PluginContext) => {
      const { id, ...rest } = req.params as { id: number } & Partial<ClientEinvoice>;
      const input = Object.fromEntries(Object.entries(rest).filter(([k, v]) => k in CHANGE_ARGS && v !== undefined));
      return changeClientEinvoice(ctx, id, input, req.actor);
    },
  },
] as const;
