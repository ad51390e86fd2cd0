import { pdfResponse } from '../../http/rest/pdf-response.ts';
import type { ArgSchema, RestRequest, RestRoute } from '../../http/rest/route.ts';
import { AGING_BUCKETS, type Statement, type StatementService } from './statement-service.ts';

const CLIENT = { param: 'id', kind: 'client' } as const;

/** Who and which period: each part may be left out for its default. */
export const STATEMENT_ARGS: Record<string, ArgSchema> = {
  id: { type: 'integer', minimum: 1, required: true, description: 'The client id.' },
  from: { type: 'string', format: 'date-ymd', description: "Y-m-d, first day; default 1 January of to's year" },
  to: { type: 'string', format: 'date-ymd', description: 'Y-m-d, last day (included); default today in the site timezone' },
  currency: {
    type: 'string',
    pattern: '^[A-Z]{3}$',
    description: 'ISO 4217 code; needed only when the client has invoices in several currencies',
  },
};

const MONEY = { type: 'number' };
const LINE_SCHEMA = {
  type: 'object',
  properties: {
    date: { type: 'string' },
    type: { type: 'string', enum: ['invoice', 'payment', 'refund', 'credit_note'] },
    number: { type: 'string' },
    reference: { type: 'string', description: 'The number of the invoice the line belongs to.' },
    description: { type: 'string' },
    debit: MONEY,
    credit: MONEY,
    balance: MONEY,
  },
  required: ['date', 'type', 'number', 'reference', 'description', 'debit', 'credit', 'balance'],
};

export const STATEMENT_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'statement',
  type: 'object',
  properties: {
    client_id: { type: 'integer' },
    currency: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    opening_balance: MONEY,
    lines: { type: 'array', items: LINE_SCHEMA },
    closing_balance: MONEY,
    aging: {
      type: 'object',
      description: 'What is due on open invoices now, by days past each one’s due date on `to`.',
      properties: Object.fromEntries(AGING_BUCKETS.map((b) => [b, MONEY])),
      required: [...AGING_BUCKETS],
    },
  },
  required: ['client_id', 'currency', 'from', 'to', 'opening_balance', 'lines', 'closing_balance', 'aging'],
};

/** The statement as JSON: amounts as numbers rounded to the currency's minor unit, as every REST answer. */
export function statementRepresentation(s: Statement): Record<string, unknown> {
  return {
    client_id: s.clientId,
    currency: s.currency,
    from: s.from,
    to: s.to,
    opening_balance: s.opening.toNumber(),
    lines: s.lines.map((l) => ({
      date: l.date,
      type: l.type,
      number: l.number,
      reference: l.reference,
      description: l.description,
      debit: l.debit.toNumber(),
      credit: l.credit.toNumber(),
      balance: l.balance.toNumber(),
    })),
    closing_balance: s.closing.toNumber(),
    aging: Object.fromEntries(AGING_BUCKETS.map((b) => [b, s.aging[b].toNumber()])),
  };
}

/** `GET /clients/{id}/statement` (docs/payments.md, Statement of account). */
export function statementRoutes(d: { statements: StatementService }): RestRoute[] {
  const query = (req: RestRequest) => ({
    from: req.params.from || undefined,
    to: req.params.to || undefined,
    currency: req.params.currency || undefined,
    viewer: req.user,
  });
  return [
    {
      path: '/clients/(?P<id>[\\d]+)/statement',
      methods: 'GET',
      capability: 'bill_view_clients',
      object: CLIENT,
      args: STATEMENT_ARGS,
      schema: STATEMENT_SCHEMA,
      description: "A client's statement of account in one currency: opening balance, every movement, closing balance, aging.",
      response: { schema: STATEMENT_SCHEMA },
      handler: async (req) => statementRepresentation(await d.statements.statement(req.params.id, query(req))),
    },
    {
      path: '/clients/(?P<id>[\\d]+)/statement/pdf',
      methods: 'GET',
      capability: 'bill_view_clients',
      object: CLIENT,
      args: STATEMENT_ARGS,
      description: "The client's statement of account as a PDF, in the client's language.",
      response: { contentType: 'application/pdf' },
      handler: async (req) => {
        const { pdf, name } = await d.statements.pdf(req.params.id, query(req));
        return pdfResponse(pdf, req.headers['if-none-match'], name);
      },
    },
    {
      path: '/clients/(?P<id>[\\d]+)/statement/send',
      methods: 'POST',
      capability: 'bill_send_invoice',
      object: CLIENT,
      args: STATEMENT_ARGS,
      description: "Mails the statement of account to the client's address, its PDF attached (template statement).",
      response: {
        schema: {
          type: 'object',
          properties: { sent: { type: 'boolean' }, to: { type: 'string' }, delivery_id: { type: 'integer' } },
          required: ['sent', 'to', 'delivery_id'],
        },
        errors: ['billing_mail_failed', 'billing_mail_no_recipient'],
      },
      handler: async (req) => {
        const { to, deliveryId } = await d.statements.send(req.params.id, query(req), req.actor);
        return { sent: true, to, delivery_id: deliveryId };
      },
    },
  ];
}
