import type { Config } from '../../config.ts';
import { RestResponse, type ArgSchema, type RestRoute } from '../../http/rest/route.ts';
import type { AttachmentService } from './attachment-service.ts';
import { ATTACHMENT_MAX_BYTES } from './attachment-service.ts';
import { ATTACHMENT_TYPES, dispositionFilename, downloadDisposition } from './file-type.ts';

export const ATTACHMENT_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'attachment',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    document_id: { type: 'integer' },
    filename: { type: 'string', description: 'Safe file name, with the extension of the type its bytes are.' },
    content_type: { type: 'string', enum: [...ATTACHMENT_TYPES], description: 'Recognised from the bytes, never from the name or header.' },
    size: { type: 'integer' },
    sha256: { type: 'string' },
    created: { type: 'string', description: 'UTC, Y-m-d\\TH:i:s' },
  },
  required: ['id', 'document_id', 'filename', 'content_type', 'size', 'sha256', 'created'],
};

const ID: Record<string, ArgSchema> = { id: { type: 'integer', minimum: 1, required: true } };

/**
 * `POST|GET /invoices/{id}/attachments`, `POST|GET /quotes/{id}/attachments`, `GET|DELETE
 * /attachments/{id}` (docs/documents.md, Attachments). An attachment lies where its document does
 * (object kind `attachment`), so a document outside the caller's scope hides its files on every route.
 */
export function attachmentRoutes(attachments: AttachmentService, config: Config): RestRoute[] {
  const perKind = (route: 'invoices' | 'quotes', kind: 'invoice' | 'quote', caps: { view: string; edit: string }): RestRoute[] => [
    {
      path: `/${route}/(?P<id>[\\d]+)/attachments`,
      methods: 'POST',
      capability: caps.edit,
      object: { param: 'id', kind },
      args: ID,
      description: `Attaches a file (the raw body, at most 10 MiB; name in Content-Disposition) to ${kind === 'invoice' ? 'an invoice' : 'a quote'}: PDF, PNG, JPEG, CSV, plain text or XLSX, recognised by its content.`,
      // any declared type: the bytes decide what the file is
      requestTypes: [...ATTACHMENT_TYPES, 'application/octet-stream'],
      bodyLimit: ATTACHMENT_MAX_BYTES,
      response: { status: 201, schema: ATTACHMENT_SCHEMA, errors: ['billing_attachment_type', 'rest_payload_too_large'] },
      handler: async (req) => {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const name = dispositionFilename(req.headers['content-disposition']);
        const a = await attachments.add(kind, req.params.id, body, name, req.user.id || null);
        return new RestResponse(a, 201, { Location: `${config.baseUrl}/wp-json/billing/v1/attachments/${a.id}` });
      },
    },
    {
      path: `/${route}/(?P<id>[\\d]+)/attachments`,
      methods: 'GET',
      capability: caps.view,
      object: { param: 'id', kind },
      args: ID,
      description: `The files attached to ${kind === 'invoice' ? 'an invoice' : 'a quote'}, oldest first.`,
      response: { schema: { type: 'array', items: ATTACHMENT_SCHEMA } },
      handler: async (req) => {
        const doc = await attachments.documentOf(kind, req.params.id);
        return attachments.list(doc);
      },
    },
  ];
  return [
    ...perKind('invoices', 'invoice', { view: 'bill_view_invoices', edit: 'bill_edit_invoice' }),
    ...perKind('quotes', 'quote', { view: 'bill_view_quotes', edit: 'bill_edit_quote' }),
    {
      path: '/attachments/(?P<id>[\\d]+)',
      methods: 'GET',
      capability: 'bill_view_invoices',
      object: { param: 'id', kind: 'attachment' },
      args: ID,
      description: 'The attached file itself, as a download (never shown inline).',
      response: { contentType: ATTACHMENT_TYPES },
      handler: async (req) => {
        const file = await attachments.file(req.params.id);
        return new RestResponse(
          null,
          200,
          { 'Content-Disposition': downloadDisposition(file.filename), 'X-Content-Type-Options': 'nosniff' },
          { contentType: file.content_type, body: file.body },
        );
      },
    },
    {
      path: '/attachments/(?P<id>[\\d]+)',
      methods: 'DELETE',
      capability: 'bill_edit_invoice',
      object: { param: 'id', kind: 'attachment' },
      args: ID,
      description: "Deletes an attachment of a draft; an issued document's stay.",
      response: {
        schema: {
          type: 'object',
          properties: { deleted: { type: 'boolean' }, previous: ATTACHMENT_SCHEMA },
          required: ['deleted', 'previous'],
        },
        errors: ['billing_rest_invalid_state'],
      },
      handler: async (req) => ({ deleted: true, previous: await attachments.remove(req.params.id) }),
    },
  ];
}
